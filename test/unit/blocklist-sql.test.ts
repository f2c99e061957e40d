import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { blockedSql } from '../../src/blocklist/blocked-sql';
import { addEntries, blockAddress, isBlocked } from '../../src/blocklist/blocklist-repository';
import { createAccount } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';

describe('the blocklist in SQL (email_domain_suffixes, blockedSql) on PostgreSQL', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  const suffixes = async (email: string | null) =>
    (await db.sequelize.query<{ s: string[] | null }>(`SELECT email_domain_suffixes($1::text) AS s`, { bind: [email], type: QueryTypes.SELECT }))[0]?.s;

  it('email_domain_suffixes lists the domain of an address and each parent of it', async () => {
    expect(await suffixes('a@x.b.example.com')).to.deep.equal(['x.b.example.com', 'b.example.com', 'example.com', 'com']);
    expect(await suffixes('Ada@Example.COM')).to.deep.equal(['example.com', 'com']);
    expect(await suffixes('odd@name@example.org.')).to.deep.equal(['example.org', 'org']);
    expect(await suffixes('no-at-sign')).to.deep.equal(['no-at-sign']);
    expect(await suffixes('a@')).to.deep.equal([]);
    expect(await suffixes(null)).to.equal(null);
  });

  it('blockedSql: a domain covers its subdomains, not its siblings; an address only itself; one account never another', async () => {
    const a = await createAccount(db.sequelize);
    const b = await createAccount(db.sequelize);
    await addEntries(db.sequelize, a.accountId, [
      { kind: 'domain', value: 'blocked.example.com', reason: null },
      { kind: 'address', value: 'one@open.example.org', reason: 'asked us' },
    ], 'user');
    const leads = [
      'x@blocked.example.com',
      'x@mail.blocked.example.com',
      'X@Deep.Mail.Blocked.Example.com',
      'x@example.com',
      'x@notblocked.example.com',
      'x@blocked.example.com.evil.test',
      'one@open.example.org',
      'two@open.example.org',
    ];
    // As the lead will use it: a column of rows against a bind parameter for the account.
    const rows = await db.sequelize.query<{ email: string; for_a: boolean; for_b: boolean }>(
      `SELECT t.email, ${blockedSql('$1', 't.email')} AS for_a, ${blockedSql('$2', 't.email')} AS for_b FROM unnest($3::text[]) AS t(email)`,
      { bind: [a.accountId, b.accountId, leads], type: QueryTypes.SELECT },
    );
    expect(Object.fromEntries(rows.map((r) => [r.email, r.for_a]))).to.deep.equal({
      'x@blocked.example.com': true,
      'x@mail.blocked.example.com': true,
      'X@Deep.Mail.Blocked.Example.com': true,
      'x@example.com': false,
      'x@notblocked.example.com': false,
      'x@blocked.example.com.evil.test': false,
      'one@open.example.org': true,
      'two@open.example.org': false,
    });
    expect(rows.every((r) => !r.for_b)).to.equal(true);
    expect(await isBlocked(db.sequelize, a.accountId, 'ONE@open.example.org')).to.equal(true);
    expect(await isBlocked(db.sequelize, b.accountId, 'one@open.example.org')).to.equal(false);
  });

  it('is answered from the unique index, one probe per suffix', async () => {
    const a = await createAccount(db.sequelize);
    await db.sequelize.query(
      `INSERT INTO blocklist_entries (account_id, kind, value, source) SELECT $1, 'domain', 'd' || i || '.example.com', 'import' FROM generate_series(1, 20000) i`,
      { bind: [a.accountId] },
    );
    await db.sequelize.query('ANALYZE blocklist_entries');
    const plan = await db.sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT ${blockedSql(`'${a.accountId}'`, `'x@mail.d7.example.com'`)}`, { type: QueryTypes.SELECT });
    const text = plan.map((p) => p['QUERY PLAN']).join('\n');
    expect(text).to.match(/Index (Only )?Scan|Bitmap Index Scan/);
    expect(text).not.to.match(/Seq Scan on blocklist_entries/);
    expect(await isBlocked(db.sequelize, a.accountId, 'x@mail.d7.example.com')).to.equal(true);
  });

  it('blockAddress (do_not_contact) is idempotent and keeps the first entry', async () => {
    const a = await createAccount(db.sequelize);
    const first = await db.sequelize.transaction((tx) => blockAddress(db.sequelize, tx, a.accountId, 'Lead@Example.com', 'do_not_contact'));
    const again = await db.sequelize.transaction((tx) => blockAddress(db.sequelize, tx, a.accountId, 'lead@example.com', 'user', 'later'));
    expect(first.added).to.equal(true);
    expect(again).to.deep.equal({ id: first.id, added: false });
    const rows = await db.sequelize.query(`SELECT kind, value, source, reason FROM blocklist_entries WHERE account_id = $1`, { bind: [a.accountId], type: QueryTypes.SELECT });
    expect(rows).to.deep.equal([{ kind: 'address', value: 'lead@example.com', source: 'do_not_contact', reason: null }]);
    expect(await isBlocked(db.sequelize, a.accountId, 'lead@example.com')).to.equal(true);
  });

  it('the table refuses what the API would never write', async () => {
    const a = await createAccount(db.sequelize);
    for (const [kind, value] of [['domain', 'Upper.com'], ['domain', '.example.com'], ['domain', 'com'], ['address', 'no-at.example.com'], ['domain', 'a@b.com'], ['other', 'x.com']]) {
      let failed = false;
      await db.sequelize
        .query(`INSERT INTO blocklist_entries (account_id, kind, value, source) VALUES ($1, $2, $3, 'user')`, { bind: [a.accountId, kind, value] })
        .catch(() => (failed = true));
      expect(failed, `${kind} ${value}`).to.equal(true);
    }
  });
});
