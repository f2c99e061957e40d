/**
 * The grammar of how users describe audiences: [who] at [what kind of company, how big] in
 * [where], each slot optional, each written in the ways users write it. Every slot comes with its
 * meaning as data (a piece of the phrase's Predicate), so a phrase's expected leads follow from
 * the leads' truth alone.
 *
 * Slots are chosen from an anchor lead (phrase-set.ts): the grammar offers every reading of a slot
 * that includes the anchor ("finance leaders", "heads of finance", "senior leadership" for a Head of
 * Finance; "Munich", "Bavaria", "Germany", "DACH", "Europe" for a lead in Munich), so no phrase
 * names nobody. Label rules live in truth.ts (umbrellas, size words, level words) and geo.ts (regions).
 */
import { cityOf, countryByCode, REGIONS, stateByCode, type RegionId } from './geo';
import type { Rng } from './random';
import { pickRendering, type Part } from './render/reserve';
import {
  LEVEL_WORDS,
  NUMERIC_SIZES,
  SIZE_WORDS,
  UMBRELLAS,
  inRange,
  type FunctionId,
  type IndustryId,
  type LeadTruth,
  type LevelWordId,
  type NumericSizeId,
  type PersonClause,
  type PlaceClause,
  type RoleId,
  type SizeRange,
  type SizeWordId,
  type UmbrellaId,
} from './truth';

/** A way of writing the people slot; `pre` forms may take a modifier in front ("SaaS CTOs"). */
export interface PeopleForm {
  readonly text: string;
  readonly pre: boolean;
}

export interface PeopleConcept {
  readonly id: string;
  readonly clauses: readonly PersonClause[];
  readonly forms: readonly PeopleForm[];
  /** How often this reading is chosen among those that fit the anchor. */
  readonly weight: number;
}

export interface PlaceConcept {
  readonly id: string;
  readonly clause: PlaceClause;
  /** "in Munich", "in the Nordics". */
  readonly prep: readonly string[];
  /** Before a noun: "Munich", "Munich-based", "German", "Nordic". */
  readonly pre: readonly string[];
  /** "based in Munich". */
  readonly based: readonly string[];
}

export interface IndustryConcept {
  readonly id: string;
  readonly industries: readonly IndustryId[];
  readonly umbrella: boolean;
  /** Before a noun: "e-commerce", "healthcare". */
  readonly adj: readonly string[];
  /** A noun phrase for the companies: "e-commerce companies", "online retailers". */
  readonly np: readonly string[];
  /** After "in": "in e-commerce". */
  readonly field: readonly string[];
  /**
   * Whether the adjective may stand right before the people ("SaaS CTOs", "healthcare managers").
   * Not where the pair reads as a job ("construction managers", "logistics managers", "industrial
   * accountants") or as a function ("technology engineering leadership").
   */
  readonly beforePeople: boolean;
}

export interface SizeConcept {
  readonly id: string;
  readonly range: SizeRange;
  /** Size words ("startups") are umbrella words too; numeric phrases carry `with`. */
  readonly word: boolean;
  readonly np: readonly string[];
  /** With an industry adjective: "{adj} startups", "mid-market {adj} companies". */
  readonly withAdj: readonly string[];
  /** "with fewer than 50 employees". */
  readonly with: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// People

type BusinessFunction = Exclude<FunctionId, 'executive' | 'other'>;

/** How users name a function before "leaders", after "heads of" and so on. */
const FUNCTION_WORDS: Readonly<Record<BusinessFunction, readonly string[]>> = {
  engineering: ['engineering', 'Engineering'],
  product: ['product', 'Product'],
  design: ['design', 'Design'],
  marketing: ['marketing', 'Marketing'],
  sales: ['sales', 'Sales'],
  customer_success: ['customer service', 'customer success', 'customer support', 'support', 'Customer Service'],
  // Not "people leaders": HR jargon for managers of people in any function.
  people: ['HR', 'human resources', 'people and HR', 'People & HR'],
  finance: ['finance', 'Finance', 'finance and accounting'],
  operations: ['operations', 'ops', 'Operations'],
  legal: ['legal', 'Legal'],
  it: ['IT'],
  data: ['data', 'data and analytics', 'analytics'],
  security: ['security', 'cybersecurity', 'information security'],
};

/**
 * Words before "managers" that mean people managers of the function. Not "customer success
 * managers" or "product managers": those are individual contributors' job names.
 */
const MANAGER_WORDS: Readonly<Partial<Record<BusinessFunction, readonly string[]>>> = {
  engineering: ['engineering'],
  design: ['design'],
  marketing: ['marketing'],
  sales: ['sales'],
  customer_success: ['customer service', 'customer support', 'support'],
  people: ['HR'],
  finance: ['finance', 'accounting'],
  operations: ['operations'],
  legal: ['legal'],
  it: ['IT'],
  data: ['analytics', 'data science'],
  security: ['security', 'information security'],
};

/** The function's C-level post, as users name it. */
const C_TITLES: Readonly<Record<BusinessFunction, readonly string[]>> = {
  engineering: ['CTOs', 'chief technology officers'],
  product: ['chief product officers'],
  design: ['chief design officers'],
  marketing: ['CMOs', 'chief marketing officers'],
  sales: ['CROs', 'chief revenue officers', 'chief sales officers'],
  customer_success: ['chief customer officers'],
  people: ['CHROs', 'chief people officers'],
  finance: ['CFOs', 'chief financial officers'],
  operations: ['COOs', 'chief operating officers'],
  legal: ['general counsels', 'chief legal officers'],
  it: ['CIOs', 'chief information officers'],
  data: ['chief data officers'],
  security: ['CISOs', 'chief information security officers'],
};
const C_SINGULAR: Readonly<Partial<Record<BusinessFunction, string>>> = {
  engineering: 'CTO',
  marketing: 'CMO',
  finance: 'CFO',
  operations: 'COO',
  it: 'CIO',
  security: 'CISO',
};

/** Job names that select a role whatever its level ("software engineers" includes senior and junior ones). */
const ROLE_NAMES: Readonly<Partial<Record<RoleId, { roles: readonly RoleId[]; forms: readonly string[] }>>> = {
  software_engineer: { roles: ['software_engineer'], forms: ['software engineers', 'developers', 'software developers'] },
  accountant: { roles: ['accountant'], forms: ['accountants'] },
  sales_rep: { roles: ['sales_rep', 'sdr'], forms: ['sales reps', 'sales representatives'] },
  sdr: { roles: ['sales_rep', 'sdr'], forms: ['sales reps', 'sales representatives'] },
  product_manager: { roles: ['product_manager'], forms: ['product managers'] },
  counsel: { roles: ['counsel'], forms: ['lawyers', 'legal counsel'] },
  designer: { roles: ['designer'], forms: ['designers'] },
};

const TECH: readonly BusinessFunction[] = ['engineering', 'it', 'data', 'security'];

const pre = (text: string): PeopleForm => ({ text, pre: true });
const bare = (text: string): PeopleForm => ({ text, pre: false });

const LEVEL_ONLY: Readonly<Record<LevelWordId, readonly PeopleForm[]>> = {
  leaders: [pre('leaders'), pre('business leaders'), bare('leadership')],
  executives: [pre('executives'), pre('execs')],
  c_suite: [pre('C-suite executives'), pre('C-level executives'), bare('C-suite'), bare('C-level')],
  vp_and_above: [bare('VP-level and above'), bare('VPs and above'), bare('VP and above')],
  senior_leadership: [bare('senior leadership'), pre('senior leaders')],
  directors_and_above: [bare('directors and above'), bare('director-level and above'), bare('Director+')],
  managers: [pre('managers')],
  directors: [pre('directors')],
  heads: [bare('heads of department')],
  vps: [pre('VPs'), pre('vice presidents')],
};

/** Every reading of the people slot that includes the anchor. */
export function peopleConcepts(t: LeadTruth): PeopleConcept[] {
  const out: PeopleConcept[] = [];
  const add = (id: string, clauses: PersonClause[], forms: PeopleForm[], weight: number): void => {
    if (forms.length > 0) out.push({ id, clauses, forms, weight });
  };
  for (const [word, levels] of Object.entries(LEVEL_WORDS) as [LevelWordId, readonly string[]][]) {
    if (word === 'heads') continue; // "heads of department" reads as a level but nobody says it alone
    if (levels.includes(t.level)) add(`level:${word}`, [{ levels: LEVEL_WORDS[word] }], [...LEVEL_ONLY[word]], word === 'managers' || word === 'directors' ? 0.6 : 1);
  }
  if (t.founder) add('founders', [{ founder: true }], [pre('founders'), pre('co-founders'), bare('founders and co-founders')], 2);
  if (t.role === 'ceo') {
    add('ceos', [{ roles: ['ceo'] }], [pre('CEOs'), pre('chief executives'), pre('managing directors'), bare('CEO'), bare('CEOs and managing directors')], 3);
  }
  if (t.role === 'ceo' || t.founder) add('ceos-founders', [{ roles: ['ceo'] }, { founder: true }], [bare('founders and CEOs'), bare('CEOs and founders')], 1.5);

  const fn = t.function;
  if (fn === 'executive' || fn === 'other') return out;
  const words = FUNCTION_WORDS[fn];
  const f = { functions: [fn] as const };
  if ((LEVEL_WORDS.leaders as readonly string[]).includes(t.level)) {
    add(`${fn}:leaders`, [{ ...f, levels: LEVEL_WORDS.leaders }], words.flatMap((w) => [pre(`${w} leaders`), pre(`${w} leadership`), bare(`leaders in ${w}`)]), 4);
    if (TECH.includes(fn)) add('tech:leaders', [{ functions: TECH, levels: LEVEL_WORDS.leaders }], [pre('tech leaders'), pre('technology leaders')], 1.5);
  }
  if (t.level === 'head') add(`${fn}:heads`, [{ ...f, levels: ['head'] }], words.flatMap((w) => [bare(`heads of ${w}`), bare(`head of ${w}`), pre(`${w} heads`)]), 3);
  if (t.level === 'director') add(`${fn}:directors`, [{ ...f, levels: ['director'] }], words.flatMap((w) => [pre(`${w} directors`), bare(`directors of ${w}`), bare(`director of ${w}`)]), 3);
  if (t.level === 'vp') add(`${fn}:vps`, [{ ...f, levels: ['vp'] }], words.flatMap((w) => [bare(`VPs of ${w}`), pre(`${w} VPs`), bare(`vice presidents of ${w}`), bare(`VP ${w}`)]), 3);
  if (t.level === 'manager') add(`${fn}:managers`, [{ ...f, levels: ['manager'] }], (MANAGER_WORDS[fn] ?? []).flatMap((w) => [pre(`${w} managers`), bare(`${w} manager`)]), 3);
  if ((t.level === 'vp' || t.level === 'c_level') && fn !== 'sales' && fn !== 'marketing') {
    // Not "sales executives" or "marketing executives": in the UK those are individual contributors.
    add(`${fn}:executives`, [{ ...f, levels: LEVEL_WORDS.executives }], words.map((w) => pre(`${w} executives`)), 1.5);
  }
  if (t.level === 'c_level') {
    const singular = C_SINGULAR[fn];
    add(`${fn}:c`, [{ ...f, levels: ['c_level'] }], [...C_TITLES[fn].map(pre), ...(singular !== undefined ? [bare(singular)] : [])], 4);
  }
  if (fn === 'engineering' && (t.level === 'c_level' || t.level === 'vp')) {
    add('cto+vp-eng', [{ ...f, levels: ['c_level', 'vp'] }], [bare('CTOs and VPs of Engineering'), bare('CTOs and VP Engineering')], 1.5);
  }
  if (fn === 'finance' && (t.level === 'c_level' || t.level === 'director')) {
    add('cfo+finance-directors', [{ ...f, levels: ['c_level', 'director'] }], [bare('CFOs and finance directors'), bare('CFOs and Finance Directors')], 1.5);
  }
  const named = ROLE_NAMES[t.role];
  if (named !== undefined) add(`role:${named.roles.join('+')}`, [{ roles: named.roles }], named.forms.map(pre), 3);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Places

/** How users name a country (with "the" where English wants it). */
const COUNTRY_PHRASES: Readonly<Record<string, { readonly prep: readonly string[]; readonly pre: readonly string[] }>> = {
  US: { prep: ['in the US', 'in the USA', 'in the United States', 'in the U.S.'], pre: ['US-based', 'US', 'American'] },
  GB: { prep: ['in the UK', 'in the United Kingdom'], pre: ['UK-based', 'UK', 'British'] },
  NL: { prep: ['in the Netherlands', 'in Holland'], pre: ['Dutch', 'Netherlands-based'] },
};

const REGION_PHRASES: Readonly<Record<RegionId, { readonly prep: readonly string[]; readonly pre: readonly string[] }>> = {
  nordics: { prep: ['in the Nordics', 'in the Nordic countries'], pre: ['Nordic'] },
  scandinavia: { prep: ['in Scandinavia'], pre: ['Scandinavian'] },
  dach: { prep: ['in DACH', 'in the DACH region', 'in Germany, Austria and Switzerland'], pre: ['DACH', 'DACH-based'] },
  benelux: { prep: ['in Benelux', 'in the Benelux'], pre: ['Benelux'] },
  iberia: { prep: ['in Iberia', 'in Spain and Portugal'], pre: ['Iberian'] },
  europe: { prep: ['in Europe'], pre: ['European', 'Europe-based'] },
  eu: { prep: ['in the EU', 'in the European Union'], pre: ['EU-based'] },
};

/** How users name a state; the ones that would read as a city or a country are left out. */
const STATE_PHRASES: Readonly<Record<string, readonly string[]>> = {
  'US-NY': ['New York State'],
  'US-CA': ['California'],
  'US-TX': ['Texas', 'TX'],
  'US-IL': ['Illinois'],
  'US-MA': ['Massachusetts'],
  'US-WA': ['Washington State'],
  'US-CO': ['Colorado'],
  'US-FL': ['Florida'],
  'CA-ON': ['Ontario'],
  'CA-QC': ['Quebec', 'Québec'],
  'CA-BC': ['British Columbia', 'BC'],
  'CA-AB': ['Alberta'],
  'DE-BY': ['Bavaria'],
  'DE-NW': ['North Rhine-Westphalia', 'NRW'],
  'DE-HE': ['Hesse'],
  'DE-BW': ['Baden-Württemberg'],
};

/** How users name a city: its English name, a few usual short forms, now and then the local name. */
const CITY_PHRASES: Readonly<Record<string, readonly string[]>> = {
  'US:New York': ['NYC', 'New York City'],
  'US:San Francisco': ['San Francisco', 'SF'],
  'DE:Munich': ['Munich', 'Munich', 'München'],
  'DE:Cologne': ['Cologne', 'Köln'],
  'AT:Vienna': ['Vienna', 'Wien'],
  'CH:Zurich': ['Zurich', 'Zürich'],
  'BR:São Paulo': ['São Paulo', 'Sao Paulo'],
  'PL:Krakow': ['Krakow', 'Kraków'],
  'DK:Copenhagen': ['Copenhagen'],
  'SE:Gothenburg': ['Gothenburg'],
  'CA:Montreal': ['Montreal', 'Montréal'],
};

export function placeConcepts(t: LeadTruth): PlaceConcept[] {
  const out: PlaceConcept[] = [];
  const names = CITY_PHRASES[`${t.country}:${t.city}`] ?? [t.city];
  out.push({
    id: `city:${t.country}:${t.city}`,
    clause: { cities: [{ city: t.city, country: t.country }] },
    prep: names.map((n) => `in ${n}`),
    pre: names.flatMap((n) => [n, `${n}-based`]),
    based: names.map((n) => `based in ${n}`),
  });
  const city = cityOf(t.city, t.country);
  const statePhrases = t.state !== null && city.state !== undefined ? STATE_PHRASES[t.state] : undefined;
  if (statePhrases !== undefined) {
    stateByCode(t.state!); // a state the set knows
    out.push({
      id: `state:${t.state}`,
      clause: { states: [t.state!] },
      prep: statePhrases.map((n) => `in ${n}`),
      pre: statePhrases.flatMap((n) => [n, `${n}-based`]),
      based: statePhrases.map((n) => `based in ${n}`),
    });
  }
  const country = countryByCode(t.country);
  const cp = COUNTRY_PHRASES[t.country] ?? {
    prep: [`in ${country.english[0]!}`],
    pre: [...(country.adjective !== undefined ? [country.adjective] : []), `${country.english[0]!}-based`],
  };
  out.push({
    id: `country:${t.country}`,
    clause: { countries: [t.country] },
    prep: cp.prep,
    pre: cp.pre,
    based: cp.prep.map((p) => p.replace(/^in /, 'based in ')),
  });
  for (const [region, members] of Object.entries(REGIONS) as [RegionId, readonly string[]][]) {
    if (!members.includes(t.country)) continue;
    const rp = REGION_PHRASES[region];
    out.push({ id: `region:${region}`, clause: { countries: members }, prep: rp.prep, pre: rp.pre, based: rp.prep.map((p) => p.replace(/^in /, 'based in ')) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Industries

const UMBRELLA_WORDS: Readonly<Record<UmbrellaId, Omit<IndustryConcept, 'id' | 'industries' | 'umbrella'>>> = {
  ecommerce: {
    beforePeople: true,
    adj: ['e-commerce', 'ecommerce', 'eCommerce', 'E-Commerce'],
    np: ['e-commerce companies', 'ecommerce companies', 'online retailers', 'e-commerce brands', 'e-commerce businesses'],
    field: ['e-commerce', 'ecommerce'],
  },
  retail: { beforePeople: false, adj: ['retail'], np: ['retailers', 'retail companies', 'retail businesses'], field: ['retail'] },
  healthcare: { beforePeople: true, adj: ['healthcare', 'health care'], np: ['healthcare companies', 'healthcare organizations', 'healthcare organisations'], field: ['healthcare'] },
  life_sciences: { beforePeople: true, adj: ['life sciences', 'life science'], np: ['life sciences companies', 'life science companies'], field: ['life sciences'] },
  financial_services: {
    beforePeople: true,
    adj: ['financial services'],
    np: ['financial services companies', 'financial services firms', 'financial institutions'],
    field: ['financial services'],
  },
  tech: { beforePeople: false, adj: ['tech', 'technology'], np: ['tech companies', 'technology companies'], field: ['tech'] },
  manufacturing: { beforePeople: false, adj: ['manufacturing', 'industrial'], np: ['manufacturers', 'manufacturing companies', 'industrial companies'], field: ['manufacturing'] },
  hospitality: { beforePeople: false, adj: ['hospitality'], np: ['hospitality companies', 'hospitality businesses'], field: ['hospitality'] },
};

/** Leaves users name on their own (the others only through an umbrella). */
const LEAF_WORDS: Readonly<Partial<Record<IndustryId, Omit<IndustryConcept, 'id' | 'industries' | 'umbrella'>>>> = {
  saas: { beforePeople: true, adj: ['SaaS', 'B2B SaaS'], np: ['SaaS companies', 'SaaS businesses'], field: ['SaaS'] },
  fintech: { beforePeople: true, adj: ['fintech'], np: ['fintechs', 'fintech companies', 'FinTechs'], field: ['fintech'] },
  banking: { beforePeople: true, adj: ['banking'], np: ['banks'], field: ['banking'] },
  insurance: { beforePeople: true, adj: ['insurance'], np: ['insurers', 'insurance companies'], field: ['insurance'] },
  hospitals: { beforePeople: false, adj: ['hospital'], np: ['hospitals', 'hospital groups'], field: [] },
  clinics: { beforePeople: false, adj: ['clinic'], np: ['clinics', 'medical practices'], field: [] },
  pharma: { beforePeople: true, adj: ['pharma', 'pharmaceutical'], np: ['pharma companies', 'pharmaceutical companies'], field: ['pharma'] },
  biotech: { beforePeople: true, adj: ['biotech'], np: ['biotechs', 'biotech companies'], field: ['biotech'] },
  medical_devices: { beforePeople: true, adj: ['medtech', 'medical device'], np: ['medical device companies', 'medtech companies', 'medical device manufacturers'], field: ['medtech'] },
  health_tech: { beforePeople: true, adj: ['digital health', 'healthtech'], np: ['digital health companies', 'healthtech companies'], field: ['digital health'] },
  logistics: { beforePeople: false, adj: ['logistics'], np: ['logistics companies', 'logistics providers', '3PLs'], field: ['logistics'] },
  automotive: { beforePeople: true, adj: ['automotive'], np: ['automotive companies', 'automotive suppliers'], field: ['automotive'] },
  law_firms: { beforePeople: false, adj: ['law firm'], np: ['law firms'], field: [] },
  hotels: { beforePeople: false, adj: ['hotel'], np: ['hotels', 'hotel groups'], field: [] },
  restaurants: { beforePeople: false, adj: ['restaurant'], np: ['restaurants', 'restaurant groups'], field: [] },
  consulting: { beforePeople: false, adj: ['consulting'], np: ['consulting firms', 'consultancies'], field: ['consulting'] },
  it_services: { beforePeople: false, adj: ['IT services'], np: ['IT services companies', 'IT service providers', 'MSPs'], field: ['IT services'] },
  telecom: { beforePeople: false, adj: ['telecom'], np: ['telecom companies', 'telcos'], field: ['telecom'] },
  energy: { beforePeople: false, adj: ['energy'], np: ['energy companies'], field: ['energy'] },
  construction: { beforePeople: false, adj: ['construction'], np: ['construction companies'], field: ['construction'] },
  real_estate: { beforePeople: false, adj: ['real estate'], np: ['real estate companies'], field: ['real estate'] },
  store_retail: { beforePeople: false, adj: ['brick-and-mortar'], np: ['brick-and-mortar retailers', 'store-based retailers'], field: [] },
  mail_order_retail: { beforePeople: false, adj: ['mail-order'], np: ['mail-order companies', 'catalog retailers'], field: [] },
  wholesale: { beforePeople: false, adj: ['wholesale'], np: ['wholesalers', 'wholesale distributors'], field: ['wholesale'] },
  advertising: { beforePeople: false, adj: ['advertising'], np: ['advertising agencies', 'marketing agencies'], field: ['advertising'] },
  asset_management: { beforePeople: false, adj: ['asset management'], np: ['asset managers', 'investment firms'], field: ['asset management'] },
  chemicals: { beforePeople: false, adj: ['chemical'], np: ['chemical companies'], field: ['chemicals'] },
  industrial_machinery: { beforePeople: false, adj: ['machinery'], np: ['machinery manufacturers', 'machine builders'], field: [] },
  education: { beforePeople: false, adj: ['education'], np: ['education providers', 'education companies'], field: ['education'] },
  fitness: { beforePeople: false, adj: ['fitness'], np: ['gyms', 'fitness companies'], field: ['fitness'] },
  veterinary: { beforePeople: false, adj: ['veterinary'], np: ['veterinary clinics', 'vet practices'], field: [] },
};

export function industryConcepts(leaf: IndustryId): IndustryConcept[] {
  const out: IndustryConcept[] = [];
  for (const [u, members] of Object.entries(UMBRELLAS) as [UmbrellaId, readonly IndustryId[]][]) {
    if (members.includes(leaf)) out.push({ id: `umbrella:${u}`, industries: members, umbrella: true, ...UMBRELLA_WORDS[u] });
  }
  const words = LEAF_WORDS[leaf];
  if (words !== undefined) out.push({ id: `leaf:${leaf}`, industries: [leaf], umbrella: false, ...words });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Sizes

const SIZE_WORD_FORMS: Readonly<Record<SizeWordId, { np: readonly string[]; withAdj: readonly string[] }>> = {
  startup: { np: ['startups', 'start-ups'], withAdj: ['{adj} startups', '{adj} start-ups'] },
  smb: { np: ['SMBs', 'small businesses', 'small and medium-sized businesses'], withAdj: ['{adj} SMBs', 'small {adj} businesses'] },
  mid_market: { np: ['mid-market companies', 'mid-sized companies', 'midmarket companies'], withAdj: ['mid-market {adj} companies', 'mid-sized {adj} companies'] },
  enterprise: { np: ['enterprises', 'large enterprises', 'enterprise companies', 'large companies'], withAdj: ['{adj} enterprises', 'large {adj} companies'] },
};

const NUMERIC_FORMS: Readonly<Record<NumericSizeId, readonly string[]>> = {
  under_10: ['with fewer than 10 employees', 'with under 10 employees'],
  under_50: ['with fewer than 50 employees', 'with less than 50 employees', 'with under 50 employees'],
  under_200: ['with fewer than 200 employees', 'with under 200 employees'],
  from_50_to_200: ['with 50-200 employees', 'with 50 to 200 employees'],
  from_200_to_1000: ['with 200-1000 employees', 'with 200 to 1,000 employees', 'with 200–1,000 employees'],
  over_1000: ['with more than 1,000 employees', 'with over 1000 employees'],
  from_1000: ['with 1,000+ employees', 'with 1000+ employees'],
  from_5000: ['with 5,000+ employees', 'with 5000+ employees', 'with at least 5,000 employees'],
  from_10000: ['with 10,000+ employees', 'with 10k+ employees'],
  over_10000: ['with more than 10,000 employees'],
};

export function sizeConcepts(employees: number): SizeConcept[] {
  const out: SizeConcept[] = [];
  for (const [id, range] of Object.entries(SIZE_WORDS) as [SizeWordId, SizeRange][]) {
    if (inRange(range, employees)) out.push({ id: `word:${id}`, range, word: true, ...SIZE_WORD_FORMS[id], with: [] });
  }
  for (const [id, range] of Object.entries(NUMERIC_SIZES) as [NumericSizeId, SizeRange][]) {
    if (inRange(range, employees)) out.push({ id: `n:${id}`, range, word: false, np: [], withAdj: [], with: NUMERIC_FORMS[id] });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Composition

export interface Slots {
  readonly people?: PeopleConcept;
  readonly place?: PlaceConcept;
  readonly industry?: IndustryConcept;
  readonly size?: SizeConcept;
}

/**
 * Writes the slots as one phrase. Word choices go through the reserved-rendering tables too, so
 * about a third of the ways of saying a thing appear only in frozen phrases.
 */
export function compose(rng: Rng, part: Part, s: Slots): string {
  const w = (table: string, items: readonly string[]): string => pickRendering(rng, `phrase:${table}`, items, part).value;
  const ind = s.industry;
  const size = s.size;
  const adj = ind !== undefined ? w(`${ind.id}:adj`, ind.adj) : undefined;

  // The companies, if the phrase says anything about them.
  let org: string | undefined;
  if (size !== undefined && size.word) {
    org = adj !== undefined ? w(`${size.id}:adj`, size.withAdj).replace('{adj}', adj) : w(`${size.id}:np`, size.np);
  } else if (ind !== undefined) {
    // "{adj} companies" only where it reads well ("SaaS companies", not "clinic companies").
    org = rng.chance(0.7) || !(ind.umbrella || ind.beforePeople) ? w(`${ind.id}:np`, ind.np) : `${adj!} companies`;
  }
  if (size !== undefined && !size.word) org = `${org ?? rng.pick(['companies', 'companies', 'businesses', 'organizations'])} ${w(`${size.id}:with`, size.with)}`;
  const bareIndustry = ind !== undefined && size === undefined;

  const place = s.place;
  const prep = place !== undefined ? w(`${place.id}:prep`, place.prep) : undefined;
  const preP = place !== undefined ? w(`${place.id}:pre`, place.pre) : undefined;
  const based = place !== undefined ? w(`${place.id}:based`, place.based) : undefined;

  const p = s.people !== undefined ? pickRendering(rng, `phrase:${s.people.id}`, s.people.forms, part).value : undefined;
  const options: string[] = [];
  if (p !== undefined) {
    if (org !== undefined && place !== undefined) {
      options.push(`${p.text} at ${org} ${prep!}`, `${p.text} at ${preP!} ${org}`, `${p.text} from ${org} ${based!}`);
      if (p.pre && bareIndustry && ind.beforePeople) options.push(`${preP!} ${adj!} ${p.text}`, `${adj!} ${p.text} ${prep!}`);
      if (bareIndustry && ind.field.length > 0) options.push(`${p.text} in ${w(`${ind.id}:field`, ind.field)} ${prep!}`);
    } else if (org !== undefined) {
      options.push(`${p.text} at ${org}`, `${p.text} from ${org}`, `${p.text} working at ${org}`);
      if (p.pre && bareIndustry && ind.beforePeople) options.push(`${adj!} ${p.text}`, `${adj!} ${p.text}`);
      if (bareIndustry && ind.field.length > 0) options.push(`${p.text} in ${w(`${ind.id}:field`, ind.field)}`);
    } else if (place !== undefined) {
      options.push(`${p.text} ${prep!}`, `${p.text} ${prep!}`, `${p.text} ${based!}`);
      if (p.pre) options.push(`${preP!} ${p.text}`);
    } else {
      options.push(p.text);
    }
  } else if (org !== undefined && place !== undefined) {
    options.push(`${org} ${prep!}`, `${preP!} ${org}`, `${org} ${based!}`, `people at ${org} ${prep!}`, `contacts at ${preP!} ${org}`);
  } else if (org !== undefined) {
    options.push(org, org, `people at ${org}`, `contacts at ${org}`, `anyone working at ${org}`);
    if (bareIndustry && ind.field.length > 0) options.push(`companies in ${w(`${ind.id}:field`, ind.field)}`);
  } else if (place !== undefined) {
    options.push(`everyone ${prep!}`, `contacts ${prep!}`, `people ${based!}`, `leads ${prep!}`, prep!);
  } else {
    throw new Error('a phrase needs at least one slot');
  }
  return capitalise(rng, rng.pick(options));
}

/** Users' capitalisation: mostly as written, some all lower case, some Title Case. */
function capitalise(rng: Rng, text: string): string {
  const x = rng.float();
  if (x < 0.7) return text;
  if (x < 0.85) return text.toLowerCase();
  if (x < 0.95) return text.replace(/(^|[\s-])([a-zà-ÿ])/g, (_m, a: string, b: string) => a + b.toUpperCase());
  return text.charAt(0).toUpperCase() + text.slice(1);
}
