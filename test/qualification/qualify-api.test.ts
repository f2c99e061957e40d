import { expect } from 'chai';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';

const VALID = { fromEmail: 'jane@globex.com', toEmail: 'sam@outreach.io', subject: 'Re: Quick question', bodyText: 'How much does it cost for a team of 40?' };

describe('POST /v1/qualify', () => {
  const t = useTestApi();
  let apiKey: string;
  before(async () => {
    ({ apiKey } = await createAccount(t.db.sequelize));
  });

  const post = (body: unknown, headers: Record<string, string> = surfaceB(apiKey)) =>
    request(`${t.api.baseUrl}/v1/qualify`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('returns the documented camelCase shape, from the built-in classifier without an LLM key', async () => {
    const res = await post(VALID);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ category: 'interested', sentiment: 'positive', confidence: res.body.confidence, nextAction: 'answer_question', qualifiedBy: 'builtin' });
    expect(res.body.confidence).to.be.a('number').within(0, 1);
  });

  const cases: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ['Please remove me from your list.', { category: 'unsubscribe', sentiment: 'negative', nextAction: 'suppress' }],
    ['I am out of the office and back on 2030-12-02.', { category: 'out_of_office', sentiment: 'neutral', nextAction: 'follow_up_after:2030-12-02' }],
    ["I'm not the right person, talk to dana@globex.com.", { category: 'neutral', sentiment: 'neutral', nextAction: 'contact_referral:dana@globex.com' }],
    ["Let's move forward, send the contract.", { category: 'closed', sentiment: 'positive', nextAction: 'hand_off_to_sales' }],
    ['Kein Interesse, danke.', { category: 'not_interested', sentiment: 'negative', nextAction: 'stop_outreach' }],
  ];
  for (const [bodyText, expected] of cases) {
    it(`qualifies ${JSON.stringify(bodyText)}`, async () => {
      const res = await post({ ...VALID, bodyText });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ ...expected, qualifiedBy: 'builtin' });
    });
  }

  it('needs only bodyText; quoted history below the reply is ignored', async () => {
    const res = await post({ bodyText: 'No thanks.\n\nOn Mon, Nov 16, 2026 at 9:00 AM Sam <sam@outreach.io> wrote:\n> Interested in a demo? Happy to share pricing.' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ category: 'not_interested' });
  });

  const bad: ReadonlyArray<readonly [string, unknown, RegExp]> = [
    ['no bodyText', { fromEmail: VALID.fromEmail }, /bodyText/],
    ['an empty bodyText', { ...VALID, bodyText: '' }, /bodyText/],
    ['a bodyText that is not a string', { ...VALID, bodyText: 42 }, /bodyText/],
    ['a fromEmail that is not an address', { ...VALID, fromEmail: 'jane at globex' }, /fromEmail/],
    ['a toEmail that is not an address', { ...VALID, toEmail: 'sam@' }, /toEmail/],
    ['a subject over 1000 characters', { ...VALID, subject: 'x'.repeat(1001) }, /subject/],
    ['a bodyText over 100 KB of characters', { ...VALID, bodyText: 'a'.repeat(100 * 1024 + 1) }, /bodyText/],
    ['a bodyText over 100 KB of UTF-8', { ...VALID, bodyText: 'é'.repeat(60_000) }, /bodyText must be at most 100 KB/],
    ['an unknown field', { ...VALID, campaign: 'x' }, /unknown field "campaign"/],
    ['an array', [VALID], /body/],
  ];
  for (const [what, body, message] of bad) {
    it(`is 400 with {"error"} for ${what}`, async () => {
      const res = await post(body);
      expect(res.status).to.equal(400);
      expect(Object.keys(res.body)).to.deep.equal(['error']);
      expect(res.body.error).to.match(message);
    });
  }

  it('takes exactly 100 KB of UTF-8', async () => {
    const res = await post({ ...VALID, bodyText: `No thanks. ${'x'.repeat(100 * 1024 - 11)}` });
    expect(res.status).to.equal(200);
  });

  it('is 401 without a Surface B key (a Bearer key is the other surface) and 415 for a non-JSON body', async () => {
    expect((await post(VALID, {})).status).to.equal(401);
    expect((await post(VALID, surfaceA(apiKey))).status).to.equal(401);
    const res = await request(`${t.api.baseUrl}/v1/qualify`, { method: 'POST', headers: { ...surfaceB(apiKey), 'content-type': 'text/plain' }, body: 'yes' });
    expect(res.status).to.equal(415);
  });

  it('is documented in the OpenAPI document with its request and response schemas', () => {
    const op = (t.api.openapi.paths as Record<string, Record<string, Record<string, unknown>>>)['/v1/qualify']?.post;
    expect(op, 'POST /v1/qualify').to.not.equal(undefined);
    const body = (op!.requestBody as { content: Record<string, { schema: { required: string[]; properties: Record<string, unknown> } }> }).content['application/json']!.schema;
    expect(body.required).to.deep.equal(['bodyText']);
    expect(Object.keys(body.properties)).to.have.members(['fromEmail', 'toEmail', 'subject', 'bodyText']);
    const ok = (op!.responses as Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }>)['200']!.content['application/json']!.schema;
    expect(Object.keys(ok.properties)).to.have.members(['category', 'sentiment', 'confidence', 'nextAction', 'qualifiedBy', 'model']);
    expect(Object.keys(op!.responses as object)).to.include.members(['200', '400', '401']);
  });
});
