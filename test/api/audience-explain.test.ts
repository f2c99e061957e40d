import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { AudiencePreviewResponse } from '../../src/api/resources/audiences/schemas';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { createAccount, request, surfaceB, useTestApi, type JsonResponse } from '../support/api';

interface Check {
  filter: string;
  wanted: string;
  met: boolean;
  lead: string;
  text: string;
}
interface Explanation {
  leadId: string;
  inAudience: boolean;
  matchesFilters: boolean;
  unreachable: string | null;
  checks: Check[];
  summary: string;
}
interface Preview {
  filters: Record<string, unknown> | null;
  source: string;
  matchedLeads: number;
  leads: Array<{ id: string; email: string }>;
  explanation: Explanation | null;
  error?: string;
}

/** Finance people in several languages and places, and others beside them. */
const POOL = [
  'Email,First Name,Job Title,Company,City,State,Country,Industry,Company Size',
  'lena@shop.example,Lena,Leiterin Finanzen,Shop GmbH,München,,,Internet Retail,51-200',
  'marc@vente.example,Marc,Directeur financier,Vente SA,Lyon,,France,Mail Order & Catalog,201-500',
  'sam@tex.example,Sam,"Manager, Finance",Tex Inc,Austin,TX,US,Retail,11-50',
  'ola@bank.example,Ola,Finance Director,Nordbank,Oslo,,Norway,Banking,1001-5000',
  'kim@clinic.example,Kim,Head of Sales,Clinic Co,Toronto,ON,Canada,Hospital & Health Care,51-200',
  'cto@shop.example,Cat,CTO / Co-Founder,Shop GmbH,Berlin,,Germany,Internet Retail,11-50',
  'gone@shop.example,Gone,Head of Finance,Shop GmbH,Hamburg,,Germany,Internet Retail,51-200',
].join('\n');

describe('why a lead is in or out of an audience (POST /v1/audiences/preview with leadId)', () => {
  const t = useTestApi();
  let key = '';
  let otherKey = '';
  const ids = new Map<string, string>();
  const validResponse = (() => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    return ajv.compile(AudiencePreviewResponse);
  })();

  before(async () => {
    let accountId = '';
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize));
    ({ apiKey: otherKey } = await createAccount(t.db.sequelize));
    const res = await request(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'text/csv' }, body: POOL });
    expect(res.status, res.text).to.equal(200);
    const list = await request<{ leads: Array<{ id: string; email: string }> }>(`${t.api.baseUrl}/v1/leads?perPage=100`, { headers: surfaceB(key) });
    for (const l of list.body.leads) ids.set(l.email.split('@')[0]!, l.id);
    await suppressAddress(t.db.sequelize, null, accountId, 'gone@shop.example', 'unsubscribe');
  });

  const preview = (body: unknown, k = key): Promise<JsonResponse<Preview>> =>
    request<Preview>(`${t.api.baseUrl}/v1/audiences/preview`, { method: 'POST', headers: { ...surfaceB(k), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  async function ok(body: unknown): Promise<Preview> {
    const res = await preview(body);
    expect(res.status, res.text).to.equal(200);
    expect(validResponse(res.body), JSON.stringify(validResponse.errors)).to.equal(true);
    return res.body;
  }
  const explain = async (text: string, who: string): Promise<Explanation> => (await ok({ text, leadId: ids.get(who) })).explanation!;

  it('says with which field a lead meets a role family read from text', async () => {
    const e = await explain('finance leaders', 'lena');
    expect(e).to.include({ inAudience: true, matchesFilters: true, unreachable: null, summary: 'in: meets every filter' });
    expect(e.checks).to.have.length(2);
    expect(e.checks[0]).to.deep.equal({
      filter: 'role',
      wanted: 'finance leaders',
      met: true,
      lead: "title 'Leiterin Finanzen' -> finance, head",
      text: "title 'Leiterin Finanzen' -> finance, head: meets 'finance leaders'",
    });
    expect(e.checks[1]).to.include({ filter: 'exclude', met: true, text: 'no exclusion applies' });
  });

  it('says which filter a lead misses, and how its fields were read', async () => {
    const manager = await explain('finance leaders', 'sam');
    expect(manager).to.include({ inAudience: false, summary: "out: title 'Manager, Finance' -> finance, manager: does not meet 'finance leaders'" });

    const e = await explain('finance leaders at e-commerce companies in Munich', 'marc');
    expect(e.inAudience).to.equal(false);
    const byFilter = new Map(e.checks.map((c) => [c.filter, c]));
    expect(byFilter.get('role')).to.include({ met: true, lead: "title 'Directeur financier' -> finance, director" });
    expect(byFilter.get('place')).to.include({ met: false, wanted: 'munich', lead: "country 'France' -> FR; city 'Lyon' -> lyon" });
    expect(byFilter.get('industry')).to.include({ met: true, lead: "industry 'Mail Order & Catalog' -> mail_order_retail", text: "industry 'Mail Order & Catalog' -> mail_order_retail: meets 'e commerce'" });

    const lena = await explain('finance leaders at e-commerce companies in Munich', 'lena');
    expect(lena.inAudience).to.equal(true);
    expect(lena.checks.find((c) => c.filter === 'place')).to.include({ lead: "city 'München' -> munich, DE, DE-BY", met: true });
  });

  it('reads states, and a lead that can no longer be written to is out whatever its fields', async () => {
    const sam = await explain('finance managers in Texas', 'sam');
    expect(sam.inAudience).to.equal(true);
    expect(sam.checks.find((c) => c.filter === 'place')!.text).to.equal("country 'US' -> US; state 'TX' -> US-TX; city 'Austin' -> austin: meets 'texas'");

    const gone = await explain('finance leaders', 'gone');
    expect(gone).to.include({ matchesFilters: true, inAudience: false, unreachable: 'unsubscribed', summary: 'out: the lead cannot be written to (unsubscribed)' });
  });

  it('explains explicit filters by their members and values, two roles of one title, and exclusions', async () => {
    const e = (await ok({ filters: { titles: ['founders'], exclude: { companies: ['Shop GmbH'] } }, leadId: ids.get('cto') })).explanation!;
    expect(e.checks[0]).to.include({ filter: 'title', met: true, wanted: 'titles founders' });
    expect(e.checks[0]!.lead).to.match(/^title 'CTO \/ Co-Founder' -> .*cto.*founder|^title 'CTO \/ Co-Founder' -> .*founder.*cto/);
    expect(e.checks[1]).to.include({ filter: 'exclude', met: false, text: 'left out by the excluded companies' });
    expect(e.summary).to.equal('out: left out by the excluded companies');

    const range = (await ok({ filters: { seniorityMin: 'director', seniorityMax: 'head', departments: ['finance'] }, leadId: ids.get('ola') })).explanation!;
    expect(range.checks.map((c) => [c.filter, c.met])).to.deep.equal([
      ['seniority', true],
      ['department', true],
      ['exclude', true],
    ]);
    expect(range.checks[0]!.text).to.equal("title 'Finance Director' -> director: meets 'seniority head, director'");
  });

  it('answers 404 for a lead or campaign of another account, or none', async () => {
    const theirs = await preview({ text: 'finance leaders', leadId: ids.get('lena') }, otherKey);
    expect(theirs.status).to.equal(404);
    expect(theirs.body.error).to.equal('Lead not found');
    expect((await preview({ text: 'finance leaders', leadId: 'lead_nope' })).status).to.equal(404);
    const noCampaign = await preview({ campaignId: 'cmp_nope' });
    expect(noCampaign.status).to.equal(404);
    expect(noCampaign.body.error).to.equal('Campaign not found');
  });
});
