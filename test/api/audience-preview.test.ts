import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { AudiencePreviewResponse } from '../../src/api/resources/audiences/schemas';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { createAccount, request, surfaceA, surfaceB, useTestApi, type JsonResponse } from '../support/api';

interface Preview {
  filters: Record<string, unknown>;
  source: 'parser' | 'explicit';
  unrecognised: string[];
  matchedLeads: number;
  leads: Array<{ email: string; title: string | null; name: string | null }>;
  reason: string | null;
  error?: string;
}

/** Two CTOs in Germany (one spelled out), one in France, two marketers and an engineer in the UK, a suppressed CTO. */
const POOL = [
  'Email,First Name,Last Name,Job Title,Company,Country,Industry',
  'anna@kraftwerk.example,Anna,Schmidt,CTO,Kraftwerk Software,Germany,Software',
  'ben@berliner.example,Ben,Weber,Chief Technology Officer,Berliner Daten,Germany,Software',
  'claire@paris.example,Claire,Martin,CTO,Paris Tech,France,Software',
  'dan@london.example,Dan,Smith,Marketing Manager,London Retail,United Kingdom,Retail',
  'emma@leeds.example,Emma,Jones,Head of Marketing,Leeds Media,UK,Media',
  'fred@london.example,Fred,Brown,Software Engineer,London Retail,United Kingdom,Retail',
  'gus@blocked.example,Gus,Grey,CTO,Blocked GmbH,Germany,Software',
].join('\n');

/** Another account's pool: a CTO in Germany the first account must never see. */
const OTHER_POOL = ['Email,First Name,Job Title,Country', 'otto@other.example,Otto,CTO,Germany'].join('\n');

describe('audience preview (POST /v1/audiences/preview)', () => {
  const t = useTestApi();
  let key = '';
  let otherKey = '';
  const validResponse = (() => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    return ajv.compile(AudiencePreviewResponse);
  })();

  const importPool = async (k: string, csv: string): Promise<void> => {
    const res = await request(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(k), 'content-type': 'text/csv' }, body: csv });
    expect(res.status, res.text).to.equal(200);
  };

  before(async () => {
    let accountId = '';
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize));
    ({ apiKey: otherKey } = await createAccount(t.db.sequelize));
    await importPool(key, POOL);
    await importPool(otherKey, OTHER_POOL);
    await suppressAddress(t.db.sequelize, null, accountId, 'gus@blocked.example', 'unsubscribe');
  });

  const preview = (body: unknown, k = key): Promise<JsonResponse<Preview>> =>
    request<Preview>(`${t.api.baseUrl}/v1/audiences/preview`, { method: 'POST', headers: { ...surfaceB(k), 'content-type': 'application/json' }, body: JSON.stringify(body) });

  async function ok(body: unknown, k = key): Promise<Preview> {
    const res = await preview(body, k);
    expect(res.status, res.text).to.equal(200);
    expect(validResponse(res.body), JSON.stringify(validResponse.errors)).to.equal(true);
    return res.body;
  }

  it('reads "CTO" with the parser and finds the Chief Technology Officer, not the others nor the suppressed CTO', async () => {
    const p = await ok({ text: 'CTO' });
    expect(p.source).to.equal('parser');
    expect(p.filters).to.deep.equal({ titles: ['cto'] });
    expect(p.unrecognised).to.deep.equal([]);
    expect(p.matchedLeads).to.equal(3);
    expect(p.reason).to.equal(null);
    expect(p.leads.map((l) => l.email).sort()).to.deep.equal(['anna@kraftwerk.example', 'ben@berliner.example', 'claire@paris.example']);
    expect(p.leads.find((l) => l.email === 'ben@berliner.example')).to.include({ title: 'Chief Technology Officer', name: 'Ben Weber' });

    const inGermany = await ok({ text: 'CTOs in Germany' });
    expect(inGermany.matchedLeads).to.equal(2);
    expect(inGermany.leads.map((l) => l.email).sort()).to.deep.equal(['anna@kraftwerk.example', 'ben@berliner.example']);
  });

  it('takes filters as given (source explicit), shaped as the campaign create audience', async () => {
    const p = await ok({ filters: { departments: ['marketing'], locations: ['UK'] } });
    expect(p).to.deep.include({ source: 'explicit', filters: { departments: ['marketing'], locations: ['UK'] }, matchedLeads: 2, reason: null });
    expect(p.leads.map((l) => l.email).sort()).to.deep.equal(['dan@london.example', 'emma@leeds.example']);

    const none = await ok({ filters: { titles: ['CTO'], locations: ['Japan'] } });
    expect(none).to.deep.include({ matchedLeads: 0, leads: [], reason: 'No lead of the account matches: titles CTO; locations Japan' });

    const unknown = await ok({ filters: { titles: ['Chief Llama Wrangler'] } });
    expect(unknown.matchedLeads).to.equal(0);
    expect(unknown.unrecognised).to.include('Chief Llama Wrangler');
  });

  it('names nobody for a phrase of only stop words or empty filters: 0 leads and a reason, never everyone', async () => {
    for (const body of [{ text: 'the people who are in the companies' }, { text: 'anyone' }, { filters: {} }]) {
      const p = await ok(body);
      expect(p.matchedLeads, JSON.stringify(body)).to.equal(0);
      expect(p.leads, JSON.stringify(body)).to.deep.equal([]);
      expect(p.reason, JSON.stringify(body)).to.be.a('string').and.not.equal('');
      expect(p.unrecognised, JSON.stringify(body)).to.include('(no filter names anyone)');
    }
  });

  it('never shows another account\'s leads', async () => {
    const mine = await ok({ text: 'CTOs in Germany' });
    expect(mine.leads.map((l) => l.email)).to.not.include('otto@other.example');
    const theirs = await ok({ text: 'CTOs in Germany' }, otherKey);
    expect(theirs.matchedLeads).to.equal(1);
    expect(theirs.leads.map((l) => l.email)).to.deep.equal(['otto@other.example']);
  });

  it('answers a 400 naming the problem for unusable bodies', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ text: 'a'.repeat(2001) }, /body\.text.*2000/],
      [{ text: 'CTO', filters: { titles: ['CTO'] } }, /one of body\.text, body\.filters and body\.campaignId, not several/],
      [{ text: 'CTO', campaignId: 'cmp_x' }, /not several/],
      [{}, /Give body\.text, body\.filters or body\.campaignId/],
      [{ filters: { seniorityMin: 'vp', seniorityMax: 'manager' } }, /body\.filters\.seniorityMin \(vp\) must not be above body\.filters\.seniorityMax \(manager\)/],
      [{ filters: { seniorityMin: 'boss' } }, /body\.filters\.seniorityMin/],
      [{ filters: { seniority_min: 'vp' } }, /unknown field "seniority_min"/],
      [{ text: 'CTO', leadId: '' }, /body\.leadId/],
      [{ text: 'CTO', leadId: 7 }, /body\.leadId/],
      [{ text: '' }, /body\.text/],
      [{ text: '   ' }, /body\.text must not be empty/],
      [{ filters: { titles: [''] } }, /body\.filters\.titles/],
      [{ filters: { locations: ['  '] } }, /body\.filters\.locations/],
      [{ filters: { jobTitles: ['CTO'] } }, /body\.filters has unknown field "jobTitles"/],
      [{ filters: { company_sizes: [{ min: 1 }] } }, /unknown field "company_sizes"/],
      [{ filters: { exclude: { people: ['x'] } } }, /body\.filters\.exclude has unknown field "people"/],
      [{ filters: { seniorities: ['boss'] } }, /body\.filters\.seniorities.*must be one of/],
      [{ filters: { companySizes: [{ min: 9, max: 1 }] } }, /body\.filters\.companySizes\[0\]: min must not exceed max/],
      [{ query: 'CTO' }, /body has unknown field "query"/],
      [{ text: 42 }, /body\.text/],
    ];
    for (const [body, message] of cases) {
      const res = await preview(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
      expect(res.body.error, JSON.stringify(body).slice(0, 80)).to.match(message);
    }
  });

  it('is a Surface B route: X-API-Key only, documented in /openapi.json', async () => {
    const noKey = await request(`${t.api.baseUrl}/v1/audiences/preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'CTO' }) });
    expect(noKey.status).to.equal(401);
    const bearer = await request(`${t.api.baseUrl}/v1/audiences/preview`, {
      method: 'POST',
      headers: { ...surfaceA(key), 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'CTO' }),
    });
    expect(bearer.status).to.equal(401);
    const res = await preview({ text: 'CTO' });
    expect(res.headers.get('RateLimit-Limit')).to.be.a('string');
    const op = (t.api.openapi.paths as Record<string, Record<string, { operationId: string; security: unknown; responses: Record<string, unknown> }>>)['/v1/audiences/preview']?.post;
    expect(op?.operationId).to.equal('previewAudience');
    expect(op?.security).to.deep.equal([{ apiKeyAuth: [] }]);
    expect(op?.responses).to.include.keys('200', '400', '401', '429');
  });
});
