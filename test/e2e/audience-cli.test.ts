import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { importLeadsCsv } from '../../src/leads/import/import-csv';
import { createAccount } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { runCli, type StackEnv } from '../support/stack';

interface Preview {
  filters: Record<string, unknown>;
  source: string;
  unrecognised: string[];
  matchedLeads: number;
  leads: Array<{ email: string }>;
  reason: string | null;
}

const POOL = [
  'Email,First Name,Last Name,Job Title,Company,Country',
  'anna@kraftwerk.example,Anna,Schmidt,CTO,Kraftwerk Software,Germany',
  'ben@berliner.example,Ben,Weber,Chief Technology Officer,Berliner Daten,Germany',
  'dan@london.example,Dan,Smith,Marketing Manager,London Retail,United Kingdom',
].join('\n');

/**
 * `outreach audience preview` as an operator runs it: the real CLI in a child process, on a test
 * database through DATABASE_URL.
 */
describe('outreach audience preview (CLI)', () => {
  let db: TestDatabase;
  let dir: string;
  let s: StackEnv;
  let accountId = '';

  before(async () => {
    db = await createTestDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'audience-cli-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, DATA_DIR: dir, LOG_LEVEL: 'warn' };
    delete env.TEMPORAL_ADDRESS;
    s = { dataDir: dir, env, baseUrl: '' };
    ({ accountId } = await createAccount(db.sequelize));
    await importLeadsCsv(db.sequelize, accountId, Readable.from([POOL]));
  });
  after(async () => {
    await db?.drop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('previews text and filters as JSON on stdout', async () => {
    const text = await runCli(s, ['audience', 'preview', 'CTOs in Germany', '--account', accountId]);
    expect(text.code, text.stderr).to.equal(0);
    const p = JSON.parse(text.stdout) as Preview;
    expect(p).to.deep.include({ source: 'parser', matchedLeads: 2, reason: null });
    expect(p.leads.map((l) => l.email).sort()).to.deep.equal(['anna@kraftwerk.example', 'ben@berliner.example']);

    const filters = await runCli(s, ['audience', 'preview', '--account', accountId, '--filters', '{"departments":["marketing"]}']);
    expect(filters.code, filters.stderr).to.equal(0);
    expect(JSON.parse(filters.stdout)).to.deep.include({ source: 'explicit', filters: { departments: ['marketing'] }, matchedLeads: 1 });

    const nobody = await runCli(s, ['audience', 'preview', 'the people in the companies', '--account', accountId]);
    expect(nobody.code, nobody.stderr).to.equal(0);
    const none = JSON.parse(nobody.stdout) as Preview;
    expect(none.matchedLeads).to.equal(0);
    expect(none.reason).to.be.a('string');
  });

  it('exits 1 with a message for an unknown account, both or neither input, and bad filters', async () => {
    const unknown = await runCli(s, ['audience', 'preview', 'CTO', '--account', 'acc_doesnotexist']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.include('outreach: No account acc_doesnotexist');
    expect(unknown.stdout).to.equal('');

    const both = await runCli(s, ['audience', 'preview', 'CTO', '--account', accountId, '--filters', '{"titles":["CTO"]}']);
    expect(both.code).to.equal(1);
    expect(both.stderr).to.include('not several');
    const neither = await runCli(s, ['audience', 'preview', '--account', accountId]);
    expect(neither.code).to.equal(1);
    expect(neither.stderr).to.include('Give the text, --filters or --campaign');

    const badJson = await runCli(s, ['audience', 'preview', '--account', accountId, '--filters', '{titles']);
    expect(badJson.code).to.equal(1);
    expect(badJson.stderr).to.include('expected a JSON object of audience filters');
    const badKey = await runCli(s, ['audience', 'preview', '--account', accountId, '--filters', '{"jobTitles":["CTO"]}']);
    expect(badKey.code).to.equal(1);
    expect(badKey.stderr).to.include('filters has unknown field "jobTitles"');
    expect(badKey.stdout).to.equal('');
    // Custom field filters by the API's rules: a name off the pattern is an unknown field.
    const badCustom = await runCli(s, ['audience', 'preview', '--account', accountId, '--filters', '{"custom":{"Plan":["pro"]}}']);
    expect(badCustom.code).to.equal(1);
    expect(badCustom.stderr).to.include('filters.custom has unknown field "Plan"');
    const custom = await runCli(s, ['audience', 'preview', '--account', accountId, '--filters', '{"custom":{"plan":["pro"]}}']);
    expect(custom.code, custom.stderr).to.equal(0);
    expect(JSON.parse(custom.stdout)).to.deep.include({ source: 'explicit', filters: { custom: { plan: ['pro'] } } });
  });
});
