import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Campaign } from '../../src/db/models';
import { createAccount, request, surfaceA, useTestApi } from '../support/api';
import { seedBulkFacts, seedCampaign, seedEmail, seedFact, seedLead, seedReply } from '../support/campaign-seed';

const HEADER = [
  'occurred_at',
  'event',
  'email_id',
  'lead_email',
  'lead_name',
  'company',
  'step',
  'subject',
  'message_id',
  'url',
  'reply_sentiment',
  'reply_category',
  'reply_preview',
  'bounce_reason',
  'variant',
  'lead_custom_fields',
];

type Row = Record<string, string | number | null | Record<string, string>>;

/** Connections Sequelize's pool has handed out and not taken back. */
function connectionsInUse(sequelize: Sequelize): number {
  return (sequelize as unknown as { connectionManager: { pool: { using: number } } }).connectionManager.pool.using;
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('GET /campaigns/:id/export (streamed CSV and JSON)', () => {
  const t = useTestApi();
  let key: string;
  let accountId: string;
  let otherKey: string;
  let c: Campaign;
  let emailId: string;

  const TRICKY = 'Sure, "Tuesday"\nworks, at 3pm; or\r\nWednesday?';
  const ADA_CUSTOM = { plan: 'Pro', note: '=1+1, "quoted"' };

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Owner'));
    otherKey = (await createAccount(t.db.sequelize, 'free', 'Other')).apiKey;
    c = await seedCampaign(accountId, { name: 'Q4 Outreach: Ünïcode & "Quotes"!' });
    const ada = await seedLead(accountId, { email: 'ada@engines.example', firstName: 'Ada', lastName: 'Lovelace', company: 'Engines, Ltd.' });
    const email = await seedEmail(c, ada, { subject: 'Your engines, "analysed"' });
    emailId = email.id;
    // The first email was variant B of its step; Ada's import gave her custom fields (one a formula).
    await t.db.sequelize.query(`UPDATE emails SET variant = 'B' WHERE id = $1`, { bind: [email.id] });
    await t.db.sequelize.query(`UPDATE leads SET custom_fields = $1::jsonb WHERE id = $2`, { bind: [JSON.stringify(ADA_CUSTOM), ada.id] });
    const at = (s: string) => new Date(`2026-04-01T10:00:${s}Z`);
    await seedFact(email, 'sent', { at: at('00.000') });
    await seedFact(email, 'delivered', { at: at('00.000') });
    await seedFact(email, 'opened', { at: at('05.250') });
    await seedFact(email, 'clicked', { at: at('06.000'), data: { url: 'https://engines.example/pricing?a=1,b=2' } });
    await seedReply(email, ada, { receivedAt: at('30.000'), preview: TRICKY, sentiment: 'positive', category: 'interested' });
    await seedFact(email, 'meeting_booked', { at: at('40.000') });
    // Step 2 goes to someone else and bounces; the stranger's name would be a formula in a spreadsheet.
    const mallory = await seedLead(accountId, { email: 'mallory@evil.example', firstName: '=HYPERLINK("http://evil.example")', lastName: null, company: null });
    const bounced = await seedEmail(c, mallory, { step: 1, subject: 'Following up' });
    await seedFact(bounced, 'sent', { at: at('50.000') });
    await seedFact(bounced, 'bounced', { at: at('51.000'), data: { diagnostic: '550 5.1.1 user unknown', source: 'dsn' } });
    await seedFact(bounced, 'complained', { at: at('52.000') });
    await seedFact(bounced, 'unsubscribed', { at: at('53.000') });
  });

  const exportOf = (id: string, query = '', k = key) => request(`${t.api.baseUrl}/campaigns/${id}/export${query}`, { headers: surfaceA(k) });

  const expected: Row[] = [
    { occurred_at: '2026-04-01T10:00:00.000Z', event: 'sent', url: null, reply_sentiment: null, reply_preview: null, bounce_reason: null },
    { occurred_at: '2026-04-01T10:00:00.000Z', event: 'delivered' },
    { occurred_at: '2026-04-01T10:00:05.250Z', event: 'opened' },
    { occurred_at: '2026-04-01T10:00:06.000Z', event: 'clicked', url: 'https://engines.example/pricing?a=1,b=2' },
    { occurred_at: '2026-04-01T10:00:30.000Z', event: 'replied', reply_sentiment: 'positive', reply_category: 'interested', reply_preview: TRICKY },
    { occurred_at: '2026-04-01T10:00:40.000Z', event: 'meeting_booked' },
    { occurred_at: '2026-04-01T10:00:50.000Z', event: 'sent', lead_email: 'mallory@evil.example', step: 2 },
    { occurred_at: '2026-04-01T10:00:51.000Z', event: 'bounced', bounce_reason: '550 5.1.1 user unknown' },
    { occurred_at: '2026-04-01T10:00:52.000Z', event: 'complained' },
    { occurred_at: '2026-04-01T10:00:53.000Z', event: 'unsubscribed' },
  ];

  it('sends a CSV attachment named after the campaign: a header, then one row per fact, oldest first', async () => {
    const res = await exportOf(c.id);
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="q4-outreach-unicode-quotes-${c.id}.csv"`);
    const [header, ...lines] = parseCsv(res.text, { relax_column_count: false }) as string[][];
    expect(header).to.deep.equal(HEADER);
    const rows = lines.map((l) => Object.fromEntries(HEADER.map((h, i) => [h, l[i]])));
    expect(rows).to.have.length(expected.length);
    expected.forEach((e, i) => {
      for (const [k, v] of Object.entries(e)) expect(rows[i]![k], `row ${i} ${k}`).to.equal(v === null ? '' : String(v));
    });
    // Commas, quotes and both kinds of line break survive the round trip.
    expect(rows[0]).to.include({ email_id: emailId, lead_email: 'ada@engines.example', lead_name: 'Ada Lovelace', company: 'Engines, Ltd.', step: '1' });
    expect(rows[0]).to.include({ subject: 'Your engines, "analysed"', message_id: `${emailId}@sender.example` });
    expect(rows[4]!.reply_preview).to.equal(TRICKY);
    // A cell a spreadsheet would evaluate is defused with a leading apostrophe.
    expect(rows[6]!.lead_name).to.equal('\'=HYPERLINK("http://evil.example")');
    // The email's variant, and the lead's custom fields as one cell of JSON text ({} for a lead without).
    expect(rows[0]!.variant).to.equal('B');
    expect(JSON.parse(rows[0]!.lead_custom_fields as string)).to.deep.equal(ADA_CUSTOM);
    expect(rows[6]).to.include({ variant: '', lead_custom_fields: '{}' });
  });

  it('sends the same rows as a JSON array with the same keys; nulls where a column does not apply', async () => {
    const res = await exportOf(c.id, '?format=json');
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="q4-outreach-unicode-quotes-${c.id}.json"`);
    const rows = res.body as unknown as Row[];
    expect(rows).to.have.length(expected.length);
    for (const r of rows) expect(Object.keys(r)).to.deep.equal(HEADER);
    expected.forEach((e, i) => expect(rows[i], `row ${i}`).to.include(e));
    expect(rows[0]).to.include({ email_id: emailId, lead_name: 'Ada Lovelace', step: 1, company: 'Engines, Ltd.' });
    // JSON needs no formula guard: values are as stored.
    expect(rows[6]).to.include({ lead_name: '=HYPERLINK("http://evil.example")', company: null, step: 2 });
    // The lead's custom fields are an object; an email from before variants has none.
    expect(rows[0]).to.include({ variant: 'B' });
    expect(rows[0]!.lead_custom_fields).to.deep.equal(ADA_CUSTOM);
    expect(rows[6]).to.deep.include({ variant: null, lead_custom_fields: {} });
  });

  it('writes a header-only CSV and an empty JSON array for a campaign without facts', async () => {
    const empty = await seedCampaign(accountId, { name: '' });
    const csv = await exportOf(empty.id, '?format=csv');
    expect(csv.status).to.equal(200);
    expect(csv.text).to.equal(`${HEADER.join(',')}\n`);
    expect(csv.headers.get('content-disposition')).to.equal(`attachment; filename="campaign-${empty.id}.csv"`);
    const json = await exportOf(empty.id, '?format=json');
    expect(json.status).to.equal(200);
    expect(JSON.parse(json.text)).to.deep.equal([]);
  });

  it('refuses an unknown format and another account\'s campaign', async () => {
    const xml = await exportOf(c.id, '?format=xml');
    expect(xml.status).to.equal(400);
    expect(xml.body).to.deep.equal({ error: 'query.format must be one of "csv", "json"' });
    const theirs = await exportOf(c.id, '', otherKey);
    expect(theirs.status).to.equal(404);
    expect(theirs.body).to.deep.equal({ error: 'Campaign not found' });
  });

  it('answers a HEAD request with the attachment\'s headers and holds no connection afterwards', async () => {
    const res = await fetch(`${t.api.baseUrl}/campaigns/${c.id}/export?format=json`, { method: 'HEAD', headers: surfaceA(key) });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-disposition')).to.match(/\.json"$/);
    expect(await res.text()).to.equal('');
    await until('the pool is idle', () => connectionsInUse(t.db.sequelize) === 0);
  });

  describe('a large campaign', () => {
    let big: Campaign;

    before(async () => {
      big = await seedCampaign(accountId, { name: 'Big one' });
      await seedBulkFacts(t.db.sequelize, big, 5_000, new Date('2026-01-01T00:00:00Z'));
    });

    it('streams 20,000 facts in order, as CSV and as JSON', async () => {
      const csv = await exportOf(big.id);
      expect(csv.status).to.equal(200);
      const [header, ...lines] = parseCsv(csv.text) as string[][];
      expect(header).to.deep.equal(HEADER);
      expect(lines).to.have.length(20_000);
      expect(csv.text.length).to.be.above(8_000_000);
      expect(lines[0]!.slice(0, 2)).to.deep.equal(['2026-01-01T00:00:01.000Z', 'sent']);
      expect(lines[3]!.slice(0, 2)).to.deep.equal(['2026-01-01T00:00:01.003Z', 'clicked']);
      expect(lines.at(-1)!.slice(0, 2)).to.deep.equal(['2026-01-01T01:23:20.003Z', 'clicked']);
      const times = lines.map((l) => l[0]!);
      expect(times.every((x, i) => i === 0 || times[i - 1]! <= x)).to.equal(true);

      const json = await exportOf(big.id, '?format=json');
      expect(json.status).to.equal(200);
      expect(JSON.parse(json.text)).to.have.length(20_000);
    });

    it('gives its database connection back when the client disconnects mid-download', async () => {
      // The export is about 8 MB of CSV, far more than the socket buffers between client and
      // server hold, so the server is still mid-query when the client goes away.
      const sequelize = t.db.sequelize;
      await until('the pool is idle', () => connectionsInUse(sequelize) === 0);
      const abort = new AbortController();
      const res = await fetch(`${t.api.baseUrl}/campaigns/${big.id}/export`, { headers: surfaceA(key), signal: abort.signal });
      expect(res.status).to.equal(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value).split('\n')[0]).to.equal(HEADER.join(','));
      // The rest is not read: the server is held back by the socket, its cursor open mid-query.
      await new Promise((r) => setTimeout(r, 200));
      expect(connectionsInUse(sequelize), 'the export holds a connection while the download is under way').to.equal(1);
      abort.abort();
      await until('the export\'s connection is back in the pool', () => connectionsInUse(sequelize) === 0);
      // No query of the export is left on the server, and the pool's connections still work.
      const running = await sequelize.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%ev.occurred_at%' AND state <> 'idle'`,
        { type: QueryTypes.SELECT },
      );
      expect(running[0]!.n).to.equal(0);
      const again = await exportOf(c.id, '?format=json');
      expect((again.body as unknown as Row[]).length).to.equal(expected.length);
    });
  });
});
