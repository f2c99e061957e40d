import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { MAX_INPUT_DEPTH } from '../../src/api/http/input-walk';
import type { AnyRoute } from '../../src/api/http/route';
import { RESOURCE_ROUTES } from '../../src/api/routes';
import { createAccount, request, surfaceA, surfaceB, type JsonResponse, useTestApi } from '../support/api';

/**
 * JSON nested far deeper than any request needs, on every JSON route of both surfaces and the
 * calendar webhooks (whose raw JSON is parsed by their handlers): a 400 that names the limit,
 * never the 500 of a stack overflow. 8,000 levels is 16 KB, well inside the 1 MB body limit.
 */

const DEEP = 8000;
const TOO_DEEP = `body is nested too deeply: at most ${MAX_INPUT_DEPTH} levels of objects and arrays`;
const CALCOM_SECRET = 'calcom-secret-0123456789abcdef';
const CALENDLY_KEY = 'calendly-key-0123456789abcdef';

const nestedArrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
const hmac = (key: string, data: string): string => createHmac('sha256', key).update(data).digest('hex');
const label = (r: AnyRoute): string => `${r.method.toUpperCase()} ${r.path}`;

function expectError(res: JsonResponse, status: number, what: string): void {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).to.equal(status);
  expect(Object.keys(res.body ?? {}), what).to.deep.equal(['error']);
}

describe('bad input: JSON nested deeper than the limit is a 400 on every JSON route', function () {
  this.timeout(120_000);
  const t = useTestApi();
  let accountId: string;
  let apiKey: string;

  before(async () => {
    ({ accountId, apiKey } = await createAccount(t.db.sequelize, 'pro'));
    await t.db.sequelize.query(`INSERT INTO account_integrations (account_id, calcom_webhook_secret, calendly_signing_key) VALUES ($1, $2, $3)`, {
      bind: [accountId, CALCOM_SECRET, CALENDLY_KEY],
    });
  });

  /** The route's path with its parameters filled: the account's own id, or a harmless id the depth check comes before. */
  const pathOf = (route: AnyRoute): string => route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (name === 'accountId' ? accountId : 'x'));

  /** Sends `body` as the route's JSON, with what it authenticates by (a key, or the calendar provider's signature). */
  function send(route: AnyRoute, body: string): Promise<JsonResponse> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (route.auth === 'a') Object.assign(headers, surfaceA(apiKey));
    if (route.auth === 'b') Object.assign(headers, surfaceB(apiKey));
    if (route.operationId === 'postCalcomWebhook') headers['X-Cal-Signature-256'] = hmac(CALCOM_SECRET, body);
    if (route.operationId === 'postCalendlyWebhook') {
      const ts = Math.floor(Date.now() / 1000);
      headers['Calendly-Webhook-Signature'] = `t=${ts},v1=${hmac(CALENDLY_KEY, `${ts}.${body}`)}`;
    }
    return request(`${t.api.baseUrl}${pathOf(route)}`, { method: route.method.toUpperCase(), headers, body });
  }

  const jsonRoutes = RESOURCE_ROUTES.filter((r) => r.body !== undefined || r.rawBody?.contentTypes.includes('application/json'));

  it('covers both surfaces and the calendar webhooks', () => {
    const labels = jsonRoutes.map(label);
    expect(labels).to.include.members(['POST /campaigns', 'POST /v1/campaigns', 'POST /webhooks/calcom/:accountId', 'POST /webhooks/calendly/:accountId']);
    expect(jsonRoutes.some((r) => r.auth === 'a')).to.equal(true);
    expect(jsonRoutes.some((r) => r.auth === 'b')).to.equal(true);
  });

  for (const route of jsonRoutes) {
    it(`${label(route)}: ${DEEP} nested arrays, ${DEEP} nested objects, and a member nested too deep are 400s naming the limit`, async () => {
      for (const [what, body] of [
        ['arrays', nestedArrays(DEEP)],
        ['objects', nestedObjects(DEEP)],
        ['a member', `{"name": ${nestedArrays(MAX_INPUT_DEPTH)}}`],
      ] as const) {
        const res = await send(route, body);
        expectError(res, 400, `${label(route)} ${what}`);
        expect(res.body.error, `${label(route)} ${what}`).to.equal(TOO_DEEP);
      }
    });
  }

  it(`nesting up to ${MAX_INPUT_DEPTH} levels reaches the schema, which names what is wrong`, async () => {
    const create = RESOURCE_ROUTES.find((r) => r.operationId === 'v1CreateCampaign')!;
    // The body object is level 1, so the member holds MAX_INPUT_DEPTH - 1 levels.
    const res = await send(create, `{"name": ${nestedArrays(MAX_INPUT_DEPTH - 1)}, "brandUrl": "acme.example"}`);
    expectError(res, 400, 'at the limit');
    expect(res.body.error).to.equal('body.name must be string');
  });

  it('a query string with deeply nested brackets is one literal, unknown parameter name: a 400 on both surfaces', async () => {
    const deepKey = `a${'[b]'.repeat(2000)}`;
    for (const [path, headers] of [
      ['/campaigns', surfaceA(apiKey)],
      ['/v1/campaigns', surfaceB(apiKey)],
    ] as const) {
      const res = await request(`${t.api.baseUrl}${path}?${deepKey}=1`, { headers });
      expectError(res, 400, path);
      expect(res.body.error).to.equal(`query has unknown field ${JSON.stringify(deepKey)}`);
    }
  });
});
