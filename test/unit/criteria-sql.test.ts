import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { resolveAudience } from '../../src/campaigns/audience/resolve';
import { ALL_LEADS, criteriaWhere } from '../../src/leads/criteria-sql';
import { countMatchingLeads, findMatchingLeads } from '../../src/leads/lead-repository';
import { keywordText } from '../../src/leads/profile-columns';
import { MATCH_NOBODY_KEYWORD, type LeadCriteria, type LeadProfile } from '../../src/leads/profile/types';
import { createTestDatabase, type TestDatabase } from '../support/database';

const NONE = ALL_LEADS;
const ALL_PROFILE_NULL: LeadProfile = {
  titleKey: null,
  titleKeys: [],
  titleNorm: null,
  seniority: null,
  department: null,
  countryCode: null,
  stateCode: null,
  cityNorm: null,
  industryId: null,
  companySize: null,
};

const criteria = (c: Omit<Partial<LeadCriteria>, 'exclude'> & { exclude?: Partial<LeadCriteria['exclude']> } = {}): LeadCriteria => ({
  ...NONE,
  ...c,
  exclude: { ...NONE.exclude, ...c.exclude },
});

describe('criteriaWhere: the SQL of the lead matcher', () => {
  it('is TRUE with no bind values for an empty criteria', () => {
    expect(criteriaWhere(NONE, 2)).to.deep.equal({ sql: 'TRUE', bind: [] });
  });

  it('numbers its parameters from the index given and never writes a value into the SQL', () => {
    const hostile = "x'); DROP TABLE leads; --";
    const w = criteriaWhere(
      criteria({
        titleKeys: ['cto'],
        titleRoles: [{ seniority: 'vp', department: 'engineering' }],
        countryCodes: ['de'],
        cities: [{ city: 'london', countryCode: 'GB' }],
        companySizes: [{ min: 10, max: 50 }],
        keywords: [hostile],
        exclude: { companies: [hostile], domains: [hostile], emails: [hostile] },
      }),
      3,
    );
    const numbers = [...w.sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
    expect(Math.min(...numbers)).to.equal(3);
    expect(Math.max(...numbers)).to.equal(3 + w.bind.length - 1);
    expect(new Set(numbers).size).to.equal(w.bind.length);
    for (const v of ['cto', 'engineering', 'london', 'DROP', 'DE']) expect(w.sql).to.not.include(v);
    expect(w.sql).to.include('= ANY($');
    expect(w.bind).to.deep.include(['DE']);
  });

  it('escapes LIKE characters of keywords and domains', () => {
    const w = criteriaWhere(criteria({ keywords: ['50%_off\\'], exclude: { domains: ['a_b.com'] } }), 1);
    expect(w.bind).to.deep.include(['%50\\%\\_off\\\\%']);
    expect(w.bind).to.deep.include(['%.a\\_b.com']);
  });
});

describe('the lead matcher against PostgreSQL', () => {
  let db: TestDatabase;
  const account = 'acc_match';
  const other = 'acc_other';

  interface Seed {
    email: string;
    title?: string;
    title_keys?: string[];
    title_norm?: string;
    seniority?: string;
    department?: string;
    country_code?: string;
    city_norm?: string;
    industry?: string;
    industry_id?: string;
    company?: string;
    company_domain?: string;
    company_size?: number;
  }
  const COLUMNS = ['title', 'title_keys', 'title_norm', 'seniority', 'department', 'country_code', 'city_norm', 'industry', 'industry_id', 'company', 'company_domain', 'company_size'] as const;

  const seed = async (accountId: string, s: Seed): Promise<void> => {
    const text = keywordText({ ...ALL_PROFILE_NULL, titleNorm: s.title_norm ?? null }, { title: s.title, company: s.company, industry: s.industry });
    await db.sequelize.query(
      `INSERT INTO leads (id, account_id, email, source, keyword_text, ${COLUMNS.join(', ')}) VALUES ($1, $2, $3, 'import', $4, ${COLUMNS.map((_, i) => `$${i + 5}`).join(', ')})`,
      { bind: [`lead_${s.email.replace(/\W/g, '_')}_${accountId}`, accountId, s.email, text, ...COLUMNS.map((c) => s[c] ?? null)] },
    );
  };

  before(async () => {
    db = await createTestDatabase();
    await db.sequelize.query(`INSERT INTO accounts (id, name, plan) VALUES ('${account}', 'M', 'free'), ('${other}', 'O', 'free')`);
    const leads: Seed[] = [
      {
        email: 'cto@acme.com',
        title: 'Chief Technology Officer',
        title_keys: ['cto'],
        title_norm: 'chief technology officer',
        seniority: 'c_level',
        department: 'engineering',
        country_code: 'DE',
        city_norm: 'berlin',
        industry: 'Computer Software',
        industry_id: 'software',
        company: 'Acme GmbH',
        company_domain: 'acme.com',
        company_size: 120,
      },
      {
        email: 'vpe@eu.acme.com',
        title: 'VP Engineering',
        title_keys: ['vp_engineering'],
        title_norm: 'vp engineering',
        seniority: 'vp',
        department: 'engineering',
        country_code: 'AT',
        city_norm: 'vienna',
        industry: 'Software Development',
        industry_id: 'software',
        company: 'ACME  gmbh',
        company_domain: 'eu.acme.com',
        company_size: 1500,
      },
      {
        email: 'mkt@notacme.com',
        title: 'Directrice Marketing',
        title_norm: 'directrice marketing',
        seniority: 'director',
        department: 'marketing',
        country_code: 'CH',
        city_norm: 'zurich',
        industry: 'Fintech',
        industry_id: 'fintech',
        company: 'NotAcme',
        company_domain: 'notacme.com',
        company_size: 40,
      },
      {
        email: 'growth@pct.io',
        title: 'Head of Growth',
        title_keys: ['head_of_growth'],
        title_norm: 'head of growth',
        seniority: 'head',
        department: 'marketing',
        country_code: 'US',
        city_norm: 'new york',
        industry: 'Retail',
        industry_id: 'retail',
        company: '100%_Pure',
        company_domain: 'pct.io',
      },
      {
        email: 'eng@other.org',
        title: 'Software Engineer',
        title_keys: ['software_engineer'],
        title_norm: 'software engineer',
        department: 'engineering',
        country_code: 'GB',
        city_norm: 'london',
        industry: 'Computer Software',
        industry_id: 'software',
        company: 'Other Org',
        company_domain: 'corp.example',
        company_size: 10,
      },
      { email: 'blank@blank.example' },
    ];
    for (const l of leads) await seed(account, l);
    // Another account's lead that meets every criteria below: it must never be found.
    for (const l of leads) await seed(other, l);
  });
  after(async () => {
    await db.drop();
  });

  const match = async (c: LeadCriteria): Promise<string[]> => {
    const found = await findMatchingLeads(db.sequelize, account, c, { limit: 100 });
    expect(await countMatchingLeads(db.sequelize, account, c)).to.equal(found.length);
    return found.map((l) => l.email.split('@')[0]!).sort();
  };

  it('an empty criteria matches every lead of the account', async () => {
    expect(await match(NONE)).to.deep.equal(['blank', 'cto', 'eng', 'growth', 'mkt', 'vpe']);
  });

  it('matches title keys, and (seniority, department) pairs as alternatives of them', async () => {
    expect(await match(criteria({ titleKeys: ['cto'] }))).to.deep.equal(['cto']);
    expect(await match(criteria({ titleKeys: ['cto', 'vp_engineering'] }))).to.deep.equal(['cto', 'vpe']);
    expect(await match(criteria({ titleKeys: ['cto'], titleRoles: [{ seniority: 'director', department: 'marketing' }] }))).to.deep.equal(['cto', 'mkt']);
    expect(await match(criteria({ titleRoles: [{ seniority: 'vp', department: 'engineering' }] }))).to.deep.equal(['vpe']);
    expect(await match(criteria({ titleRoles: [{ seniority: null, department: 'marketing' }] }))).to.deep.equal(['growth', 'mkt']);
    expect(await match(criteria({ titleRoles: [{ seniority: 'vp', department: 'marketing' }] }))).to.deep.equal([]);
    expect(await match(criteria({ titleRoles: [{ seniority: null, department: null }] }))).to.deep.equal([]);
  });

  it('matches seniorities and departments, each any of its values, both required', async () => {
    expect(await match(criteria({ seniorities: ['c_level', 'vp'] }))).to.deep.equal(['cto', 'vpe']);
    expect(await match(criteria({ departments: ['engineering'] }))).to.deep.equal(['cto', 'eng', 'vpe']);
    expect(await match(criteria({ seniorities: ['c_level', 'director'], departments: ['engineering'] }))).to.deep.equal(['cto']);
  });

  it("matches countries (a region's codes), cities within their country, either of the two", async () => {
    expect(await match(criteria({ countryCodes: ['DE', 'AT', 'CH'] }))).to.deep.equal(['cto', 'mkt', 'vpe']);
    expect(await match(criteria({ countryCodes: ['de'] }))).to.deep.equal(['cto']);
    expect(await match(criteria({ cities: [{ city: 'london', countryCode: 'GB' }] }))).to.deep.equal(['eng']);
    expect(await match(criteria({ cities: [{ city: 'berlin', countryCode: 'AT' }] }))).to.deep.equal([]);
    expect(await match(criteria({ countryCodes: ['US'], cities: [{ city: 'london', countryCode: 'GB' }] }))).to.deep.equal(['eng', 'growth']);
  });

  it('matches industries', async () => {
    expect(await match(criteria({ industryIds: ['fintech', 'retail'] }))).to.deep.equal(['growth', 'mkt']);
  });

  it('matches company sizes by range, both ends inclusive, never a lead of unknown size', async () => {
    expect(await match(criteria({ companySizes: [{ min: 120, max: 1000 }] }))).to.deep.equal(['cto']);
    expect(await match(criteria({ companySizes: [{ max: 40 }, { min: 1000 }] }))).to.deep.equal(['eng', 'mkt', 'vpe']);
    expect(await match(criteria({ companySizes: [{ min: 0 }] }))).to.deep.equal(['cto', 'eng', 'mkt', 'vpe']);
  });

  it('matches keywords in the title, company or industry, taking % and _ literally', async () => {
    expect(await match(criteria({ keywords: ['software'] }))).to.deep.equal(['cto', 'eng', 'vpe']);
    expect(await match(criteria({ keywords: ['gmbh'] }))).to.deep.equal(['cto', 'vpe']);
    expect(await match(criteria({ keywords: ['GROWTH', 'fintech'] }))).to.deep.equal(['growth', 'mkt']);
    expect(await match(criteria({ keywords: ['100%'] }))).to.deep.equal(['growth']);
    expect(await match(criteria({ keywords: ['%'] }))).to.deep.equal(['growth']);
    expect(await match(criteria({ keywords: ['_'] }))).to.deep.equal(['growth']);
    expect(await match(criteria({ keywords: ['o_her'] }))).to.deep.equal([]);
    // Titles are stored folded: an accented keyword still finds them.
    expect(await match(criteria({ keywords: ['Directrice Markéting'] }))).to.deep.equal(['mkt']);
    expect(await match(criteria({ keywords: ['dîrectrice'] }))).to.deep.equal(['mkt']);
  });

  it('selects nobody for MATCH_NOBODY_KEYWORD, and leaves `unrecognised` to the keywords the resolver wrote', async () => {
    expect(await match(criteria({ keywords: [MATCH_NOBODY_KEYWORD] }))).to.deep.equal([]);
    expect(criteriaWhere(criteria({ countryCodes: ['DE'], keywords: [MATCH_NOBODY_KEYWORD] }), 1)).to.deep.equal({ sql: 'FALSE', bind: [] });
    // An excluded title no vocabulary knows is reported in `unrecognised` too: it must not become required.
    expect(await match(criteria({ unrecognised: ['head of growth'], exclude: { keywords: ['head of growth'] } }))).to.deep.equal(['blank', 'cto', 'eng', 'mkt', 'vpe']);
  });

  it('an audience value no vocabulary knows matches only leads with that word (through resolveAudience)', async () => {
    const unknown = resolveAudience({ industries: ['100%_Pure'] });
    expect(unknown.industryIds).to.deep.equal([]);
    expect(unknown.unrecognised).to.deep.equal(['100%_Pure']);
    expect(await match(unknown)).to.deep.equal(['growth']);
    const narrowed = resolveAudience({ locations: ['Germany', 'Qwxzland'] });
    expect(narrowed.countryCodes).to.deep.equal(['DE']);
    expect(await match(narrowed)).to.deep.equal([]);
    expect(await match(resolveAudience({ titles: ['CTO'], locations: ['DACH'] }))).to.deep.equal(['cto']);
  });

  it('excludes title keys, companies (case and spacing ignored), domains with their subdomains, addresses', async () => {
    expect(await match(criteria({ exclude: { titleKeys: ['cto', 'vp_engineering'] } }))).to.deep.equal(['blank', 'eng', 'growth', 'mkt']);
    expect(await match(criteria({ exclude: { companies: ['Acme GmbH'] } }))).to.deep.equal(['blank', 'eng', 'growth', 'mkt']);
    expect(await match(criteria({ exclude: { companies: ['acmegmbh', '100%_pure'] } }))).to.deep.equal(['blank', 'eng', 'mkt']);
    // acme.com covers eu.acme.com, not notacme.com; a website form is read as its domain.
    expect(await match(criteria({ exclude: { domains: ['https://www.Acme.com/'] } }))).to.deep.equal(['blank', 'eng', 'growth', 'mkt']);
    expect(await match(criteria({ exclude: { domains: ['eu.acme.com'] } }))).to.deep.equal(['blank', 'cto', 'eng', 'growth', 'mkt']);
    // A company domain excludes a lead whose address is elsewhere.
    expect(await match(criteria({ exclude: { domains: ['example'] } }))).to.deep.equal(['cto', 'growth', 'mkt', 'vpe']);
    expect(await match(criteria({ exclude: { emails: ['CTO@acme.com', 'nobody@x.example'] } }))).to.deep.equal(['blank', 'eng', 'growth', 'mkt', 'vpe']);
    expect(await match(criteria({ departments: ['engineering'], exclude: { domains: ['acme.com'] } }))).to.deep.equal(['eng']);
  });

  it('excludes (seniority, department) pairs, industries and keywords; a lead without the column stays', async () => {
    expect(await match(criteria({ exclude: { titleRoles: [{ seniority: 'director', department: 'marketing' }] } }))).to.deep.equal(['blank', 'cto', 'eng', 'growth', 'vpe']);
    expect(await match(criteria({ exclude: { titleRoles: [{ seniority: null, department: 'engineering' }] } }))).to.deep.equal(['blank', 'growth', 'mkt']);
    expect(await match(criteria({ exclude: { industryIds: ['software'] } }))).to.deep.equal(['blank', 'growth', 'mkt']);
    expect(await match(criteria({ exclude: { keywords: ['gmbh', '100%'] } }))).to.deep.equal(['blank', 'eng', 'mkt']);
    expect(await match(criteria({ departments: ['marketing'], exclude: { keywords: ['growth'] } }))).to.deep.equal(['mkt']);
  });

  it('binds every value: a hostile value is only a value', async () => {
    const hostile = "x'); DELETE FROM leads; --";
    expect(await match(criteria({ keywords: [hostile], exclude: { companies: [hostile], domains: [hostile], emails: [hostile] } }))).to.deep.equal([]);
    expect(await match(criteria({ exclude: { companies: [hostile], domains: [hostile], emails: [hostile] } }))).to.have.length(6);
  });

  it('pages by id, leaves out given ids and, when asked, leads that cannot be written to', async () => {
    const all = await findMatchingLeads(db.sequelize, account, NONE, { limit: 100 });
    const ids = all.map((l) => l.id);
    expect([...ids].sort()).to.deep.equal(ids);
    const first = await findMatchingLeads(db.sequelize, account, NONE, { limit: 2 });
    const next = await findMatchingLeads(db.sequelize, account, NONE, { limit: 2, afterId: first[1]!.id });
    expect([...first, ...next].map((l) => l.id)).to.deep.equal(ids.slice(0, 4));
    expect((await findMatchingLeads(db.sequelize, account, NONE, { limit: 100, excludeIds: ids.slice(1) })).map((l) => l.id)).to.deep.equal(ids.slice(0, 1));

    await db.sequelize.query(`UPDATE leads SET bounced_at = now() WHERE account_id = $1 AND email = 'cto@acme.com'`, { bind: [account] });
    await db.sequelize.query(`INSERT INTO suppressions (account_id, email, reason) VALUES ($1, 'vpe@eu.acme.com', 'manual')`, { bind: [account] });
    const reachable = await findMatchingLeads(db.sequelize, account, NONE, { limit: 100, reachableOnly: true });
    expect(reachable.map((l) => l.email).sort()).to.deep.equal(['blank@blank.example', 'eng@other.org', 'growth@pct.io', 'mkt@notacme.com']);
    expect(await countMatchingLeads(db.sequelize, account, NONE, { reachableOnly: true })).to.equal(4);
    expect(await countMatchingLeads(db.sequelize, account, NONE)).to.equal(6);
  });
});

describe('the lead matcher on a few thousand leads: EXPLAIN', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    await db.sequelize.query(`INSERT INTO accounts (id, name, plan) VALUES ('acc_big', 'B', 'free'), ('acc_big2', 'B2', 'free')`);
    // Two accounts of 4,000 leads each, spread over 40 countries, 25 industries, 200 title keys,
    // 7 seniorities x 6 departments: any one value is a small share of an account.
    await db.sequelize.query(`
      INSERT INTO leads (id, account_id, email, source, keyword_text, title, title_keys, title_norm, seniority, department, country_code, city_norm, industry, industry_id, company, company_size)
      SELECT 'lead_' || a.id || '_' || g, a.id, 'p' || g || '@c' || (g % 500) || '.example', 'import',
             'title ' || (g % 20) || ' | company ' || (g % 500) || ' | industry ' || (g % 25),
             'Title ' || (g % 20), ARRAY['key_' || (g % 200)], 'title ' || (g % 20),
             (ARRAY['c_level','vp','head','director','manager','senior','entry'])[1 + g % 7],
             (ARRAY['engineering','marketing','sales','people','finance','operations'])[1 + g % 6],
             chr(65 + (g % 40) / 26) || chr(65 + (g % 40) % 26), 'city ' || (g % 97),
             'Industry ' || (g % 25), 'ind_' || (g % 25), 'Company ' || (g % 500), 10 * (g % 300)
      FROM generate_series(1, 4000) g, (VALUES ('acc_big'), ('acc_big2')) a(id)`);
    await db.sequelize.query('ANALYZE leads');
  });
  after(async () => {
    await db.drop();
  });

  /** The names of the indexes the plan of the matcher's count query reads. */
  const indexesUsed = async (c: LeadCriteria): Promise<string[]> => {
    const where = criteriaWhere(c, 2);
    const rows = await db.sequelize.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT l.id FROM leads l WHERE l.account_id = $1 AND ${where.sql}`, {
      bind: ['acc_big', ...where.bind],
      type: QueryTypes.SELECT,
    });
    const names: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === 'Index Name' && typeof v === 'string') names.push(v);
          else walk(v);
        }
      }
    };
    walk(rows[0]?.['QUERY PLAN']);
    return names;
  };

  it('reads a country list through the (account, country) index', async () => {
    expect(await indexesUsed(criteria({ countryCodes: ['AA', 'AB'] }))).to.include('leads_account_country_city');
  });

  it('reads a city through the same index', async () => {
    expect(await indexesUsed(criteria({ cities: [{ city: 'city 5', countryCode: 'AF' }] }))).to.include('leads_account_country_city');
  });

  it('reads industries, title keys and seniority/department pairs through their indexes', async () => {
    expect(await indexesUsed(criteria({ industryIds: ['ind_3'] }))).to.include('leads_account_industry');
    expect(await indexesUsed(criteria({ titleKeys: ['key_4', 'key_5'] }))).to.include('leads_account_title_keys');
    expect(await indexesUsed(criteria({ titleRoles: [{ seniority: 'vp', department: 'sales' }] }))).to.include('leads_account_seniority_department');
  });

  // Over a few thousand leads (and in this test's up to some 30,000 per account) the planner reads a
  // keyword through the account's rows, a few ms: a '%word%' match is priced as far less selective
  // than it is, and the GIN index as costly. What is checked is that the index can serve the
  // matcher's keyword SQL (column, operator, array form), so the planner has it once that wins.
  it('can read a keyword through the trigram index', async () => {
    const where = criteriaWhere(criteria({ keywords: ['company 427', 'zebra'] }), 1);
    const plan = await db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query('SET LOCAL enable_seqscan = off', { transaction });
      const rows = await db.sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT l.id FROM leads l WHERE ${where.sql}`, {
        bind: where.bind,
        type: QueryTypes.SELECT,
        transaction,
      });
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).to.include('Bitmap Index Scan on leads_keywords_trgm');
  });
});
