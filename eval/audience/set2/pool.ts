/**
 * The lead pool of one part: companies (country, city, industry, size), then people at them
 * (role, level, founder), each written as an export would write it. Biased toward what the phrases
 * ask about (the ten languages' countries, US and Canadian leads with states, the umbrella
 * industries' leaves, leadership levels) with distractors among them: IC titles that share a word
 * with a function or a rank ("Financial Analyst", "Sales Engineer", "Marketing Executive",
 * "Account Executive", "Executive Assistant to the CEO"), and roles outside every function ("Head
 * Chef", "Director of Photography", "Medical Director").
 */
import { CITIES, COUNTRIES, type City } from './geo';
import type { Rng } from './random';
import { INDUSTRY_LABELS } from './render/industries';
import { drawCompanyName, drawName, nameSetFor, slug } from './render/names';
import { renderPlace } from './render/places';
import { pickRendering, type Part } from './render/reserve';
import { drawEmployees, renderSize } from './render/sizes';
import { renderTitle } from './render/titles';
import { ROLE_IDS, ROLES, roleLevel, type FunctionId, type IndustryId, type Level, type RoleId } from './truth';
import type { Set2Lead } from './types';

interface Company {
  readonly name: string;
  readonly domain: string;
  readonly city: City;
  readonly industry: IndustryId;
  readonly employees: number;
}

const INDUSTRY_WEIGHTS: Readonly<Record<IndustryId, number>> = {
  online_retail: 7,
  mail_order_retail: 4,
  store_retail: 5,
  wholesale: 2,
  hospitals: 5,
  clinics: 3,
  medical_devices: 5,
  health_tech: 3,
  pharma: 4,
  biotech: 3,
  saas: 9,
  it_services: 4,
  fintech: 6,
  banking: 4,
  insurance: 4,
  asset_management: 2,
  logistics: 5,
  industrial_machinery: 4,
  automotive: 3,
  chemicals: 2,
  construction: 2,
  real_estate: 2,
  hotels: 2,
  restaurants: 2,
  media_production: 1,
  advertising: 2,
  education: 2,
  telecom: 2,
  energy: 2,
  consulting: 3,
  law_firms: 2,
  fitness: 1,
  veterinary: 1,
};

const FUNCTION_WEIGHTS: Readonly<Partial<Record<FunctionId, number>>> = {
  engineering: 10,
  product: 5,
  design: 4,
  marketing: 9,
  sales: 11,
  customer_success: 6,
  people: 7,
  finance: 10,
  operations: 7,
  legal: 4,
  it: 6,
  data: 5,
  security: 4,
  executive: 8,
};

/** Distractors and where they work (a Head Chef at a hotel, a nurse at a hospital). */
const DISTRACTORS: Readonly<Partial<Record<RoleId, readonly IndustryId[]>>> = {
  head_chef: ['hotels', 'restaurants'],
  director_of_photography: ['media_production', 'advertising'],
  nurse: ['hospitals', 'clinics'],
  medical_director: ['hospitals', 'clinics', 'pharma'],
  chief_medical_officer: ['hospitals', 'pharma', 'health_tech'],
  executive_assistant: [],
  security_guard: ['hotels', 'logistics', 'store_retail'],
  lecturer: ['education'],
  managing_editor: ['media_production'],
  financial_advisor: ['banking', 'asset_management', 'insurance'],
  data_entry_clerk: [],
  sales_engineer: [],
  financial_analyst: [],
};
const DISTRACTOR_SHARE = 0.09;

const LEVEL_WEIGHTS: Readonly<Record<'c_level' | 'vp' | 'head' | 'director' | 'manager' | 'ic' | 'entry', number>> = {
  c_level: 9,
  vp: 8,
  head: 13,
  director: 13,
  manager: 15,
  ic: 22,
  entry: 5,
};

/** Roles that may be held by a founder ("CTO / Co-Founder", "Head of Product | Co-founder"). */
const FOUNDER_SHARE: Readonly<Partial<Record<RoleId, number>>> = {
  ceo: 0.45,
  cto: 0.2,
  cpo: 0.15,
  cmo: 0.12,
  coo: 0.15,
  cfo: 0.1,
  cro: 0.12,
  head_engineering: 0.06,
  head_product: 0.08,
  head_marketing: 0.05,
  head_sales: 0.05,
};

function rolesOf(fn: FunctionId, level: Level): RoleId[] {
  return ROLE_IDS.filter((r) => ROLES[r].fn === fn && roleLevel(r) === level && !(r in DISTRACTORS));
}

interface PersonTruth {
  readonly role: RoleId;
  readonly level: Level;
  readonly founder: boolean;
}

function drawPerson(rng: Rng): PersonTruth {
  if (rng.chance(DISTRACTOR_SHARE)) {
    const role = rng.pick(Object.keys(DISTRACTORS) as RoleId[]);
    const base = roleLevel(role);
    const level = base === 'ic' && ROLES[role].fn !== 'other' && rng.chance(0.2) ? 'senior' : base;
    return { role, level, founder: false };
  }
  const fn = rng.weighted(FUNCTION_WEIGHTS);
  if (fn === 'executive') {
    const role = rng.weighted<RoleId>({ ceo: 55, founder: 30, deputy_ceo: 15 });
    const founder = role === 'founder' || (role === 'ceo' && rng.chance(FOUNDER_SHARE.ceo!));
    return { role, level: roleLevel(role), founder };
  }
  for (;;) {
    const level = rng.weighted(LEVEL_WEIGHTS);
    const roles = rolesOf(fn, level);
    if (roles.length === 0) continue;
    const role = rng.pick(roles);
    if (rng.chance(FOUNDER_SHARE[role] ?? 0)) return { role, level: 'c_level', founder: true };
    if (level === 'ic') {
      const x = rng.float();
      return { role, level: x < 0.28 ? 'senior' : x < 0.4 ? 'entry' : 'ic', founder: false };
    }
    return { role, level, founder: false };
  }
}

function drawCity(rng: Rng): City {
  const country = rng.weighted(Object.fromEntries(COUNTRIES.map((c) => [c.code, c.weight])));
  const cities = CITIES.filter((c) => c.country === country);
  const i = Number(rng.weighted(Object.fromEntries(cities.map((c, k) => [String(k), c.weight]))));
  return cities[i]!;
}

function drawCompanies(rng: Rng, count: number): Company[] {
  const names = new Set<string>();
  const out: Company[] = [];
  while (out.length < count) {
    const city = drawCity(rng);
    const name = drawCompanyName(rng, city.country);
    const domain = slug(name.split(' ').slice(0, 2).join(' '));
    if (names.has(domain)) continue;
    names.add(domain);
    out.push({ name, domain, city, industry: rng.weighted(INDUSTRY_WEIGHTS), employees: drawEmployees(rng) });
  }
  return out;
}

/** Shares of blank fields: a blank industry or size is unknown in the truth too. */
const BLANK_INDUSTRY = 0.05;
const BLANK_SIZE = 0.06;

export function generatePool(rng: Rng, part: Part, count: number): Set2Lead[] {
  const prefix = part === 'tuning' ? 't' : 'f';
  const companies = drawCompanies(rng, Math.ceil(count / 3));
  const leads: Set2Lead[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `${prefix}${String(i + 1).padStart(4, '0')}`;
    const person = drawPerson(rng);
    const fits = DISTRACTORS[person.role];
    const eligible = fits !== undefined && fits.length > 0 ? companies.filter((c) => fits.includes(c.industry)) : companies;
    const company = rng.pick(eligible.length > 0 ? eligible : companies);
    const city = company.city;
    const name = drawName(rng, nameSetFor(city.country, city.language));
    const title = renderTitle(rng, part, person, city.language, name.feminine, company.name);
    const place = renderPlace(rng, part, city);
    const industryBlank = rng.chance(BLANK_INDUSTRY);
    const industry = industryBlank ? null : pickRendering(rng, `industry:${company.industry}`, INDUSTRY_LABELS[company.industry], part);
    const sizeBlank = rng.chance(BLANK_SIZE);
    const size = sizeBlank ? null : renderSize(rng, part, company.employees);
    leads.push({
      id,
      frozen: part === 'frozen',
      first_name: name.first,
      last_name: name.last,
      email: `${slug(name.first)}.${slug(name.last)}.${id}@${company.domain}.example`,
      company: company.name,
      title: title.title,
      country: place.country,
      state: place.state,
      city: place.city,
      industry: industry?.value ?? '',
      company_size: size?.text ?? '',
      truth: {
        role: person.role,
        function: ROLES[person.role].fn,
        level: person.level,
        founder: person.founder,
        country: city.country,
        state: city.state ?? null,
        city: city.name,
        industry: industryBlank ? null : company.industry,
        employees: sizeBlank ? null : company.employees,
      },
      render: {
        title: title.render,
        place: place.class,
        size: size?.format ?? 'blank',
        industry: industryBlank ? 'blank' : 'label',
        unseen: title.reserved || place.reserved || (industry?.reserved ?? false) || (size?.reserved ?? false),
      },
    });
  }
  return leads;
}
