import http from 'node:http';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { importBlocklistCsv } from '../../src/blocklist/blocklist-import';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';

interface Item {
  id: string | null;
  type: 'address' | 'domain' | 'suppression';
  value: string;
  reason: string | null;
  source: string | null;
  cause: string | null;
  createdAt: string;
}
interface AddResult {
  added: number;
  duplicates: number;
  invalid: number;
  entries: Array<Item & { status: string }>;
  errors: Array<{ index: number; value: string; error: string }>;
  error?: string;
}
interface ImportResult {
  total: number;
  added: number;
  duplicates: number;
  invalid: number;
  errors: Array<{ line: number; error: string }>;
  error?: string;
}
interface ListResult {
  items: Item[];
  pagination: { page: number; perPage: number; total: number };
}

describe('the account blocklist (/v1/blocklist)', () => {
  const t = useTestApi();
  const url = (path: string) => `${t.api.baseUrl}${path}`;

  const add = (key: string, body: unknown) =>
    request<AddResult>(url('/v1/blocklist'), { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const list = (key: string, query = '') => request<ListResult>(url(`/v1/blocklist${query}`), { headers: surfaceB(key) });
  const upload = (key: string, csv: string, contentType = 'text/csv') =>
    request<ImportResult>(url('/v1/blocklist/import'), { method: 'POST', headers: { ...surfaceB(key), 'content-type': contentType }, body: csv });
  const stored = async (accountId: string) =>
    (
      await t.db.sequelize.query<{ kind: string; value: string }>(`SELECT kind, value FROM blocklist_entries WHERE account_id = $1 ORDER BY kind, value`, {
        bind: [accountId],
        type: QueryTypes.SELECT,
      })
    ).map((r) => `${r.kind}:${r.value}`);
  const storedCount = async (accountId: string) =>
    Number(
      (await t.db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM blocklist_entries WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT }))[0]?.n,
    );

  it('adds an address or a domain, reports one already listed as such, lists and removes them', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const one = await add(apiKey, { value: 'https://www.Competitor.example.com/pricing', reason: 'competitor' });
    expect(one.status, one.text).to.equal(200);
    expect(one.body).to.deep.include({ added: 1, duplicates: 0, invalid: 0, errors: [] });
    expect(one.body.entries[0]).to.deep.include({ type: 'domain', value: 'competitor.example.com', reason: 'competitor', source: 'user', cause: null, status: 'added' });

    const many = await add(apiKey, {
      entries: ['Ada@Example.org', { value: '@competitor.example.com', reason: 'again' }, 'not a value', 'co.uk', 'ada@example.org', 'Bob <bob@example.net>'],
      reason: 'default note',
    });
    expect(many.status, many.text).to.equal(200);
    expect(many.body).to.deep.include({ added: 2, duplicates: 2, invalid: 2 });
    expect(many.body.entries.map((e) => [e.value, e.status, e.reason])).to.deep.equal([
      ['ada@example.org', 'added', 'default note'],
      ['competitor.example.com', 'already_listed', 'competitor'],
      ['bob@example.net', 'added', 'default note'],
    ]);
    expect(many.body.errors).to.deep.equal([
      { index: 2, value: 'not a value', error: '"not a value" is neither an email address nor a domain' },
      { index: 3, value: 'co.uk', error: '"co.uk" is a public suffix shared by many owners, not one domain; block an address or a domain of one owner' },
    ]);
    expect(await stored(accountId)).to.deep.equal(['address:ada@example.org', 'address:bob@example.net', 'domain:competitor.example.com']);

    const all = await list(apiKey, '?perPage=2');
    expect(all.status).to.equal(200);
    expect(all.body.pagination).to.deep.equal({ page: 1, perPage: 2, total: 3 });
    expect(all.body.items).to.have.length(2);
    expect((await list(apiKey, '?type=domain')).body.items.map((i) => i.value)).to.deep.equal(['competitor.example.com']);
    expect((await list(apiKey, '?q=EXAMPLE.N')).body.items.map((i) => i.value)).to.deep.equal(['bob@example.net']);
    expect((await list(apiKey, '?q=%25')).body.items).to.deep.equal([]);
    expect((await list(apiKey, '?source=import')).body.pagination.total).to.equal(0);

    const bob = many.body.entries.find((e) => e.value === 'bob@example.net')!;
    const removed = await request(url(`/v1/blocklist/${bob.id}`), { method: 'DELETE', headers: surfaceB(apiKey) });
    expect(removed.status).to.equal(204);
    expect(await stored(accountId)).to.deep.equal(['address:ada@example.org', 'domain:competitor.example.com']);
    const again = await request(url(`/v1/blocklist/${bob.id}`), { method: 'DELETE', headers: surfaceB(apiKey) });
    expect(again.status).to.equal(404);
    expect(again.body).to.deep.equal({ error: 'Blocklist entry not found' });
  });

  it("refuses bad input with a 400 naming the field, and another account's entry with a 404", async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    const neither = await add(apiKey, { value: 'just some words' });
    expect(neither.status).to.equal(400);
    expect(neither.body).to.deep.equal({ error: 'body.value: "just some words" is neither an email address nor a domain' });
    const suffix = await add(apiKey, { value: 'com' });
    expect(suffix.status).to.equal(400);
    expect(suffix.body.error).to.equal('body.value: "com" is a single-label name, not a domain; block an address or a domain of one owner');
    const coUk = await add(apiKey, { value: '*.co.uk' });
    expect(coUk.status).to.equal(400);
    expect(coUk.body.error).to.match(/^body\.value: "\*\.co\.uk" is a public suffix/);
    const allBad = await add(apiKey, { entries: ['x', 'y', 'com', 'a@', 'b@'] });
    expect(allBad.status).to.equal(400);
    expect(allBad.body.error).to.equal(
      'body.entries[0]: "x" is a single-label name, not a domain; block an address or a domain of one owner; ' +
        'body.entries[1]: "y" is a single-label name, not a domain; block an address or a domain of one owner; ' +
        'body.entries[2]: "com" is a single-label name, not a domain; block an address or a domain of one owner; and 2 more',
    );
    const tooMany = await add(apiKey, { entries: Array.from({ length: 1001 }, (_, i) => `p${i}@example.com`) });
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.error).to.match(/^body\.entries must NOT have more than 1000 items/);
    const both = await add(apiKey, { value: 'a@example.com', entries: ['b@example.com'] });
    expect(both.status).to.equal(400);
    expect(both.body.error).to.equal('body must have either value or entries (not both)');
    expect((await add(apiKey, {})).status).to.equal(400);
    const longReason = await add(apiKey, { value: 'a@example.com', reason: 'r'.repeat(501) });
    expect(longReason.status).to.equal(400);
    expect(longReason.body.error).to.match(/^body\.reason /);
    expect(await stored(accountId)).to.deep.equal([]);

    const theirs = await add(other.apiKey, { value: 'theirs@example.com' });
    const id = theirs.body.entries[0]!.id;
    const cross = await request(url(`/v1/blocklist/${id}`), { method: 'DELETE', headers: surfaceB(apiKey) });
    expect(cross.status).to.equal(404);
    expect(cross.body).to.deep.equal({ error: 'Blocklist entry not found' });
    expect(await stored(other.accountId)).to.deep.equal(['address:theirs@example.com']);
    expect((await list(apiKey)).body.items).to.deep.equal([]);
    // Surface B only; Surface A's Bearer key does not reach it.
    expect((await request(url('/v1/blocklist'), { headers: surfaceA(apiKey) })).status).to.equal(401);
  });

  it('shows the suppression list through the same API, read-only, each with its cause', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    await suppressAddress(t.db.sequelize, null, accountId, 'gone@example.com', 'hard_bounce');
    await suppressAddress(t.db.sequelize, null, accountId, 'bye@example.com', 'unsubscribe');
    await suppressAddress(t.db.sequelize, null, accountId, 'angry@example.com', 'complaint');
    await add(apiKey, { value: 'blocked.example.com' });

    expect((await list(apiKey)).body.items.map((i) => i.value)).to.deep.equal(['blocked.example.com']);
    const sup = await list(apiKey, '?type=suppression');
    expect(sup.body.pagination.total).to.equal(3);
    expect(Object.fromEntries(sup.body.items.map((i) => [i.value, [i.type, i.cause, i.id, i.source]]))).to.deep.equal({
      'gone@example.com': ['suppression', 'bounce', null, null],
      'bye@example.com': ['suppression', 'unsubscribe', null, null],
      'angry@example.com': ['suppression', 'complaint', null, null],
    });
    const both = await list(apiKey, '?include=suppressions&q=b');
    expect(both.body.items.map((i) => `${i.type}:${i.value}`).sort()).to.deep.equal(['domain:blocked.example.com', 'suppression:bye@example.com']);
    // Only entries have a source: asking for one leaves the suppressions out.
    expect((await list(apiKey, '?include=suppressions&source=user')).body.items.map((i) => i.value)).to.deep.equal(['blocked.example.com']);
    const bad = await list(apiKey, '?type=bounce');
    expect(bad.status).to.equal(400);
    expect((bad.body as unknown as { error: string }).error).to.match(/^query\.type must be one of/);

    const json = await request<Array<Record<string, unknown>>>(url('/v1/blocklist/export?format=json&include=suppressions'), { headers: surfaceB(apiKey) });
    expect(json.status).to.equal(200);
    expect(json.body.map((r) => [r.value, r.type, r.cause])).to.deep.include.members([
      ['gone@example.com', 'suppression', 'bounce'],
      ['blocked.example.com', 'domain', null],
    ]);
  });

  it('imports a CSV (line-numbered errors, duplicates) and its export imports back into another account unchanged', async () => {
    const a = await createAccount(t.db.sequelize);
    await add(a.apiKey, { value: 'already@example.com' });
    const csv = [
      /* 1 */ 'Name,Email Address,Reason',
      /* 2 */ 'Ada,Ada@Example.com,"asked, twice"',
      /* 3 */ 'Nobody,not an address,',
      /* 4 */ '',
      /* 5 */ 'Dup,ada@example.com,',
      /* 6 */ 'Old,already@example.com,',
      /* 7 */ 'Dom,*.rival.example,=HYPERLINK("x")',
      /* 8 */ 'Suffix,co.uk,',
      /* 9 */ 'Broken,"unclosed@example.com,',
    ].join('\n');
    const res = await upload(a.apiKey, csv);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({
      total: 7,
      added: 2,
      duplicates: 2,
      invalid: 3,
      errors: [
        { line: 3, error: '"not an address" is neither an email address nor a domain' },
        { line: 8, error: '"co.uk" is a public suffix shared by many owners, not one domain; block an address or a domain of one owner' },
        { line: 9, error: 'a quoted field is not closed' },
      ],
    });
    const imported = (await list(a.apiKey, '?source=import')).body.items;
    expect(imported.map((i) => [i.value, i.reason]).sort()).to.deep.equal([
      ['ada@example.com', 'asked, twice'],
      ['rival.example', '=HYPERLINK("x")'],
    ]);

    const exported = await fetch(url('/v1/blocklist/export'), { headers: surfaceB(a.apiKey) });
    expect(exported.status).to.equal(200);
    expect(exported.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(exported.headers.get('content-disposition')).to.equal(`attachment; filename="blocklist-${a.accountId}.csv"`);
    const file = await exported.text();
    const lines = file.trim().split('\n');
    expect(lines[0]).to.equal('value,type,reason,source,cause,createdAt');
    expect(lines).to.have.length(4);
    // A formula-looking note is defused for spreadsheets.
    expect(file).to.include(`rival.example,domain,"'=HYPERLINK(""x"")",import,`);

    const b = await createAccount(t.db.sequelize);
    const back = await upload(b.apiKey, file);
    expect(back.status, back.text).to.equal(200);
    expect(back.body).to.deep.equal({ total: 3, added: 3, duplicates: 0, invalid: 0, errors: [] });
    expect(await stored(b.accountId)).to.deep.equal(await stored(a.accountId));
    const reasons = (await list(b.apiKey)).body.items.map((i) => [i.value, i.reason]).sort();
    expect(reasons).to.deep.equal([
      ['ada@example.com', 'asked, twice'],
      ['already@example.com', null],
      ['rival.example', "'=HYPERLINK(\"x\")"],
    ]);
  });

  it('reads a plain list without a header, and refuses an empty file or another content type', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const res = await upload(apiKey, 'first@example.com\r\nexample.org\r\n@example.net\r\n');
    expect(res.body).to.deep.equal({ total: 3, added: 3, duplicates: 0, invalid: 0, errors: [] });
    expect(await stored(accountId)).to.deep.equal(['address:first@example.com', 'domain:example.net', 'domain:example.org']);
    const empty = await upload(apiKey, '');
    expect(empty.status).to.equal(400);
    expect(empty.body.error).to.match(/^The CSV is empty/);
    const json = await upload(apiKey, '["a@example.com"]', 'application/json');
    expect(json.status).to.equal(415);
    expect(json.body.error).to.equal('Content-Type must be text/csv');
  });

  it('refuses a declared body over 50 MB before reading it (413)', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const u = new URL(url('/v1/blocklist/import'));
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'text/csv', 'content-length': 60 * 1024 * 1024 } },
        (r) => {
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString('utf8')));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('value\n');
    });
    expect(res.status).to.equal(413);
    expect(JSON.parse(res.body)).to.deep.equal({ error: 'Request body is larger than 50 MB' });
  });

  it('an upload that passes 50 MB while streaming, or breaks off, adds nothing', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const u = new URL(url('/v1/blocklist/import'));
    // 51 MB of valid rows without a declared size: several chunks are inserted before the limit is met.
    const rows = function* () {
      yield 'value\n';
      const line = (i: number) => `over${i}@example.com\n`;
      let bytes = 6;
      for (let i = 0; bytes < 51 * 1024 * 1024; i += 1000) {
        const chunk = Array.from({ length: 1000 }, (_, j) => line(i + j)).join('');
        bytes += chunk.length;
        yield chunk;
      }
    };
    const big = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let answered = false;
      const req = http.request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' } },
        (r) => {
          answered = true;
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString('utf8')));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', (err) => (answered ? undefined : reject(err)));
      const source = Readable.from(rows());
      source.on('data', (c: string) => {
        if (answered) return source.destroy();
        if (!req.write(c)) {
          source.pause();
          req.once('drain', () => source.resume());
        }
      });
      source.on('end', () => req.end());
    });
    expect(big.status).to.equal(413);
    expect(JSON.parse(big.body)).to.deep.equal({ error: 'Request body is larger than 50 MB' });
    expect(await storedCount(accountId)).to.equal(0);

    // A client that goes away mid-upload: nothing it sent is kept.
    await new Promise<void>((resolve) => {
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' } });
      req.on('error', () => resolve());
      req.write(`value\n${Array.from({ length: 20_000 }, (_, i) => `cut${i}@example.com`).join('\n')}\n`);
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await storedCount(accountId)).to.equal(0);

    // A source that fails after several chunks were inserted: the import's one transaction is rolled back.
    const failing = Readable.from(
      (function* () {
        yield 'value\n';
        for (let i = 0; i < 20; i++) yield Array.from({ length: 1000 }, (_, j) => `late${i * 1000 + j}@example.com\n`).join('');
        throw new Error('connection reset');
      })(),
    );
    let caught: unknown;
    await importBlocklistCsv(t.db.sequelize, accountId, failing, { chunkSize: 1000 }).catch((err: unknown) => (caught = err));
    expect((caught as Error).message).to.equal('connection reset');
    expect(await storedCount(accountId)).to.equal(0);
    expect((await list(apiKey)).status).to.equal(200);
  });

  // 200,000 rows in the suite (about 15 s on 2 idle cores); BLOCKLIST_IMPORT_ROWS=1000000 runs the million by hand.
  const ROWS = Number(process.env.BLOCKLIST_IMPORT_ROWS ?? 200_000);
  it(`imports a CSV of ${ROWS.toLocaleString('en')} rows, streamed, in bounded memory`, async function () {
    this.timeout(300_000);
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const BAD = ROWS / 100_000;
    // Every 100,000th row is invalid and the 50,000th of each 100,000 repeats the row before it.
    const rows = function* () {
      yield 'email\n';
      for (let i = 0; i < ROWS; i += 5000) {
        let chunk = '';
        for (let j = i; j < i + 5000; j++) {
          if (j % 100_000 === 99_999) chunk += 'not valid\n';
          else if (j % 50_000 === 49_999) chunk += `m${j - 1}@d${(j - 1) % 997}.example.com\n`;
          else chunk += `m${j}@d${j % 997}.example.com\n`;
        }
        yield chunk;
      }
    };
    const u = new URL(url('/v1/blocklist/import'));
    let peakHeap = 0;
    const baseHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 100);
    const started = Date.now();
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' } },
        (r) => {
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString('utf8')));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      Readable.from(rows()).pipe(req);
    }).finally(() => clearInterval(sampler));
    const seconds = (Date.now() - started) / 1000;
    expect(res.status, res.body).to.equal(200);
    expect(JSON.parse(res.body)).to.deep.equal({
      total: ROWS,
      added: ROWS - 2 * BAD,
      duplicates: BAD,
      invalid: BAD,
      errors: Array.from({ length: BAD }, (_, k) => ({ line: 2 + 99_999 + k * 100_000, error: '"not valid" is neither an email address nor a domain' })),
    });
    expect(await storedCount(accountId)).to.equal(ROWS - 2 * BAD);
    // The whole file as strings and objects would be hundreds of MB; streamed, the heap grows by a chunk or so.
    const grewMb = (peakHeap - baseHeap) / (1024 * 1024);
    console.log(`      ${ROWS}-row import: ${seconds.toFixed(1)} s, heap grew by at most ${grewMb.toFixed(0)} MB`);
    expect(grewMb).to.be.below(150);
    expect((await list(apiKey, `?q=m${ROWS - 2}@`)).body.items.map((i) => [i.value, i.source])).to.deep.equal([[`m${ROWS - 2}@d${(ROWS - 2) % 997}.example.com`, 'import']]);
  });
});
