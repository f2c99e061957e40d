/**
 * Places of set 2: the countries, states/provinces and cities leads live in, the regions users name,
 * and how each is written (English, local and own-language names, codes). Only cities that are
 * unambiguous once their country is known; the ones also unambiguous without it are marked `alone`
 * (their leads may come with a blank country).
 */

/** The languages titles are written in: English plus the ten of the brief. */
export const LANGUAGES = ['en', 'de', 'fr', 'nl', 'es', 'pt', 'it', 'sv', 'da', 'no', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface Country {
  readonly code: string;
  /** English names as exports write them (the first is the usual one). */
  readonly english: readonly string[];
  /** Codes and code-like abbreviations ("DE", "DEU"; "UK" for GB; "USA"). */
  readonly codes: readonly string[];
  /** Names in the country's own language(s) that differ from the English one, by language code. */
  readonly own?: Readonly<Record<string, readonly string[]>>;
  /** Adjective for phrases ("German fintechs"). */
  readonly adjective?: string;
  /** How much of the pool lives there. */
  readonly weight: number;
}

export const COUNTRIES: readonly Country[] = [
  { code: 'DE', english: ['Germany'], codes: ['DE', 'DEU'], own: { de: ['Deutschland'] }, adjective: 'German', weight: 10 },
  { code: 'AT', english: ['Austria'], codes: ['AT', 'AUT'], own: { de: ['Österreich'] }, adjective: 'Austrian', weight: 3 },
  { code: 'CH', english: ['Switzerland'], codes: ['CH', 'CHE'], own: { de: ['Schweiz'], fr: ['Suisse'] }, adjective: 'Swiss', weight: 3 },
  { code: 'FR', english: ['France'], codes: ['FR', 'FRA'], adjective: 'French', weight: 7 },
  { code: 'BE', english: ['Belgium'], codes: ['BE', 'BEL'], own: { fr: ['Belgique'], nl: ['België'] }, adjective: 'Belgian', weight: 3 },
  { code: 'NL', english: ['Netherlands', 'The Netherlands', 'Holland'], codes: ['NL', 'NLD'], own: { nl: ['Nederland'] }, adjective: 'Dutch', weight: 5 },
  { code: 'LU', english: ['Luxembourg'], codes: ['LU', 'LUX'], weight: 1 },
  { code: 'ES', english: ['Spain'], codes: ['ES', 'ESP'], own: { es: ['España'] }, adjective: 'Spanish', weight: 5 },
  { code: 'MX', english: ['Mexico'], codes: ['MX', 'MEX'], own: { es: ['México'] }, adjective: 'Mexican', weight: 2 },
  { code: 'PT', english: ['Portugal'], codes: ['PT', 'PRT'], adjective: 'Portuguese', weight: 3 },
  { code: 'BR', english: ['Brazil'], codes: ['BR', 'BRA'], own: { pt: ['Brasil'] }, adjective: 'Brazilian', weight: 3 },
  { code: 'IT', english: ['Italy'], codes: ['IT', 'ITA'], own: { it: ['Italia'] }, adjective: 'Italian', weight: 6 },
  { code: 'SE', english: ['Sweden'], codes: ['SE', 'SWE'], own: { sv: ['Sverige'] }, adjective: 'Swedish', weight: 5 },
  { code: 'DK', english: ['Denmark'], codes: ['DK', 'DNK'], own: { da: ['Danmark'] }, adjective: 'Danish', weight: 4 },
  { code: 'NO', english: ['Norway'], codes: ['NO', 'NOR'], own: { no: ['Norge'] }, adjective: 'Norwegian', weight: 4 },
  { code: 'FI', english: ['Finland'], codes: ['FI', 'FIN'], own: { fi: ['Suomi'] }, adjective: 'Finnish', weight: 1 },
  { code: 'PL', english: ['Poland'], codes: ['PL', 'POL'], own: { pl: ['Polska'] }, adjective: 'Polish', weight: 5 },
  { code: 'US', english: ['United States', 'United States of America'], codes: ['US', 'USA', 'U.S.'], adjective: 'American', weight: 14 },
  { code: 'CA', english: ['Canada'], codes: ['CA', 'CAN'], adjective: 'Canadian', weight: 6 },
  { code: 'GB', english: ['United Kingdom', 'England', 'Great Britain'], codes: ['UK', 'GB', 'GBR'], adjective: 'British', weight: 6 },
  { code: 'IE', english: ['Ireland'], codes: ['IE', 'IRL'], adjective: 'Irish', weight: 1 },
  { code: 'SG', english: ['Singapore'], codes: ['SG', 'SGP'], weight: 1 },
  { code: 'AU', english: ['Australia'], codes: ['AU', 'AUS'], adjective: 'Australian', weight: 1 },
  { code: 'IN', english: ['India'], codes: ['IN', 'IND'], adjective: 'Indian', weight: 1 },
  { code: 'JP', english: ['Japan'], codes: ['JP', 'JPN'], adjective: 'Japanese', weight: 1 },
];

export const countryByCode = (code: string): Country => {
  const c = COUNTRIES.find((x) => x.code === code);
  if (c === undefined) throw new Error(`unknown country ${code}`);
  return c;
};

/** States and provinces this set renders (US, Canada, and a few German Länder). */
export interface State {
  readonly code: string;
  readonly names: readonly string[];
  /** What exports put in the state column besides the name ("TX", "ON", "QC"). */
  readonly abbreviations: readonly string[];
  /** A name in the local language when it differs ("Bayern", "Québec"). */
  readonly local?: readonly string[];
}

export const STATES: readonly State[] = [
  { code: 'US-NY', names: ['New York'], abbreviations: ['NY'] },
  { code: 'US-CA', names: ['California'], abbreviations: ['CA'] },
  { code: 'US-TX', names: ['Texas'], abbreviations: ['TX'] },
  { code: 'US-IL', names: ['Illinois'], abbreviations: ['IL'] },
  { code: 'US-MA', names: ['Massachusetts'], abbreviations: ['MA'] },
  { code: 'US-WA', names: ['Washington'], abbreviations: ['WA'] },
  { code: 'US-CO', names: ['Colorado'], abbreviations: ['CO'] },
  { code: 'US-GA', names: ['Georgia'], abbreviations: ['GA'] },
  { code: 'US-FL', names: ['Florida'], abbreviations: ['FL'] },
  { code: 'CA-ON', names: ['Ontario'], abbreviations: ['ON', 'Ont.'] },
  { code: 'CA-QC', names: ['Quebec'], abbreviations: ['QC'], local: ['Québec'] },
  { code: 'CA-BC', names: ['British Columbia'], abbreviations: ['BC'] },
  { code: 'CA-AB', names: ['Alberta'], abbreviations: ['AB'] },
  { code: 'DE-BY', names: ['Bavaria'], abbreviations: ['BY'], local: ['Bayern'] },
  { code: 'DE-BE', names: ['Berlin'], abbreviations: ['BE'] },
  { code: 'DE-HH', names: ['Hamburg'], abbreviations: ['HH'] },
  { code: 'DE-NW', names: ['North Rhine-Westphalia'], abbreviations: ['NRW'], local: ['Nordrhein-Westfalen'] },
  { code: 'DE-HE', names: ['Hesse'], abbreviations: ['HE'], local: ['Hessen'] },
  { code: 'DE-BW', names: ['Baden-Württemberg'], abbreviations: ['BW'], local: ['Baden-Wuerttemberg'] },
];

export const stateByCode = (code: string): State => {
  const s = STATES.find((x) => x.code === code);
  if (s === undefined) throw new Error(`unknown state ${code}`);
  return s;
};

export interface City {
  /** English name: the truth's city. */
  readonly name: string;
  readonly country: string;
  readonly state?: string;
  /** Other English spellings exports use ("Dusseldorf", "NYC"). */
  readonly english?: readonly string[];
  /** Local names that differ from the English one ("München", "Wien", "Lisboa"). */
  readonly local?: readonly string[];
  /** The language titles are written in there, when not English. */
  readonly language: Language;
  /** Unambiguous without a country: leads there may have a blank country. */
  readonly alone?: boolean;
  readonly weight: number;
}

export const CITIES: readonly City[] = [
  { name: 'Berlin', country: 'DE', state: 'DE-BE', language: 'de', alone: true, weight: 4 },
  { name: 'Munich', country: 'DE', state: 'DE-BY', local: ['München'], language: 'de', alone: true, weight: 4 },
  { name: 'Hamburg', country: 'DE', state: 'DE-HH', language: 'de', alone: true, weight: 3 },
  { name: 'Cologne', country: 'DE', state: 'DE-NW', local: ['Köln'], language: 'de', alone: true, weight: 2 },
  { name: 'Frankfurt', country: 'DE', state: 'DE-HE', local: ['Frankfurt am Main'], language: 'de', weight: 2 },
  { name: 'Düsseldorf', country: 'DE', state: 'DE-NW', english: ['Dusseldorf'], language: 'de', alone: true, weight: 1 },
  { name: 'Stuttgart', country: 'DE', state: 'DE-BW', language: 'de', alone: true, weight: 1 },
  { name: 'Nuremberg', country: 'DE', state: 'DE-BY', local: ['Nürnberg'], language: 'de', alone: true, weight: 1 },
  { name: 'Vienna', country: 'AT', local: ['Wien'], language: 'de', alone: true, weight: 3 },
  { name: 'Graz', country: 'AT', language: 'de', alone: true, weight: 1 },
  { name: 'Salzburg', country: 'AT', language: 'de', weight: 1 },
  { name: 'Zurich', country: 'CH', local: ['Zürich'], language: 'de', alone: true, weight: 3 },
  { name: 'Geneva', country: 'CH', local: ['Genève'], language: 'fr', alone: true, weight: 2 },
  { name: 'Basel', country: 'CH', language: 'de', alone: true, weight: 1 },
  { name: 'Lausanne', country: 'CH', language: 'fr', alone: true, weight: 1 },
  { name: 'Paris', country: 'FR', language: 'fr', alone: true, weight: 5 },
  { name: 'Lyon', country: 'FR', english: ['Lyons'], language: 'fr', alone: true, weight: 2 },
  { name: 'Marseille', country: 'FR', english: ['Marseilles'], language: 'fr', alone: true, weight: 1 },
  { name: 'Toulouse', country: 'FR', language: 'fr', alone: true, weight: 1 },
  { name: 'Lille', country: 'FR', language: 'fr', weight: 1 },
  { name: 'Bordeaux', country: 'FR', language: 'fr', weight: 1 },
  { name: 'Brussels', country: 'BE', local: ['Bruxelles', 'Brussel'], language: 'fr', alone: true, weight: 3 },
  { name: 'Antwerp', country: 'BE', local: ['Antwerpen'], language: 'nl', alone: true, weight: 2 },
  { name: 'Ghent', country: 'BE', local: ['Gent'], language: 'nl', weight: 1 },
  { name: 'Liège', country: 'BE', english: ['Liege'], language: 'fr', weight: 1 },
  { name: 'Amsterdam', country: 'NL', language: 'nl', alone: true, weight: 4 },
  { name: 'Rotterdam', country: 'NL', language: 'nl', alone: true, weight: 2 },
  { name: 'The Hague', country: 'NL', local: ['Den Haag', "'s-Gravenhage"], language: 'nl', alone: true, weight: 1 },
  { name: 'Utrecht', country: 'NL', language: 'nl', weight: 1 },
  { name: 'Eindhoven', country: 'NL', language: 'nl', alone: true, weight: 1 },
  { name: 'Luxembourg', country: 'LU', english: ['Luxembourg City'], local: ['Lëtzebuerg'], language: 'fr', weight: 1 },
  { name: 'Madrid', country: 'ES', language: 'es', alone: true, weight: 4 },
  { name: 'Barcelona', country: 'ES', language: 'es', alone: true, weight: 3 },
  { name: 'Valencia', country: 'ES', local: ['València'], language: 'es', weight: 1 },
  { name: 'Seville', country: 'ES', local: ['Sevilla'], language: 'es', weight: 1 },
  { name: 'Bilbao', country: 'ES', language: 'es', weight: 1 },
  { name: 'Mexico City', country: 'MX', local: ['Ciudad de México', 'CDMX'], language: 'es', alone: true, weight: 2 },
  { name: 'Guadalajara', country: 'MX', language: 'es', weight: 1 },
  { name: 'Monterrey', country: 'MX', language: 'es', alone: true, weight: 1 },
  { name: 'Lisbon', country: 'PT', local: ['Lisboa'], language: 'pt', alone: true, weight: 3 },
  { name: 'Porto', country: 'PT', english: ['Oporto'], language: 'pt', weight: 2 },
  { name: 'Braga', country: 'PT', language: 'pt', weight: 1 },
  { name: 'São Paulo', country: 'BR', english: ['Sao Paulo'], language: 'pt', alone: true, weight: 3 },
  { name: 'Rio de Janeiro', country: 'BR', language: 'pt', alone: true, weight: 1 },
  { name: 'Belo Horizonte', country: 'BR', language: 'pt', weight: 1 },
  { name: 'Curitiba', country: 'BR', language: 'pt', weight: 1 },
  { name: 'Milan', country: 'IT', local: ['Milano'], language: 'it', alone: true, weight: 4 },
  { name: 'Rome', country: 'IT', local: ['Roma'], language: 'it', weight: 2 },
  { name: 'Turin', country: 'IT', local: ['Torino'], language: 'it', alone: true, weight: 1 },
  { name: 'Bologna', country: 'IT', language: 'it', alone: true, weight: 1 },
  { name: 'Florence', country: 'IT', local: ['Firenze'], language: 'it', weight: 1 },
  { name: 'Naples', country: 'IT', local: ['Napoli'], language: 'it', weight: 1 },
  { name: 'Stockholm', country: 'SE', language: 'sv', alone: true, weight: 4 },
  { name: 'Gothenburg', country: 'SE', local: ['Göteborg'], language: 'sv', alone: true, weight: 2 },
  { name: 'Malmö', country: 'SE', english: ['Malmo'], language: 'sv', alone: true, weight: 1 },
  { name: 'Uppsala', country: 'SE', language: 'sv', weight: 1 },
  { name: 'Copenhagen', country: 'DK', local: ['København'], language: 'da', alone: true, weight: 4 },
  { name: 'Aarhus', country: 'DK', local: ['Århus'], language: 'da', alone: true, weight: 2 },
  { name: 'Odense', country: 'DK', language: 'da', weight: 1 },
  { name: 'Oslo', country: 'NO', language: 'no', alone: true, weight: 4 },
  { name: 'Bergen', country: 'NO', language: 'no', weight: 2 },
  { name: 'Trondheim', country: 'NO', language: 'no', alone: true, weight: 1 },
  { name: 'Stavanger', country: 'NO', language: 'no', alone: true, weight: 1 },
  { name: 'Helsinki', country: 'FI', local: ['Helsingfors'], language: 'en', alone: true, weight: 2 },
  { name: 'Espoo', country: 'FI', language: 'en', weight: 1 },
  { name: 'Tampere', country: 'FI', language: 'en', weight: 1 },
  { name: 'Warsaw', country: 'PL', local: ['Warszawa'], language: 'pl', alone: true, weight: 4 },
  { name: 'Krakow', country: 'PL', english: ['Cracow'], local: ['Kraków'], language: 'pl', alone: true, weight: 2 },
  { name: 'Wroclaw', country: 'PL', local: ['Wrocław'], language: 'pl', alone: true, weight: 1 },
  { name: 'Gdansk', country: 'PL', local: ['Gdańsk'], language: 'pl', alone: true, weight: 1 },
  { name: 'Poznan', country: 'PL', local: ['Poznań'], language: 'pl', weight: 1 },
  { name: 'New York', country: 'US', state: 'US-NY', english: ['New York City', 'NYC'], language: 'en', weight: 4 },
  { name: 'San Francisco', country: 'US', state: 'US-CA', language: 'en', alone: true, weight: 3 },
  { name: 'Los Angeles', country: 'US', state: 'US-CA', language: 'en', alone: true, weight: 1 },
  { name: 'Austin', country: 'US', state: 'US-TX', language: 'en', weight: 2 },
  { name: 'Houston', country: 'US', state: 'US-TX', language: 'en', alone: true, weight: 1 },
  { name: 'Dallas', country: 'US', state: 'US-TX', language: 'en', weight: 1 },
  { name: 'Chicago', country: 'US', state: 'US-IL', language: 'en', alone: true, weight: 2 },
  { name: 'Boston', country: 'US', state: 'US-MA', language: 'en', weight: 2 },
  { name: 'Seattle', country: 'US', state: 'US-WA', language: 'en', alone: true, weight: 2 },
  { name: 'Denver', country: 'US', state: 'US-CO', language: 'en', weight: 1 },
  { name: 'Atlanta', country: 'US', state: 'US-GA', language: 'en', weight: 1 },
  { name: 'Miami', country: 'US', state: 'US-FL', language: 'en', weight: 1 },
  { name: 'Toronto', country: 'CA', state: 'CA-ON', language: 'en', alone: true, weight: 4 },
  { name: 'Ottawa', country: 'CA', state: 'CA-ON', language: 'en', alone: true, weight: 1 },
  { name: 'Montreal', country: 'CA', state: 'CA-QC', local: ['Montréal'], language: 'fr', alone: true, weight: 3 },
  { name: 'Quebec City', country: 'CA', state: 'CA-QC', local: ['Québec', 'Ville de Québec'], language: 'fr', weight: 1 },
  { name: 'Vancouver', country: 'CA', state: 'CA-BC', language: 'en', weight: 2 },
  { name: 'Calgary', country: 'CA', state: 'CA-AB', language: 'en', alone: true, weight: 1 },
  { name: 'London', country: 'GB', language: 'en', weight: 5 },
  { name: 'Manchester', country: 'GB', language: 'en', weight: 2 },
  { name: 'Edinburgh', country: 'GB', language: 'en', alone: true, weight: 1 },
  { name: 'Bristol', country: 'GB', language: 'en', weight: 1 },
  { name: 'Dublin', country: 'IE', language: 'en', weight: 2 },
  { name: 'Cork', country: 'IE', language: 'en', weight: 1 },
  { name: 'Singapore', country: 'SG', language: 'en', weight: 1 },
  { name: 'Sydney', country: 'AU', language: 'en', weight: 1 },
  { name: 'Melbourne', country: 'AU', language: 'en', weight: 1 },
  { name: 'Bangalore', country: 'IN', local: ['Bengaluru'], language: 'en', weight: 1 },
  { name: 'Tokyo', country: 'JP', language: 'en', alone: true, weight: 1 },
];

export const cityOf = (name: string, country: string): City => {
  const c = CITIES.find((x) => x.name === name && x.country === country);
  if (c === undefined) throw new Error(`unknown city ${name}, ${country}`);
  return c;
};

/** Geographic Europe (Russia and Turkey left out: no lead lives there, and users rarely mean them). */
export const EUROPE = [
  'AD', 'AL', 'AT', 'BA', 'BE', 'BG', 'BY', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GB', 'GR', 'HR', 'HU', 'IE', 'IS',
  'IT', 'LI', 'LT', 'LU', 'LV', 'MC', 'MD', 'ME', 'MK', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'RS', 'SE', 'SI', 'SK', 'SM', 'UA', 'VA',
] as const;

export const EU = [
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT',
  'RO', 'SK', 'SI', 'ES', 'SE',
] as const;

/**
 * Regions users name, as countries. The Nordics include Finland and Iceland, Scandinavia does not;
 * Europe is geographic (the UK, Switzerland and Norway are in it), the EU is the 27 members.
 */
export const REGIONS = {
  nordics: ['SE', 'DK', 'NO', 'FI', 'IS'],
  scandinavia: ['SE', 'DK', 'NO'],
  dach: ['DE', 'AT', 'CH'],
  benelux: ['BE', 'NL', 'LU'],
  iberia: ['ES', 'PT'],
  europe: EUROPE,
  eu: EU,
} as const satisfies Record<string, readonly string[]>;
export type RegionId = keyof typeof REGIONS;
