import { expect } from 'chai';
import { createAccount, request, surfaceA, surfaceB } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { eventually } from '../support/eventually';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

const HOME = '<html><head><title>Acme Analytics</title><meta name="description" content="Dashboards for finance teams"></head><body><h1>Acme Analytics</h1></body></html>';

/**
 * One account, one pool of imported leads, three campaigns with different audiences: each emails
 * exactly its people, as the SMTP server receives them, and the audience that matches nobody
 * sends nothing (the real API, Temporal dev server, worker and activities).
 */

const DOMAIN = 'audience-pool.example';
const POOL: readonly (readonly [string, string, string, string])[] = [
  // local part, Job Title, Country, Industry
  ['anna', 'CTO', 'Germany', 'Software'],
  ['ben', 'Chief Technology Officer', 'Germany', 'Banking'],
  ['claire', 'CTO', 'France', 'Software'],
  ['dan', 'Marketing Manager', 'United Kingdom', 'Retail'],
  ['emma', 'Head of Marketing', 'UK', 'Media'],
  ['fred', 'Software Engineer', 'United Kingdom', 'Retail'],
  ['gina', 'Marketing Director', 'Germany', 'Software'],
];
const address = (local: string): string => `${local}@${DOMAIN}`;


describe('campaign audiences: three campaigns over one pool of imported leads, read from SMTP', () => {
  const t = useCampaignStack();
  let site: FakeSite;
  let key = '';

  before(async () => {
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
    ({ apiKey: key } = await createAccount(t.db.sequelize, 'pro'));
    const csv = ['Email,First Name,Last Name,Job Title,Company,Country,Industry', ...POOL.map(([l, title, country, industry]) => `${address(l)},${l},Lead,${title},${l} GmbH,${country},${industry}`)];
    const res = await request(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'text/csv' }, body: csv.join('\n') });
    expect(res.status, res.text).to.equal(200);
  });
  after(async () => {
    await site?.close();
  });

  /** Everyone the pool's leads have been sent so far, one entry per message. */
  const recipients = (): string[] =>
    t.sink.messages
      .flatMap((m) => m.to)
      .filter((a) => a.endsWith(`@${DOMAIN}`))
      .sort();

  interface Read {
    status: string;
    audience: { source: string; matched_leads: number | null; reason: string | null };
  }
  const read = async (id: string): Promise<Read> => (await request<Read>(`${t.api.baseUrl}/campaigns/${id}`, { headers: surfaceA(key) })).body;

  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await request<{ id: string }>(`${t.api.baseUrl}/campaigns`, {
      method: 'POST',
      headers: { ...surfaceA(key), 'content-type': 'application/json' },
      body: JSON.stringify({ mcp: 'sales_outreach', target_url: site.origin, schedule: { send_window: { start: '00:00', end: '24:00' } }, ...body }),
    });
    expect(res.status, res.text).to.equal(201);
    return res.body.id;
  }

  /** Waits until `expected` new messages arrived after `before`, then a while longer: nothing more may come. */
  async function sentSince(before: readonly string[], expected: number): Promise<string[]> {
    const fresh = (): string[] => {
      const now = recipients();
      for (const a of before) now.splice(now.indexOf(a), 1);
      return now;
    };
    await eventually(async () => (fresh().length >= expected ? true : undefined));
    await new Promise((r) => setTimeout(r, 2_000));
    return fresh().sort();
  }

  it('CTOs in Germany (filters), then marketing in the UK (text), then nurses in Japan (nobody): each emails exactly its people', async () => {
    const ctos = await create({ audience: { titles: ['CTO'], locations: ['Germany'] } });
    expect(await sentSince([], 2)).to.deep.equal([address('anna'), address('ben')]);
    expect((await read(ctos)).audience).to.deep.include({ source: 'explicit', matched_leads: 2, reason: null });

    let before = recipients();
    const marketing = await create({ target_audience: 'Marketing people in the UK' });
    expect(await sentSince(before, 2)).to.deep.equal([address('dan'), address('emma')]);
    expect((await read(marketing)).audience).to.deep.include({ source: 'parser', matched_leads: 2, reason: null });

    before = recipients();
    const nurses = await create({ target_audience: 'Nurses at hospitals in Japan' });
    // Its first planning has run once the workflow moved it to running: nothing was sent.
    await eventually(async () => ((await read(nurses)).status === 'running' ? true : undefined));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(recipients()).to.deep.equal(before);
    const shown = await read(nurses);
    expect(shown.audience).to.deep.include({ source: 'parser', matched_leads: 0 });
    expect(shown.audience.reason).to.match(/^No lead of the account matches: .*locations japan/);
  });
});
