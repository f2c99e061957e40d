import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { createAccount, request, surfaceA, surfaceB, type JsonResponse } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';

/**
 * A campaign's audience on create and GET, on both surfaces: text, filters, both or neither; the
 * count of matching reachable leads and why none match; the 400s of a bad audience.
 */

interface AudienceA {
  text: string | null;
  filters: Record<string, unknown> | null;
  source: string;
  matched_leads: number | null;
  reason: string | null;
}
interface AudienceB {
  text: string | null;
  filters: Record<string, unknown> | null;
  source: string;
  matchedLeads: number | null;
  reason: string | null;
}

/** One pool of leads: two CTOs in Germany, one in France, two marketers in the UK, one engineer there. */
const POOL = [
  'Email,First Name,Last Name,Job Title,Company,Country,Industry',
  'anna@kraftwerk.example,Anna,Schmidt,CTO,Kraftwerk Software,Germany,Software',
  'ben@berliner.example,Ben,Weber,Chief Technology Officer,Berliner Daten,Germany,Software',
  'claire@paris.example,Claire,Martin,CTO,Paris Tech,France,Software',
  'dan@london.example,Dan,Smith,Marketing Manager,London Retail,United Kingdom,Retail',
  'emma@leeds.example,Emma,Jones,Head of Marketing,Leeds Media,UK,Media',
  'fred@london.example,Fred,Brown,Software Engineer,London Retail,United Kingdom,Retail',
].join('\n');

// A target that never resolves: the workflow keeps retrying its scrape, so nothing is planned or sent.
const TARGET = 'https://audience-target.invalid';

describe('campaign audiences on create and GET (both surfaces)', () => {
  const t = useCampaignStack();
  let key = '';

  before(async () => {
    ({ apiKey: key } = await createAccount(t.db.sequelize));
    const res = await request(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'text/csv' }, body: POOL });
    expect(res.status, res.text).to.equal(200);
  });

  const postA = <T>(body: unknown, k = key): Promise<JsonResponse<T & { error?: string }>> =>
    request(`${t.api.baseUrl}/campaigns`, { method: 'POST', headers: { ...surfaceA(k), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const postB = <T>(body: unknown, k = key): Promise<JsonResponse<T & { error?: string }>> =>
    request(`${t.api.baseUrl}/v1/campaigns`, { method: 'POST', headers: { ...surfaceB(k), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const getA = (id: string) => request<{ audience: AudienceA }>(`${t.api.baseUrl}/campaigns/${id}`, { headers: surfaceA(key) });
  const getB = (id: string) => request<{ audience: AudienceB }>(`${t.api.baseUrl}/v1/campaigns/${id}`, { headers: surfaceB(key) });

  async function createA(body: Record<string, unknown>): Promise<{ id: string; audience: AudienceA }> {
    const res = await postA<{ id: string; audience: AudienceA }>({ mcp: 'sales_outreach', target_url: TARGET, ...body });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }
  async function createB(body: Record<string, unknown>): Promise<{ id: string; audience: AudienceB }> {
    const res = await postB<{ id: string; audience: AudienceB }>({ name: 'Audience', brandUrl: TARGET, ...body });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  it('filters only (A, snake_case): source explicit, counted at create, the same on GET of both surfaces', async () => {
    const c = await createA({ audience: { titles: ['CTO'], locations: ['Germany'], company_sizes: [{ min: 1 }], exclude: { emails: ['nobody@kraftwerk.example'] } } });
    const filters = { titles: ['CTO'], locations: ['Germany'], company_sizes: [{ min: 1 }], exclude: { emails: ['nobody@kraftwerk.example'] } };
    // The imported leads have no company size: a size filter leaves them out.
    expect(c.audience).to.deep.equal({ text: null, filters, source: 'explicit', matched_leads: 0, reason: 'No lead of the account matches: titles CTO; locations Germany; company sizes 1+' });
    const plain = await createA({ audience: { titles: ['CTO'], locations: ['Germany'] } });
    expect(plain.audience).to.deep.equal({ text: null, filters: { titles: ['CTO'], locations: ['Germany'] }, source: 'explicit', matched_leads: 2, reason: null });
    expect((await getA(plain.id)).body.audience).to.deep.equal(plain.audience);
    expect((await getB(plain.id)).body.audience).to.deep.equal({ text: null, filters: { titles: ['CTO'], locations: ['Germany'] }, source: 'explicit', matchedLeads: 2, reason: null });
    const [row] = await t.db.sequelize.query<{ audience_filters: unknown; audience_source: string }>('SELECT audience_filters, audience_source FROM campaigns WHERE id = $1', {
      bind: [c.id],
      type: QueryTypes.SELECT,
    });
    // Stored once, in camelCase, whatever the surface.
    expect(row).to.deep.equal({ audience_filters: { titles: ['CTO'], locations: ['Germany'], companySizes: [{ min: 1 }], exclude: { emails: ['nobody@kraftwerk.example'] } }, audience_source: 'explicit' });
  });

  it('text only: the built-in parser makes the filters (source parser)', async () => {
    const a = await createA({ target_audience: 'Marketing people in the UK' });
    expect(a.audience).to.include({ text: 'Marketing people in the UK', source: 'parser', matched_leads: 2, reason: null });
    expect(a.audience.filters).to.not.equal(null);
    const b = await createB({ targetAudience: 'CTOs in Germany' });
    expect(b.audience).to.include({ text: 'CTOs in Germany', source: 'parser', matchedLeads: 2, reason: null });
  });

  it('text and filters: the filters win and the text is kept', async () => {
    const a = await createA({ target_audience: 'CTOs in Germany', audience: { departments: ['marketing'] } });
    expect(a.audience).to.deep.equal({ text: 'CTOs in Germany', filters: { departments: ['marketing'] }, source: 'explicit', matched_leads: 2, reason: null });
    const b = await createB({ targetAudience: 'Marketing in the UK', audience: { titles: ['CTO'], companySizes: [{ max: 10 }] } });
    expect(b.audience).to.deep.include({ text: 'Marketing in the UK', filters: { titles: ['CTO'], companySizes: [{ max: 10 }] }, source: 'explicit', matchedLeads: 0 });
    expect((await getA(b.id)).body.audience.filters).to.deep.equal({ titles: ['CTO'], company_sizes: [{ max: 10 }] });
  });

  it('neither: every reachable lead of the account (source all_leads)', async () => {
    const a = await createA({});
    expect(a.audience).to.deep.equal({ text: null, filters: null, source: 'all_leads', matched_leads: 6, reason: null });
    const b = await createB({ targetAudience: '   ' });
    expect(b.audience).to.deep.equal({ text: null, filters: null, source: 'all_leads', matchedLeads: 6, reason: null });
    const empty = await createAccount(t.db.sequelize);
    const none = await postA<{ audience: AudienceA }>({ mcp: 'sales_outreach', target_url: TARGET }, empty.apiKey);
    expect(none.body.audience).to.deep.include({ source: 'all_leads', matched_leads: 0, reason: 'The account has no reachable lead.' });
  });

  it('an audience matching nobody: 0 and a reason naming what it asked for, on create and GET', async () => {
    const a = await createA({ target_audience: 'Nurses at hospitals in Japan' });
    expect(a.audience.matched_leads).to.equal(0);
    expect(a.audience.reason).to.equal('No lead of the account matches: titles nurses; locations japan; industries hospitals');
    const b = await createB({ audience: { titles: ['CTO'], locations: ['Japan'] } });
    expect(b.audience).to.deep.include({ matchedLeads: 0, reason: 'No lead of the account matches: titles CTO; locations Japan' });
    expect((await getB(b.id)).body.audience).to.deep.equal(b.audience);
  });

  it('refuses a bad audience with a 400 naming the field, and stores nothing', async () => {
    const { apiKey, accountId: other } = await createAccount(t.db.sequelize);
    const casesA: Array<[unknown, RegExp]> = [
      [{ titles: ['CTO'], job_titles: ['CTO'] }, /audience.*unknown field "job_titles"/],
      [{ companySizes: [{ min: 1 }] }, /audience.*unknown field "companySizes"/],
      [{ titles: [''] }, /audience\.titles/],
      [{ locations: ['   '] }, /audience\.locations/],
      [{ seniorities: ['boss'] }, /audience\.seniorities.*must be one of.*c_level/],
      [{ titles: Array.from({ length: 51 }, (_, i) => `t${i}`) }, /audience\.titles/],
      [{ keywords: ['k'.repeat(201)] }, /audience\.keywords/],
      [{ company_sizes: [{}] }, /audience\.company_sizes/],
      [{ company_sizes: [{ min: 200, max: 50 }] }, /audience\.company_sizes\[0\]: min must not exceed max/],
      [{ exclude: { people: ['x'] } }, /audience\.exclude.*unknown field "people"/],
    ];
    for (const [audience, message] of casesA) {
      const res = await postA({ mcp: 'sales_outreach', target_url: TARGET, audience }, apiKey);
      expect(res.status, JSON.stringify(audience)).to.equal(400);
      expect(res.body.error, JSON.stringify(audience)).to.match(message);
    }
    const long = await postA({ mcp: 'sales_outreach', target_url: TARGET, target_audience: 'a'.repeat(2001) }, apiKey);
    expect(long.status).to.equal(400);
    expect(long.body.error).to.match(/target_audience/);

    const casesB: Array<[unknown, RegExp]> = [
      [{ company_sizes: [{ min: 1 }] }, /audience.*unknown field "company_sizes"/],
      [{ departments: [''] }, /audience\.departments/],
      [{ seniorities: ['VP'] }, /audience\.seniorities/],
      [{ companySizes: [{ min: 9, max: 1 }] }, /audience\.companySizes\[0\]: min must not exceed max/],
    ];
    for (const [audience, message] of casesB) {
      const res = await postB({ name: 'X', brandUrl: TARGET, audience }, apiKey);
      expect(res.status, JSON.stringify(audience)).to.equal(400);
      expect(res.body.error, JSON.stringify(audience)).to.match(message);
    }
    const longB = await postB({ name: 'X', brandUrl: TARGET, targetAudience: 'a'.repeat(2001) }, apiKey);
    expect(longB.status).to.equal(400);
    expect(longB.body.error).to.match(/targetAudience/);

    const [row] = await t.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1', { bind: [other], type: QueryTypes.SELECT });
    expect(row!.n).to.equal(0);
  });

  it('a level range: Surface A takes seniority_min and seniority_max and shows them back, B seniorityMin and seniorityMax', async () => {
    const a = await createA({ audience: { departments: ['finance'], seniority_min: 'director', seniority_max: 'vp' } });
    expect(a.audience.filters).to.deep.equal({ departments: ['finance'], seniority_min: 'director', seniority_max: 'vp' });
    expect((await getA(a.id)).body.audience.filters).to.deep.equal({ departments: ['finance'], seniority_min: 'director', seniority_max: 'vp' });
    expect((await getB(a.id)).body.audience.filters).to.deep.equal({ departments: ['finance'], seniorityMin: 'director', seniorityMax: 'vp' });
    const b = await createB({ audience: { seniorityMin: 'vp' } });
    expect(b.audience.filters).to.deep.equal({ seniorityMin: 'vp' });

    const cases: Array<[(body: unknown) => Promise<JsonResponse<{ error?: string }>>, Record<string, unknown>, RegExp]> = [
      [postA, { seniority_min: 'vp', seniority_max: 'manager' }, /audience\.seniority_min \(vp\) must not be above audience\.seniority_max \(manager\)/],
      [postA, { seniority_min: 'boss' }, /audience\.seniority_min/],
      [postA, { seniorityMin: 'vp' }, /unknown field "seniorityMin"/],
      [postB, { seniority_min: 'vp' }, /unknown field "seniority_min"/],
      [postB, { seniorityMin: 'director', seniorityMax: 'senior' }, /audience\.seniorityMin \(director\) must not be above audience\.seniorityMax \(senior\)/],
    ];
    for (const [post, audience, message] of cases) {
      const res = post === postA ? await postA({ mcp: 'sales_outreach', target_url: TARGET, audience }) : await postB({ name: 'X', brandUrl: TARGET, audience });
      expect(res.status, JSON.stringify(audience)).to.equal(400);
      expect(res.body.error, JSON.stringify(audience)).to.match(message);
    }
  });

  it("POST /v1/audiences/preview explains a lead against a campaign's stored audience, on the campaign's own words", async () => {
    const c = await createB({ targetAudience: 'IT leaders in Germany' });
    const list = await request<{ leads: Array<{ id: string; email: string; title: string | null }> }>(`${t.api.baseUrl}/v1/leads?perPage=100`, { headers: surfaceB(key) });
    const lead = list.body.leads.find((l) => l.title !== null)!;
    const res = await request<{ source: string; filters: unknown; explanation: { checks: Array<{ filter: string; wanted: string }> } }>(`${t.api.baseUrl}/v1/audiences/preview`, {
      method: 'POST',
      headers: { ...surfaceB(key), 'content-type': 'application/json' },
      body: JSON.stringify({ campaignId: c.id, leadId: lead.id }),
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({ source: 'parser', filters: { departments: ['it'], seniorityMin: 'director', locations: ['germany'] } });
    expect(res.body.explanation.checks[0]).to.include({ filter: 'role', wanted: 'it leaders' });
  });
});
