import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { getDefaultSender } from '../../src/accounts/default-sender';
import { createAccount } from '../support/api';
import { cliEnv, runOutreach, type CliRun } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * `outreach sender show|set` as an operator runs it: bin/outreach.js in a child process on a test
 * database through DATABASE_URL. Each run is a fresh Node process compiling the CLI, so the cases
 * are few; the rules themselves are tested through the API (test/api/default-sender.test.ts).
 */
describe('outreach sender (CLI)', function () {
  this.timeout(240_000);
  let db: TestDatabase;
  let dir: string;

  before(async () => {
    db = await createTestDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sender-cli-'));
  });
  after(async () => {
    await db?.drop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]): Promise<CliRun> => runOutreach(['sender', ...args], cliEnv(db.url));

  async function json(args: string[]): Promise<Record<string, unknown>> {
    const run = await cli(args);
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(0);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }

  it('shows, sets (a signature from a file) and clears the default sender', async () => {
    const { accountId } = await createAccount(db.sequelize);
    expect(await json(['show', '--account', accountId])).to.deep.equal({ account_id: accountId, name: null, signature: null });

    const file = path.join(dir, 'signature.txt');
    await fs.writeFile(file, 'Sam Lee  \r\nHead of Sales, Acme\r\n');
    const set = await json(['set', '--account', accountId, '--name', ' Sam Lee ', '--signature-file', file]);
    expect(set).to.deep.equal({ account_id: accountId, name: 'Sam Lee', signature: 'Sam Lee\nHead of Sales, Acme' });
    // What the API reads.
    expect(await getDefaultSender(db.sequelize, accountId)).to.deep.equal({ name: 'Sam Lee', signature: 'Sam Lee\nHead of Sales, Acme' });

    const cleared = await json(['set', '--account', accountId, '--clear-name', '--clear-signature']);
    expect(cleared).to.deep.equal({ account_id: accountId, name: null, signature: null });
    expect(await getDefaultSender(db.sequelize, accountId)).to.deep.equal({ name: null, signature: null });
  });

  it('exits 1 with the message on a bad value or an unknown account, changing nothing', async () => {
    const { accountId } = await createAccount(db.sequelize);
    const file = path.join(dir, 'long-signature.txt');
    await fs.writeFile(file, Array.from({ length: 16 }, (_, i) => `line ${i + 1}`).join('\n'));
    const cases: Array<[string[], RegExp]> = [
      [['set', '--account', accountId, '--name', 'ceo@bank.example'], /error: --name must not contain <, >, " or @/],
      [['set', '--account', accountId, '--signature-file', file], /error: --signature-file must be at most 15 lines \(this one has 16\)/],
      [['show', '--account', 'acc_doesnotexist'], /error: No account acc_doesnotexist/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(1);
      expect(run.stderr, args.join(' ')).to.match(message);
      expect(run.stdout, args.join(' ')).to.equal('');
    }
    expect(await getDefaultSender(db.sequelize, accountId)).to.deep.equal({ name: null, signature: null });
  });
});
