import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { createMigrator } from '../../src/db/migrator';
import { MIGRATIONS } from '../../src/db/migrations';
import { keywordText } from '../../src/leads/profile-columns';
import { refreshLeadProfiles } from '../../src/leads/profile-refresh';
import { leadProfile } from '../../src/leads/profile/lead-profile';
import { createTestDatabase, type TestDatabase } from '../support/database';

async function tables(db: TestDatabase): Promise<string[]> {
  const rows = await db.sequelize.query<{ name: string }>(
    `SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY table_name`,
    { type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name);
}

describe('migrations', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase(); // migrated up
  });
  after(async () => {
    await db.drop();
  });

  it('are named by timestamp, in order, each once', () => {
    const names = MIGRATIONS.map((m) => m.name);
    for (const n of names) expect(n).to.match(/^\d{14}-[a-z0-9-]+$/);
    expect([...names].sort()).to.deep.equal(names);
    expect(new Set(names).size).to.equal(names.length);
  });

  it('revert to an empty schema and apply again to the same tables', async () => {
    const migrated = await tables(db);
    expect(migrated).to.include.members(['accounts', 'api_keys', 'campaigns']);
    const migrator = createMigrator(db.sequelize);
    await migrator.down({ to: 0 });
    expect(await tables(db)).to.deep.equal([]);
    expect(await migrator.executed()).to.deep.equal([]);
    await migrator.up();
    expect(await tables(db)).to.deep.equal(migrated);
  });

  it('constraints refuse what the API would never write', async () => {
    await db.sequelize.query(`INSERT INTO accounts (id, name, plan) VALUES ('acc_x', 'X', 'free')`);
    const insertCampaign = (extra: string, values: string) =>
      db.sequelize.query(`INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url${extra}) VALUES ('cmp_${Math.random().toString(36).slice(2)}', 'acc_x', 'a', 'n', 'm', 'https://x.test'${values})`);
    await insertCampaign('', '');
    for (const [col, val] of [[', status', ", 'archived'"], [', budget_max_daily_usd', ', -1'], [', schedule_trial_days', ', 0']] as const) {
      let failed = false;
      await insertCampaign(col, val).catch(() => (failed = true));
      expect(failed, `${col} = ${val}`).to.equal(true);
    }
    let badPlan = false;
    await db.sequelize.query(`INSERT INTO accounts (id, name, plan) VALUES ('acc_y', 'Y', 'gold')`).catch(() => (badPlan = true));
    expect(badPlan).to.equal(true);
  });

  describe('the lead profile', () => {
    const PROFILE = ['title_key', 'title_norm', 'seniority', 'department', 'country_code', 'city_norm', 'industry_id', 'company_size', 'keyword_text'] as const;
    const columnsOfLeads = async (): Promise<string[]> =>
      (
        await db.sequelize.query<{ name: string }>(`SELECT column_name::text AS name FROM information_schema.columns WHERE table_name = 'leads' ORDER BY column_name`, {
          type: QueryTypes.SELECT,
        })
      ).map((r) => r.name);
    const indexesOfLeads = async (): Promise<string[]> =>
      (await db.sequelize.query<{ name: string }>(`SELECT indexname::text AS name FROM pg_indexes WHERE tablename = 'leads' ORDER BY indexname`, { type: QueryTypes.SELECT })).map(
        (r) => r.name,
      );
    const RAW = [
      { id: 'lead_m1', title: 'Chief Technology Officer', city: 'Berlin', state: null, country: 'Germany', industry: 'Computer Software' },
      { id: 'lead_m2', title: 'VP of Marketing', city: 'Austin', state: 'Texas', country: 'United States', industry: 'Financial Services' },
      { id: 'lead_m3', title: null, city: null, state: null, country: null, industry: null },
      { id: 'lead_m4', title: 'Head of Sales', city: 'Zürich', state: null, country: 'CH', industry: 'Retail' },
      { id: 'lead_m5', title: 'Software Engineer', city: 'London', state: null, country: 'UK', industry: 'Internet' },
    ];
    const expected = (r: (typeof RAW)[number]) => {
      const input = { title: r.title, city: r.city, state: r.state, country: r.country, industry: r.industry };
      const p = leadProfile(input);
      return [p.titleKey, p.titleNorm, p.seniority, p.department, p.countryCode, p.cityNorm, p.industryId, p.companySize, keywordText(p, input)];
    };
    // Added by the later migration that reads titles in parts and places by state.
    const LATER = ['title_keys', 'state_code'] as const;
    const expectedLater = (r: (typeof RAW)[number]) => {
      const p = leadProfile({ title: r.title, city: r.city, state: r.state, country: r.country, industry: r.industry });
      return [p.titleKeys.length === 0 ? null : p.titleKeys, p.stateCode];
    };
    const stored = async () =>
      db.sequelize.query<Record<string, unknown>>(`SELECT id, ${[...PROFILE, ...LATER].join(', ')} FROM leads WHERE account_id = 'acc_p' ORDER BY id`, { type: QueryTypes.SELECT });

    it('adds the columns and indexes, fills them for the leads already stored, and goes back down', async () => {
      const migrator = createMigrator(db.sequelize);
      await migrator.down({ to: '20261125100000-lead-profile' });
      expect(await columnsOfLeads()).to.not.include('title_key');
      expect(await indexesOfLeads()).to.not.include('leads_account_country_city');

      await db.sequelize.query(`INSERT INTO accounts (id, name, plan) VALUES ('acc_p', 'P', 'free')`);
      for (const r of RAW) {
        await db.sequelize.query(`INSERT INTO leads (id, account_id, email, source, title, city, state, country, industry) VALUES ($1, 'acc_p', $2, 'import', $3, $4, $5, $6, $7)`, {
          bind: [r.id, `${r.id}@example.com`, r.title, r.city, r.state, r.country, r.industry],
        });
      }
      await migrator.up();
      expect(await columnsOfLeads()).to.include.members([...PROFILE, ...LATER, 'seniority_raw', 'department_raw', 'company_size_raw']);
      expect(await indexesOfLeads()).to.include.members([
        'leads_account_country_city',
        'leads_account_industry',
        'leads_account_seniority_department',
        'leads_account_state',
        'leads_account_title_keys',
        'leads_keywords_trgm',
      ]);
      // The old title_key index went with the migration that made title_keys what audiences read.
      expect(await indexesOfLeads()).to.not.include('leads_account_title_key');
      const rows = await stored();
      expect(rows.map((r) => PROFILE.map((c) => r[c]))).to.deep.equal(RAW.map(expected));
      expect(rows.map((r) => LATER.map((c) => r[c]))).to.deep.equal(RAW.map(expectedLater));
      expect(rows[0]).to.deep.include({ title_key: 'cto', title_keys: ['cto'], country_code: 'DE', city_norm: 'berlin', state_code: 'DE-BE' });
      expect(rows[1]).to.include({ state_code: 'US-TX' });
      expect(rows[2]).to.deep.include({ title_key: null, title_keys: null, country_code: null, state_code: null });

      await migrator.down({ to: '20261125100000-lead-profile' });
      expect(await columnsOfLeads()).to.not.include.members(['title_key', 'company_size_raw']);
      expect(await indexesOfLeads()).to.deep.equal(['leads_account_created', 'leads_account_id_email_key', 'leads_pkey']);
      await migrator.up();
      expect((await stored()).map((r) => PROFILE.map((c) => r[c]))).to.deep.equal(RAW.map(expected));
    });

    it('fills in batches, each starting after the last id of the one before', async () => {
      await db.sequelize.query(`UPDATE leads SET ${PROFILE.map((c) => `${c} = NULL`).join(', ')} WHERE account_id = 'acc_p'`);
      expect(await refreshLeadProfiles(db.sequelize, { batchSize: 2 })).to.equal(RAW.filter((r) => expected(r).some((v) => v !== null)).length);
      expect((await stored()).map((r) => PROFILE.map((c) => r[c]))).to.deep.equal(RAW.map(expected));
      // Nothing changed since: a second run writes no row.
      expect(await refreshLeadProfiles(db.sequelize, { batchSize: 2 })).to.equal(0);
    });
  });
});
