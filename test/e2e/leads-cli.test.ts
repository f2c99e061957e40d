import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { createAccount } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { runCli, type StackEnv } from '../support/stack';

/**
 * `outreach leads import FILE --account ID` as an operator runs it: the real CLI in a child
 * process, on a test database through DATABASE_URL, with a generated 20,000-row file.
 */
describe('outreach leads import (CLI)', () => {
  let db: TestDatabase;
  let dir: string;
  let s: StackEnv;

  before(async () => {
    db = await createTestDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leads-cli-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, DATA_DIR: dir, LOG_LEVEL: 'warn' };
    delete env.TEMPORAL_ADDRESS;
    s = { dataDir: dir, env, baseUrl: '' };
  });
  after(async () => {
    await db?.drop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('imports a large file with a progress bar on stderr and the counts as JSON on stdout', async () => {
    const { accountId } = await createAccount(db.sequelize);
    // Every 101st row has a broken address, every 53rd repeats the last imported address (in capitals), every 37th is suppressed.
    const lines = ['Email,First Name,Last Name,Job Title,Company,Website,City,Country,Notes'];
    const expected = { total: 0, imported: 0, duplicates: 0, suppressed: 0, invalid: 0 };
    const badLines: number[] = [];
    const suppressed: string[] = [];
    let lastImported = '';
    for (let i = 0; i < 20_000; i++) {
      const line = lines.length + 1;
      expected.total++;
      if (i % 101 === 100) {
        lines.push(`broken-address-${i},Bad,Row,Nobody,Nowhere,,,,`);
        expected.invalid++;
        badLines.push(line);
      } else if (i % 53 === 52) {
        lines.push(`${lastImported.toUpperCase()},Again,${i},Repeat,Co,,,,`);
        expected.duplicates++;
      } else if (i % 37 === 36) {
        const address = `blocked${i}@bulk.example`;
        suppressed.push(address);
        lines.push(`${address},Blocked,${i},Engineer,Co,,,,`);
        expected.suppressed++;
      } else {
        lastImported = `person${i}@bulk.example`;
        lines.push(`${lastImported},First${i},Last${i},Engineer ${i % 7},Company ${i % 300},company${i % 300}.example,Austin,United States,"a note, with a comma"`);
        expected.imported++;
      }
    }
    for (const a of suppressed) await suppressAddress(db.sequelize, null, accountId, a, 'unsubscribe');
    const file = path.join(dir, 'leads.csv');
    await fs.writeFile(file, lines.join('\n') + '\n');
    expect((await fs.stat(file)).size).to.be.greaterThan(1024 * 1024);

    const out = await runCli(s, ['leads', 'import', file, '--account', accountId]);
    expect(out.code, out.stderr).to.equal(0);
    const result = JSON.parse(out.stdout) as typeof expected & { errors: Array<{ line: number; error: string }>; verification: Record<string, number> };
    expect(result).to.include(expected);
    // Verified as the API's import verifies (a reserved test domain passes in development).
    expect(result.verification).to.deep.equal({ valid: expected.imported, risky: 0, invalid: 0, unknown: 0 });
    expect(result.errors.map((e) => e.line)).to.deep.equal(badLines.slice(0, 100));
    expect(result.errors[0]).to.deep.equal({ line: badLines[0], error: 'Email "broken-address-100" is not a valid email address' });
    expect(out.stderr).to.match(/Importing leads \[/);
    expect(out.stderr).to.match(/100% \| \d+\.\d MB of \d+\.\d MB/);

    const [row] = await db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM leads WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT });
    expect(Number(row?.n)).to.equal(expected.imported);
  });

  it('exits 1 with a message for an unknown account or an unreadable file', async () => {
    const file = path.join(dir, 'small.csv');
    await fs.writeFile(file, 'email\na@b.example\n');
    const unknown = await runCli(s, ['leads', 'import', file, '--account', 'acc_doesnotexist']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.include('outreach: No account acc_doesnotexist');
    expect(unknown.stdout).to.equal('');

    const { accountId } = await createAccount(db.sequelize);
    const missing = await runCli(s, ['leads', 'import', path.join(dir, 'missing.csv'), '--account', accountId]);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.include(`outreach: cannot read ${path.join(dir, 'missing.csv')}: ENOENT`);
    const directory = await runCli(s, ['leads', 'import', dir, '--account', accountId]);
    expect(directory.code).to.equal(1);
    expect(directory.stderr).to.include(`outreach: ${dir} is not a file`);

    // A small file on a non-terminal stderr gets no progress bar.
    const small = await runCli(s, ['leads', 'import', file, '--account', accountId]);
    expect(small.code, small.stderr).to.equal(0);
    expect(JSON.parse(small.stdout)).to.include({ total: 1, imported: 1 });
    expect(small.stderr).to.not.include('Importing leads');
  });
});
