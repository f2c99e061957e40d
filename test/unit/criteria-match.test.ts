import { expect } from 'chai';
import { parseAudienceText } from '../../src/campaigns/audience/parse-text';
import { resolveAudience } from '../../src/campaigns/audience/resolve';
import type { AudienceFilters } from '../../src/campaigns/audience/types';
import { matchesCriteria } from '../../src/leads/criteria-match';
import type { LeadInput } from '../../src/leads/fields';
import { getLeadForMatching, type LeadForMatching } from '../../src/leads/lead-for-matching';
import { findMatchingLeads, insertNewLeads, listLeads } from '../../src/leads/lead-repository';
import type { LeadCriteria } from '../../src/leads/profile/types';
import { seededRandom } from '../../src/util/seeded-random';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * The in-memory matcher (what the explanation of a lead reads) and the SQL statement campaigns run
 * must agree on every lead for every audience: a pool of varied leads stored through the import
 * path, a few hundred audiences (phrases through the parser, explicit filters with every kind of
 * exclusion), and both matchers asked.
 */
const TITLES = [
  'CTO', 'Chief Technology Officer', 'CTO / Co-Founder', 'Founder & CEO', 'Co-Founder & Head of Product', 'VP Engineering', 'SVP, Sales',
  'Manager, Human Resources', 'Senior HR Manager', 'Head of Finance', 'Finance Director', 'Dir. Finance', 'Leiterin Finanzen', 'Vertriebsleiter',
  'Directeur financier', 'Jefe de ventas', 'Försäljningschef', 'IT Manager', 'Head of Customer Service', 'Software Engineer', 'Senior Software Engineer',
  'Account Executive', 'Marketing Manager', 'Head of Growth', 'Office Hero', '100%_Pure Marketing Lead', null,
];
const PLACES: Array<Pick<LeadInput, 'city' | 'state' | 'country'>> = [
  { city: 'Berlin', state: null, country: 'Germany' },
  { city: 'München', state: null, country: null },
  { city: 'Munich', state: null, country: 'DE' },
  { city: 'Austin', state: 'TX', country: 'US' },
  { city: null, state: 'California', country: null },
  { city: 'Toronto', state: 'ON', country: 'Canada' },
  { city: 'Paris', state: null, country: 'United States' },
  { city: 'London', state: null, country: 'UK' },
  { city: null, state: null, country: 'Sverige' },
  { city: null, state: null, country: null },
];
const INDUSTRIES = ['Internet Retail', 'Mail Order & Catalog', 'Retail', 'Hospital & Health Care', 'Medical Devices', 'Computer Software', 'Financial Services', 'Pharmaceuticals', 'Logistics', null];
const SIZES = ['1-10', '11-50', '51-200', '201-500', '1,001-5,000', '10001+', null];
const COMPANIES = ['Acme GmbH', 'ACME  gmbh', 'Other Org', '100%_Pure', null];

const PHRASES = [
  'finance leaders', 'engineering leadership', 'people and HR leaders', 'IT leaders', 'VP-level and above', 'C-suite', 'executives', 'senior leadership',
  'CTOs', 'founders', 'CTOs and finance leaders', 'heads of sales and marketing', 'directors and VPs of engineering', 'marketing directors and sales managers',
  'HR managers', 'Munich startups', 'CTOs in Texas', 'founders on the West Coast', 'anyone in Ontario', 'leaders in Germany', 'CFOs in the Nordics',
  'e-commerce companies', 'healthcare executives', 'retail', 'life sciences', 'enterprises', 'startups with fewer than 50 employees',
  'companies with 5,000+ employees', 'software engineers in London', 'growth people', 'office heroes', 'anyone at Acme', 'marketing, not Acme',
  'CTOs except founders', 'leaders, not in retail', 'the of and',
];

const EXPLICIT: AudienceFilters[] = [
  { seniorityMin: 'manager', seniorityMax: 'head', departments: ['finance', 'sales'] },
  { seniorities: ['entry'], seniorityMin: 'vp' },
  { locations: ['Paris, United States', 'US-CA'] },
  { keywords: ['100%', 'gmbh'] },
  { titles: ['CTO'], exclude: { companies: ['acmegmbh'], domains: ['acme.example'], emails: ['p3@other.example'] } },
  { industries: ['retail'], exclude: { industries: ['e-commerce'], titles: ['head of growth'] } },
  { custom: { plan: ['Pro'] }, exclude: { custom: { region: ['emea'] } } },
  { departments: ['engineering'], exclude: { titles: ['founders'] } },
  {},
];

describe('the in-memory lead matcher agrees with the SQL one', () => {
  let db: TestDatabase;
  const account = 'acc_cm';
  let leads: LeadForMatching[] = [];

  before(async () => {
    db = await createTestDatabase();
    await db.sequelize.query(`INSERT INTO accounts (id, name, plan) VALUES ('${account}', 'M', 'free')`);
    const rand = seededRandom(2511);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const inputs: LeadInput[] = Array.from({ length: 400 }, (_, i) => {
      const company = pick(COMPANIES);
      return {
        email: `p${i}@${pick(['acme.example', 'eu.acme.example', 'other.example', 'notacme.example'])}`,
        firstName: null,
        lastName: null,
        title: pick(TITLES),
        company,
        companyDomain: company === null ? null : pick(['acme.example', 'corp.example']),
        industry: pick(INDUSTRIES),
        ...pick(PLACES),
        linkedinUrl: null,
        phone: null,
        companySize: pick(SIZES),
        customFields: rand() < 0.5 ? { plan: pick(['pro', 'Pro ', 'free']), region: pick(['EMEA', 'amer']) } : ({} as Record<string, string>),
      };
    });
    await db.sequelize.transaction(async (tx) => {
      await insertNewLeads(db.sequelize, tx, account, 'import', inputs);
    });
    const stored = (await listLeads(db.sequelize, account, 1, 1000)).leads;
    leads = await Promise.all(stored.map(async (l) => (await getLeadForMatching(db.sequelize, account, l.id))!));
  });
  after(async () => {
    await db.drop();
  });

  const inMemory = (c: LeadCriteria): string[] =>
    leads
      .filter((m) => matchesCriteria(c, { profile: m.profile, keywordText: m.keywordText, company: m.row.company, companyDomain: m.row.company_domain, email: m.row.email, customFields: m.row.custom_fields }))
      .map((m) => m.row.id)
      .sort();
  const inSql = async (c: LeadCriteria): Promise<string[]> => (await findMatchingLeads(db.sequelize, account, c, { limit: 1000 })).map((l) => l.id).sort();

  it('on every phrase and every explicit audience', async () => {
    const audiences: Array<[string, LeadCriteria]> = [
      ...PHRASES.map((p): [string, LeadCriteria] => [p, resolveAudience(parseAudienceText(p).filters)]),
      ...EXPLICIT.map((f): [string, LeadCriteria] => [JSON.stringify(f), resolveAudience(f)]),
    ];
    let someButNotAll = 0;
    for (const [name, c] of audiences) {
      const sql = await inSql(c);
      expect(inMemory(c), name).to.deep.equal(sql);
      if (sql.length > 0 && sql.length < leads.length) someButNotAll += 1;
    }
    // The audiences split the pool: the comparison is not between two empty (or two full) answers.
    expect(someButNotAll).to.be.above(audiences.length * 0.8);
  });
});
