/**
 * The truth model of evaluation set 2: what each lead IS (independently of how its export writes
 * it), and the label rules that turn an audience phrase into a predicate over that truth.
 *
 * Nothing here is taken from the service's vocabularies: the ids, the umbrella members, the size and
 * level words are this set's own reading of how a demanding user of an outreach product means them
 * (README.md, "Set 2", lists the same rules in prose). The expected leads of every phrase are
 * `selects(predicate, truth)`, never the service's matcher.
 */

/** A person's function. `other` is for distractor roles outside every business function (chefs, nurses). */
export const FUNCTIONS = [
  'engineering',
  'product',
  'design',
  'marketing',
  'sales',
  'customer_success',
  'people',
  'finance',
  'operations',
  'legal',
  'it',
  'data',
  'security',
  'executive',
  'other',
] as const;
export type FunctionId = (typeof FUNCTIONS)[number];

/**
 * Rank, highest first. `ic` is an individual contributor whose title has no level word
 * ("Accountant", "Software Engineer"); `senior` an IC with a seniority word ("Senior Accountant");
 * `entry` juniors, interns, assistants, apprentices.
 */
export const LEVELS = ['c_level', 'vp', 'head', 'director', 'manager', 'senior', 'ic', 'entry'] as const;
export type Level = (typeof LEVELS)[number];

interface RoleDef {
  readonly fn: FunctionId;
  /** The level of the role's plain title; a lead's level may differ (Senior/Junior modifiers, founders). */
  readonly level: Level;
}

/**
 * Roles: a finer id than (function, level), so that phrases naming a job ("software engineers",
 * "CEOs", "accountants") have a truth to select on. Titles where "Manager" names an individual job
 * (Account Manager, Customer Success Manager, Product Manager) are individual contributors: they
 * manage accounts or a product, not people, and a user asking for "sales managers" does not mean them.
 */
export const ROLES = {
  // general management
  ceo: { fn: 'executive', level: 'c_level' },
  founder: { fn: 'executive', level: 'c_level' },
  deputy_ceo: { fn: 'executive', level: 'vp' },
  // engineering
  cto: { fn: 'engineering', level: 'c_level' },
  vp_engineering: { fn: 'engineering', level: 'vp' },
  head_engineering: { fn: 'engineering', level: 'head' },
  director_engineering: { fn: 'engineering', level: 'director' },
  engineering_manager: { fn: 'engineering', level: 'manager' },
  software_engineer: { fn: 'engineering', level: 'ic' },
  engineering_intern: { fn: 'engineering', level: 'entry' },
  // product
  cpo: { fn: 'product', level: 'c_level' },
  vp_product: { fn: 'product', level: 'vp' },
  head_product: { fn: 'product', level: 'head' },
  director_product: { fn: 'product', level: 'director' },
  product_manager: { fn: 'product', level: 'ic' },
  associate_product_manager: { fn: 'product', level: 'entry' },
  // design
  chief_design_officer: { fn: 'design', level: 'c_level' },
  vp_design: { fn: 'design', level: 'vp' },
  head_design: { fn: 'design', level: 'head' },
  director_design: { fn: 'design', level: 'director' },
  design_manager: { fn: 'design', level: 'manager' },
  designer: { fn: 'design', level: 'ic' },
  design_intern: { fn: 'design', level: 'entry' },
  // marketing
  cmo: { fn: 'marketing', level: 'c_level' },
  vp_marketing: { fn: 'marketing', level: 'vp' },
  head_marketing: { fn: 'marketing', level: 'head' },
  director_marketing: { fn: 'marketing', level: 'director' },
  marketing_manager: { fn: 'marketing', level: 'manager' },
  marketing_specialist: { fn: 'marketing', level: 'ic' },
  marketing_assistant: { fn: 'marketing', level: 'entry' },
  // sales
  cro: { fn: 'sales', level: 'c_level' },
  vp_sales: { fn: 'sales', level: 'vp' },
  head_sales: { fn: 'sales', level: 'head' },
  director_sales: { fn: 'sales', level: 'director' },
  sales_manager: { fn: 'sales', level: 'manager' },
  sales_rep: { fn: 'sales', level: 'ic' },
  account_manager: { fn: 'sales', level: 'ic' },
  sales_engineer: { fn: 'sales', level: 'ic' },
  financial_advisor: { fn: 'sales', level: 'ic' },
  sdr: { fn: 'sales', level: 'entry' },
  // customer service, support and success
  cco: { fn: 'customer_success', level: 'c_level' },
  vp_customer_success: { fn: 'customer_success', level: 'vp' },
  head_customer_success: { fn: 'customer_success', level: 'head' },
  director_customer_success: { fn: 'customer_success', level: 'director' },
  customer_service_manager: { fn: 'customer_success', level: 'manager' },
  support_specialist: { fn: 'customer_success', level: 'ic' },
  // people (HR)
  chro: { fn: 'people', level: 'c_level' },
  vp_people: { fn: 'people', level: 'vp' },
  head_people: { fn: 'people', level: 'head' },
  director_people: { fn: 'people', level: 'director' },
  hr_manager: { fn: 'people', level: 'manager' },
  hr_specialist: { fn: 'people', level: 'ic' },
  hr_assistant: { fn: 'people', level: 'entry' },
  // finance
  cfo: { fn: 'finance', level: 'c_level' },
  vp_finance: { fn: 'finance', level: 'vp' },
  head_finance: { fn: 'finance', level: 'head' },
  director_finance: { fn: 'finance', level: 'director' },
  finance_manager: { fn: 'finance', level: 'manager' },
  accountant: { fn: 'finance', level: 'ic' },
  financial_analyst: { fn: 'finance', level: 'ic' },
  finance_assistant: { fn: 'finance', level: 'entry' },
  // operations
  coo: { fn: 'operations', level: 'c_level' },
  vp_operations: { fn: 'operations', level: 'vp' },
  head_operations: { fn: 'operations', level: 'head' },
  director_operations: { fn: 'operations', level: 'director' },
  operations_manager: { fn: 'operations', level: 'manager' },
  operations_specialist: { fn: 'operations', level: 'ic' },
  operations_assistant: { fn: 'operations', level: 'entry' },
  data_entry_clerk: { fn: 'operations', level: 'entry' },
  // legal
  clo: { fn: 'legal', level: 'c_level' },
  vp_legal: { fn: 'legal', level: 'vp' },
  head_legal: { fn: 'legal', level: 'head' },
  director_legal: { fn: 'legal', level: 'director' },
  legal_manager: { fn: 'legal', level: 'manager' },
  counsel: { fn: 'legal', level: 'ic' },
  paralegal: { fn: 'legal', level: 'entry' },
  // IT
  cio: { fn: 'it', level: 'c_level' },
  vp_it: { fn: 'it', level: 'vp' },
  head_it: { fn: 'it', level: 'head' },
  director_it: { fn: 'it', level: 'director' },
  it_manager: { fn: 'it', level: 'manager' },
  it_specialist: { fn: 'it', level: 'ic' },
  // data
  cdo: { fn: 'data', level: 'c_level' },
  vp_data: { fn: 'data', level: 'vp' },
  head_data: { fn: 'data', level: 'head' },
  director_data: { fn: 'data', level: 'director' },
  data_manager: { fn: 'data', level: 'manager' },
  data_specialist: { fn: 'data', level: 'ic' },
  // (information) security
  ciso: { fn: 'security', level: 'c_level' },
  vp_security: { fn: 'security', level: 'vp' },
  head_security: { fn: 'security', level: 'head' },
  director_security: { fn: 'security', level: 'director' },
  security_manager: { fn: 'security', level: 'manager' },
  security_specialist: { fn: 'security', level: 'ic' },
  // distractors outside the business functions: they share a word with a function or a rank
  head_chef: { fn: 'other', level: 'manager' },
  director_of_photography: { fn: 'other', level: 'ic' },
  nurse: { fn: 'other', level: 'ic' },
  medical_director: { fn: 'other', level: 'director' },
  chief_medical_officer: { fn: 'other', level: 'c_level' },
  executive_assistant: { fn: 'other', level: 'ic' },
  security_guard: { fn: 'other', level: 'ic' },
  lecturer: { fn: 'other', level: 'ic' },
  managing_editor: { fn: 'other', level: 'manager' },
} as const satisfies Record<string, RoleDef>;
export type RoleId = keyof typeof ROLES;
export const ROLE_IDS = Object.keys(ROLES) as RoleId[];

export const roleFunction = (r: RoleId): FunctionId => ROLES[r].fn;
export const roleLevel = (r: RoleId): Level => ROLES[r].level;

/** Industry leaves: what the company does, one leaf per company. */
export const INDUSTRIES = [
  'online_retail',
  'mail_order_retail',
  'store_retail',
  'wholesale',
  'hospitals',
  'clinics',
  'medical_devices',
  'health_tech',
  'pharma',
  'biotech',
  'saas',
  'it_services',
  'fintech',
  'banking',
  'insurance',
  'asset_management',
  'logistics',
  'industrial_machinery',
  'automotive',
  'chemicals',
  'construction',
  'real_estate',
  'hotels',
  'restaurants',
  'media_production',
  'advertising',
  'education',
  'telecom',
  'energy',
  'consulting',
  'law_firms',
  'fitness',
  'veterinary',
] as const;
export type IndustryId = (typeof INDUSTRIES)[number];

/**
 * Umbrella words and the leaves they cover. The choices a reader could argue with, made once:
 * - e-commerce: online and mail-order/catalogue retail (the merchants), not the software they buy;
 * - retail: e-commerce plus store retail; wholesale is B2B distribution, not retail;
 * - healthcare: care delivery and what it runs on: hospitals, clinics, medical devices, health IT.
 *   Pharma and biotech are "life sciences" (a user after drug makers says pharma or life sciences);
 *   fitness and veterinary are not healthcare;
 * - life sciences: pharma, biotech and medical devices (devices sit in both umbrellas);
 * - financial services: banks, insurers, fintechs, asset managers;
 * - tech: SaaS, IT services, fintech, health IT (companies whose product is software or IT);
 * - manufacturing: industrial machinery, automotive, chemicals (medical devices are read as healthcare);
 * - hospitality: hotels and restaurants.
 */
export const UMBRELLAS = {
  ecommerce: ['online_retail', 'mail_order_retail'],
  retail: ['online_retail', 'mail_order_retail', 'store_retail'],
  healthcare: ['hospitals', 'clinics', 'medical_devices', 'health_tech'],
  life_sciences: ['pharma', 'biotech', 'medical_devices'],
  financial_services: ['banking', 'insurance', 'fintech', 'asset_management'],
  tech: ['saas', 'it_services', 'fintech', 'health_tech'],
  manufacturing: ['industrial_machinery', 'automotive', 'chemicals'],
  hospitality: ['hotels', 'restaurants'],
} as const satisfies Record<string, readonly IndustryId[]>;
export type UmbrellaId = keyof typeof UMBRELLAS;

/** Employee bounds, both included; a missing side is open. */
export interface SizeRange {
  readonly min?: number;
  readonly max?: number;
}

/**
 * Size words. Their edges sit on the edges of the export bands (51-200, 201-500, 501-1,000,
 * 1,001-5,000) so that a band decides them: startups and SMBs at most 200 employees, mid-market
 * 201-999, enterprises 1,000 or more. Numeric phrases are exact ("fewer than 50" = at most 49).
 */
export const SIZE_WORDS = {
  startup: { max: 200 },
  smb: { max: 200 },
  mid_market: { min: 201, max: 999 },
  enterprise: { min: 1000 },
} as const satisfies Record<string, SizeRange>;
export type SizeWordId = keyof typeof SIZE_WORDS;

/**
 * Level words. "leaders"/"leadership": director, head, VP, C-level; "executives": VP and C-level;
 * "C-suite"/"C-level": C-level; "VP-level and above": VP, C-level; "senior leadership": head, VP,
 * C-level; "directors and above": director and up; "managers", "directors", "heads", "VPs": that
 * level only. Founders are C-level (a "CTO / Co-Founder" is engineering, C-level, founder).
 */
export const LEVEL_WORDS = {
  leaders: ['director', 'head', 'vp', 'c_level'],
  executives: ['vp', 'c_level'],
  c_suite: ['c_level'],
  vp_and_above: ['vp', 'c_level'],
  senior_leadership: ['head', 'vp', 'c_level'],
  directors_and_above: ['director', 'head', 'vp', 'c_level'],
  managers: ['manager'],
  directors: ['director'],
  heads: ['head'],
  vps: ['vp'],
} as const satisfies Record<string, readonly Level[]>;
export type LevelWordId = keyof typeof LEVEL_WORDS;

/** Numeric sizes the phrases ask for, exact: "fewer than 50 employees" is at most 49. */
export const NUMERIC_SIZES = {
  under_10: { max: 9 },
  under_50: { max: 49 },
  under_200: { max: 199 },
  from_50_to_200: { min: 50, max: 200 },
  from_200_to_1000: { min: 200, max: 1000 },
  over_1000: { min: 1001 },
  from_1000: { min: 1000 },
  from_5000: { min: 5000 },
  from_10000: { min: 10000 },
  over_10000: { min: 10001 },
} as const satisfies Record<string, SizeRange>;
export type NumericSizeId = keyof typeof NUMERIC_SIZES;

/** Every size range a phrase may ask: a rendered band is used only when it decides all of them. */
export const SIZE_RANGES_ASKED: readonly SizeRange[] = [...Object.values(SIZE_WORDS), ...Object.values(NUMERIC_SIZES)];

/** What a lead is. A blank industry or size in the export is unknown here too (null). */
export interface LeadTruth {
  readonly role: RoleId;
  readonly function: FunctionId;
  readonly level: Level;
  readonly founder: boolean;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** ISO 3166-2 (US-TX, CA-ON, DE-BY) where this set knows it, else null. */
  readonly state: string | null;
  /** The city's English name; with `country` it names one place. */
  readonly city: string;
  readonly industry: IndustryId | null;
  readonly employees: number | null;
}

/** One way of being the person a phrase asks for: every member given must hold. */
export interface PersonClause {
  readonly functions?: readonly FunctionId[];
  readonly levels?: readonly Level[];
  readonly roles?: readonly RoleId[];
  readonly founder?: boolean;
}

export interface CityRef {
  readonly city: string;
  readonly country: string;
}

/** A place: the lead is in one of the countries, or one of the states, or one of the cities. */
export interface PlaceClause {
  readonly countries?: readonly string[];
  readonly states?: readonly string[];
  readonly cities?: readonly CityRef[];
}

/**
 * A phrase's meaning as data (JSON in phrases.jsonl). Every member given must hold; `people` is
 * met by any one of its clauses; `nobody` selects nobody (phrases that name no one).
 */
export interface Predicate {
  readonly people?: readonly PersonClause[];
  readonly place?: PlaceClause;
  readonly industries?: readonly IndustryId[];
  readonly employees?: SizeRange;
  readonly nobody?: true;
}

function personMatches(c: PersonClause, t: LeadTruth): boolean {
  if (c.functions !== undefined && !c.functions.includes(t.function)) return false;
  if (c.levels !== undefined && !c.levels.includes(t.level)) return false;
  if (c.roles !== undefined && !c.roles.includes(t.role)) return false;
  if (c.founder !== undefined && c.founder !== t.founder) return false;
  return true;
}

function placeMatches(p: PlaceClause, t: LeadTruth): boolean {
  if (p.countries?.includes(t.country)) return true;
  if (t.state !== null && p.states?.includes(t.state)) return true;
  return (p.cities ?? []).some((c) => c.city === t.city && c.country === t.country);
}

export function inRange(r: SizeRange, n: number): boolean {
  return (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max);
}

/** Whether the phrase's predicate selects the lead: the only source of the expected labels. */
export function selects(p: Predicate, t: LeadTruth): boolean {
  if (p.nobody === true) return false;
  if (p.people !== undefined && !p.people.some((c) => personMatches(c, t))) return false;
  if (p.place !== undefined && !placeMatches(p.place, t)) return false;
  if (p.industries !== undefined && (t.industry === null || !p.industries.includes(t.industry))) return false;
  if (p.employees !== undefined && (t.employees === null || !inRange(p.employees, t.employees))) return false;
  return true;
}
