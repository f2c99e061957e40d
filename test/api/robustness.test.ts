import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { saveCompany } from '../../src/companies';
import type { AnyRoute } from '../../src/api/http/route';
import { RESOURCE_ROUTES } from '../../src/api/routes';
import { createAccount, request, surfaceA, surfaceB, type JsonResponse, useTestApi } from '../support/api';
import { seedCampaign, seedLead } from '../support/campaign-seed';

/**
 * Bad input on every route of the real route list (RESOURCE_ROUTES), against the real app and
 * PostgreSQL: each kind of mistake a client can make is a 4xx with a JSON `{"error"}` that says
 * what is wrong, never a 5xx, an HTML page or a stack trace, and none of them changes a row.
 * errors.test.ts shows the messages on one route; this file holds every route to them, so a new
 * route that forgets a limit fails here. fuzz-mutations.test.ts (and `npm run fuzz`) does the same
 * with generated hostile input: deep nesting, odd numbers, strings and dates, wrong types.
 */

/** Every error is JSON `{"error": "..."}`: no HTML page, no stack trace, no library message. */
function expectErrorBody(res: JsonResponse, status: number, what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(status);
  expect(res.headers.get('content-type'), what).to.match(/^application\/json/);
  expect(Object.keys(res.body ?? {}), what).to.deep.equal(['error']);
  expect(res.body.error, what).to.be.a('string').and.not.equal('');
  expect(res.text, what).not.to.match(/<html|at .*\.[jt]s:\d+|node_modules|Error:/i);
}

const label = (r: AnyRoute): string => `${r.method.toUpperCase()} ${r.path}`;

/**
 * A body each JSON-body route accepts, so that a test can break exactly one member of it and
 * see that member named. Never sent as it is. A route missing here fails the table test below.
 */
const VALID_BODIES: Record<string, unknown> = {
  'POST /v1/api-keys': { label: 'ci' },
  'POST /campaigns': { mcp: 'sales_outreach', target_url: 'https://acme.example' },
  'PATCH /v1/integrations': {},
  'POST /v1/mailboxes': { fromEmail: 'sam@acme.example', smtpUrl: 'smtps://sam:pw@smtp.acme.example:465' },
  'POST /v1/leads/search': {},
  'POST /v1/leads/enrich': { email: 'ada@acme.example' },
  'POST /v1/audiences/preview': { text: 'CTOs in Germany' },
  'POST /v1/company/scrape': { url: 'https://acme.example' },
  'POST /v1/qualify': { bodyText: 'Sounds good, send me times.' },
  'POST /v1/campaigns': { name: 'Launch', brandUrl: 'https://acme.example' },
  'PATCH /v1/webhook-settings': { url: null },
  'POST /v1/webhook-settings/rotate-secret': {},
  'POST /v1/webhooks/test': {},
  'PATCH /v1/mailboxes/:id': { dailyCap: 40 },
  'PATCH /v1/default-sender': { name: 'Sam Lee' },
  'POST /v1/campaigns/:id/preview': { leadId: 'lead_x', spamCheck: false },
  'POST /campaigns/:id/leads': { lead_ids: ['lead_x'] },
  'POST /v1/campaigns/:id/leads': { leadIds: ['lead_x'] },
  'POST /lead-lists': { name: 'Fair' },
  'PATCH /lead-lists/:id': { name: 'Fair 2026' },
  'POST /lead-lists/:id/leads': { lead_ids: ['lead_x'] },
  'POST /v1/lead-lists': { name: 'Fair' },
  'PATCH /v1/lead-lists/:id': { name: 'Fair 2026' },
  'POST /v1/lead-lists/:id/leads': { leadIds: ['lead_x'] },
  'PATCH /v1/leads/:id': { title: 'CTO' },
  'PATCH /v1/replies/:id': { read: true },
  'POST /v1/leads/:id/reply': { body: 'Thanks, Thursday works.' },
  'POST /v1/blocklist': { value: 'spam.example' },
  'POST /campaigns/:id/reports': { email: 'boss@acme.example' },
  'POST /v1/campaigns/:id/reports': { email: 'boss@acme.example' },
  'PATCH /campaigns/:id': { name: 'Renamed' },
  'PATCH /v1/campaigns/:id': { name: 'Renamed' },
  'POST /campaigns/:id/duplicate': { start: false },
  'POST /v1/campaigns/:id/duplicate': { start: false },
  'POST /v1/sequences/preview': { sequence: [{ delayDays: 0, mode: 'template', subject: 'Hi', body: 'Hello {{ first_name | default: "there" }}' }], lead: { email: 'ada@acme.example' }, spamCheck: false },
};

/** Values for required query parameters, for the same reason. */
const VALID_QUERIES: Record<string, Record<string, string>> = {
  'GET /t/c/:emailId/:n': { u: 'https://acme.example/pricing', s: 'signature' },
};

const PAGE_NAMES = new Set(['page', 'per_page', 'perPage']);
const ABSURD_PAGES: readonly unknown[] = [0, -1, 1_000_000_000, 'abc'];

const ajv = addFormats(new Ajv({ strict: false }));

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, PropSchema>;
  required?: string[];
  additionalProperties?: unknown;
}
interface PropSchema extends ObjectSchema {
  enum?: unknown[];
  anyOf?: PropSchema[];
  const?: unknown;
}

const propsOf = (schema: TSchema | undefined): Record<string, PropSchema> => ((schema as ObjectSchema | undefined)?.properties ?? {});

/** A value of the wrong JSON type for `schema`: the first candidate it refuses. */
function wrongTypeFor(schema: PropSchema): unknown {
  const validate = ajv.compile(schema);
  return [12345, 'text', true, [], { nested: 1 }].find((v) => !validate(v));
}

const isEnumLike = (s: PropSchema): boolean => Array.isArray(s.enum) || (Array.isArray(s.anyOf) && s.anyOf.length > 0 && s.anyOf.every((b) => b.const !== undefined));

/** Paths of every enum-like member, nested objects included (e.g. schedule.frequency). */
function enumPaths(schema: PropSchema, at: string[] = []): string[][] {
  const out: string[][] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (isEnumLike(prop)) out.push([...at, name]);
    else if (prop.properties) out.push(...enumPaths(prop, [...at, name]));
  }
  return out;
}

function withValueAt(body: unknown, path: readonly string[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    node[key] = typeof node[key] === 'object' && node[key] !== null ? node[key] : {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
  return copy;
}

describe('robustness: every route refuses bad input with a clear 4xx and changes nothing', function () {
  this.timeout(120_000);
  // The limits would turn the later requests of this file into 429s.
  const t = useTestApi({ env: { RATE_LIMIT_FREE_PER_MINUTE: '1000000', RATE_LIMIT_PRO_PER_MINUTE: '1000000', RATE_LIMIT_B_PER_MINUTE: '1000000' } });

  interface Ids {
    accountId: string;
    apiKey: string;
    keyId: string;
    campaignId: string;
    leadId: string;
    companyId: string;
    mailboxId: string;
    deliveryId: string;
  }
  let own: Ids;
  let other: Ids;
  let initialRows: Record<string, unknown[]>;

  const authHeaders = (route: AnyRoute, key: string): Record<string, string> =>
    route.auth === 'a' ? surfaceA(key) : route.auth === 'b' ? surfaceB(key) : {};

  /** The route's path with its parameters filled in: `ids`' object of the kind the path names, or a harmless value. */
  function pathOf(route: AnyRoute, ids: Ids, overrides: Record<string, string> = {}): string {
    return route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
      if (overrides[name] !== undefined) return overrides[name];
      if (name === 'accountId') return ids.accountId;
      if (name === 'keyId') return ids.keyId;
      if (name === 'n') return '0';
      if (name !== 'id') return 'x';
      if (/^\/(v1\/|dashboard\/)?campaigns\//.test(route.path)) return ids.campaignId;
      if (route.path.startsWith('/v1/leads/')) return ids.leadId;
      if (route.path.startsWith('/v1/company/')) return ids.companyId;
      if (route.path.startsWith('/v1/mailboxes/')) return ids.mailboxId;
      if (route.path.startsWith('/v1/webhook-deliveries/')) return ids.deliveryId;
      return 'x';
    });
  }

  function send(route: AnyRoute, opts: { path?: string; query?: Record<string, string>; body?: string | Buffer; contentType?: string } = {}): Promise<JsonResponse> {
    const qs = opts.query ? `?${new URLSearchParams(opts.query).toString()}` : '';
    const headers: Record<string, string> = { ...authHeaders(route, own.apiKey) };
    if (opts.body !== undefined) headers['Content-Type'] = opts.contentType ?? 'application/json';
    return request(`${t.api.baseUrl}${opts.path ?? pathOf(route, own)}${qs}`, { method: route.method.toUpperCase(), headers, body: opts.body });
  }

  const sendJson = (route: AnyRoute, body: unknown): Promise<JsonResponse> => send(route, { body: JSON.stringify(body) });

  /** Every row the bad requests could have touched, of both accounts (last_used_at is bookkeeping of any authenticated request). */
  async function snapshot(): Promise<Record<string, unknown[]>> {
    const tables = ['api_keys', 'campaigns', 'leads', 'companies', 'mailboxes', 'account_integrations', 'webhook_settings', 'webhook_deliveries', 'outbox', 'suppressions', 'costs'];
    const accounts = [own.accountId, other.accountId];
    const out: Record<string, unknown[]> = {};
    out.accounts = await t.db.sequelize.query(`SELECT to_jsonb(a) AS row FROM accounts a WHERE id = ANY($1) ORDER BY id`, { bind: [accounts], type: QueryTypes.SELECT });
    for (const table of tables) {
      out[table] = await t.db.sequelize.query(`SELECT to_jsonb(x) - 'last_used_at' AS row FROM ${table} x WHERE account_id = ANY($1) ORDER BY (to_jsonb(x))::text`, {
        bind: [accounts],
        type: QueryTypes.SELECT,
      });
    }
    return out;
  }

  async function seedAccount(name: string): Promise<Ids> {
    const { accountId, apiKey, keyId } = await createAccount(t.db.sequelize, 'pro', name);
    const campaign = await seedCampaign(accountId);
    const lead = await seedLead(accountId, { email: `ada@${name.toLowerCase()}.example` });
    const company = await saveCompany(t.db.sequelize, accountId, {
      url: `https://${name.toLowerCase()}.example/`,
      domain: `${name.toLowerCase()}.example`,
      name,
      description: null,
      logoUrl: null,
      socialLinks: {},
      contactEmails: [],
      technologies: [],
      industryKeywords: [],
    });
    const b = surfaceB(apiKey);
    const json = { ...b, 'Content-Type': 'application/json' };
    const mailbox = await request<{ id: string }>(`${t.api.baseUrl}/v1/mailboxes`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ fromEmail: `sam@${name.toLowerCase()}.example`, smtpUrl: 'smtps://sam:pw@smtp.mail.example:465' }),
    });
    expect(mailbox.status, mailbox.text).to.equal(201);
    // Nothing listens on port 1: the test event fails at once and is logged as a delivery.
    const test = await request<{ deliveryId: string }>(`${t.api.baseUrl}/v1/webhooks/test`, { method: 'POST', headers: json, body: JSON.stringify({ url: 'http://127.0.0.1:1/hook' }) });
    expect(test.status, test.text).to.equal(200);
    return { accountId, apiKey, keyId, campaignId: campaign.id, leadId: lead.id, companyId: company.id, mailboxId: mailbox.body.id, deliveryId: test.body.deliveryId };
  }

  before(async () => {
    own = await seedAccount('Own');
    other = await seedAccount('Other');
    initialRows = await snapshot();
  });

  const jsonRoutes = RESOURCE_ROUTES.filter((r) => r.body !== undefined);
  const queryRoutes = RESOURCE_ROUTES.filter((r) => r.query !== undefined);

  it('every JSON-body route has a valid example body here, and refuses unknown members', () => {
    for (const route of jsonRoutes) {
      const body = VALID_BODIES[label(route)];
      expect(body, `${label(route)}: add it to VALID_BODIES`).not.to.equal(undefined);
      const validate = ajv.compile(route.body as TSchema);
      expect(validate(structuredClone(body)), `${label(route)}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      expect((route.body as ObjectSchema).additionalProperties, `${label(route)} must declare additionalProperties: false`).to.equal(false);
    }
  });

  describe('JSON bodies', () => {
    for (const route of jsonRoutes) {
      it(`${label(route)}: malformed JSON 400, over 1 MB 413, not an object 400`, async () => {
        const malformed = await send(route, { body: '{"a": ' });
        expectErrorBody(malformed, 400, 'malformed');
        expect(malformed.body.error).to.equal('Malformed JSON in request body');
        expectErrorBody(await send(route, { body: JSON.stringify({ pad: 'x'.repeat(1_100_000) }) }), 413, 'over 1 MB');
        for (const notObject of ['[]', '"text"', '42', 'null', '[{"a":1}]']) expectErrorBody(await send(route, { body: notObject }), 400, notObject);
      });

      it(`${label(route)}: unknown members, wrong member types, unknown enum values, absurd page sizes and NUL characters are 400s naming the member`, async () => {
        const valid = VALID_BODIES[label(route)];
        const unknown = await sendJson(route, { ...(valid as object), not_a_member: 1 });
        expectErrorBody(unknown, 400, 'unknown member');
        expect(unknown.body.error).to.equal('body has unknown field "not_a_member"');
        for (const [name, prop] of Object.entries(propsOf(route.body))) {
          // A member the schema lets any value through (refused by the handler, such as a lead's
          // email) has no wrong type; a value is tried instead.
          const wrong = wrongTypeFor(prop) ?? 12345;
          const res = await sendJson(route, { ...(valid as object), [name]: wrong });
          expectErrorBody(res, 400, `${name}: ${JSON.stringify(wrong)}`);
          expect(res.body.error, name).to.match(new RegExp(`^body\\.${name}\\b`));
          if (PAGE_NAMES.has(name)) {
            for (const absurd of ABSURD_PAGES) {
              const page = await sendJson(route, { ...(valid as object), [name]: absurd });
              expectErrorBody(page, 400, `${name}=${String(absurd)}`);
              expect(page.body.error).to.match(new RegExp(`^body\\.${name}\\b`));
            }
          }
          const nul = await sendJson(route, { ...(valid as object), [name]: 'a\u0000b' });
          expectErrorBody(nul, 400, `${name} with NUL`);
        }
        for (const path of enumPaths(route.body as PropSchema)) {
          const res = await sendJson(route, withValueAt(valid, path, 'not-a-real-value'));
          expectErrorBody(res, 400, path.join('.'));
          expect(res.body.error, path.join('.')).to.match(new RegExp(`^body\\.${path[0]}\\b`));
        }
        const surrogate = await send(route, { body: `{"${Object.keys(propsOf(route.body))[0] ?? 'a'}": "\\ud800"}` });
        expectErrorBody(surrogate, 400, 'unpaired surrogate');
      });
    }
  });

  describe('raw bodies', () => {
    for (const route of RESOURCE_ROUTES.filter((r) => r.rawBody?.mode === 'buffer')) {
      it(`${label(route)}: a body over its ${route.rawBody!.maxBytes} bytes is 413, and a wrong content type 415`, async () => {
        const spec = route.rawBody!;
        expectErrorBody(await send(route, { body: Buffer.alloc(spec.maxBytes + 1, 'a'), contentType: spec.contentTypes[0] }), 413, 'over the limit');
        expectErrorBody(await send(route, { body: '<x/>', contentType: 'application/xml' }), 415, 'content type');
      });
    }
  });

  describe('query parameters', () => {
    for (const route of queryRoutes) {
      it(`${label(route)}: absurd page sizes, unknown enum values, unknown parameters and NUL characters are 400s naming the parameter`, async () => {
        const base = VALID_QUERIES[label(route)] ?? {};
        const props = propsOf(route.query);
        for (const name of (route.query as ObjectSchema).required ?? []) expect(base[name], `${label(route)}: add ${name} to VALID_QUERIES`).to.be.a('string');
        const cases: Array<[string, string]> = [];
        for (const [name, prop] of Object.entries(props)) {
          if (PAGE_NAMES.has(name)) for (const v of ABSURD_PAGES) cases.push([name, String(v)]);
          if (isEnumLike(prop)) cases.push([name, 'not-a-real-value']);
          if (prop.type === 'string') cases.push([name, 'a\u0000b']);
        }
        for (const [name, value] of cases) {
          // A raw-body route (the CSV import) checks its content type first: send one it takes, so the query is what is judged.
          const res = await send(route, { query: { ...base, [name]: value }, ...(route.rawBody ? { body: 'email\n', contentType: route.rawBody.contentTypes[0] } : {}) });
          expectErrorBody(res, 400, `${name}=${JSON.stringify(value)}`);
          expect(res.body.error, `${name}=${JSON.stringify(value)}`).to.match(new RegExp(`^query\\.${name}\\b`));
        }
        if ((route.query as ObjectSchema).additionalProperties === false) {
          const res = await send(route, { query: { ...base, not_a_parameter: '1' }, ...(route.rawBody ? { body: 'email\n', contentType: route.rawBody.contentTypes[0] } : {}) });
          expectErrorBody(res, 400, 'unknown parameter');
          expect(res.body.error).to.equal('query has unknown field "not_a_parameter"');
        }
      });
    }
  });

  it('every path parameter refuses a NUL character (400), before any lookup', async () => {
    // The open pixel answers the same GIF whatever its token (a mail client shows no error page).
    for (const route of RESOURCE_ROUTES.filter((r) => r.params !== undefined && r.operationId !== 'trackOpen')) {
      for (const [name, prop] of Object.entries(propsOf(route.params))) {
        if (prop.type !== 'string') continue;
        const body = route.rawBody ? { body: 'x', contentType: route.rawBody.contentTypes[0] } : route.body ? { body: JSON.stringify(VALID_BODIES[label(route)]) } : {};
        const res = await send(route, { path: pathOf(route, own, { [name]: '%00' }), query: VALID_QUERIES[label(route)], ...body });
        expectErrorBody(res, 400, `${label(route)} ${name}`);
      }
    }
  });

  it('a URL as long as the schemas allow reaches the application; past 64 KB the server answers 431 without a body', async () => {
    const click = RESOURCE_ROUTES.find((r) => r.operationId === 'trackClick')!;
    // The longest target a click link may carry, each character percent-encoded in the query: 24 KB.
    const longest = await send(click, { query: { u: '='.repeat(8192), s: 'signature' } });
    expectErrorBody(longest, 400, 'longest click link');
    expect(longest.body.error).to.equal('This link is not valid');
    const tooLong = await send(click, { query: { u: '='.repeat(8192 * 3), s: 'signature' } });
    expect(tooLong.status).to.equal(431);
    expect(tooLong.text).to.equal('');
    const documented = (t.api.openapi.paths as Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>)['/t/c/{emailId}/{n}']?.get?.responses['431'];
    expect(documented).to.include.keys('description').and.not.to.have.property('content');
  });

  describe("another account's objects are 404s, on both surfaces", () => {
    const owned = RESOURCE_ROUTES.filter((r) => r.auth !== 'none' && /^\/(v1\/)?(campaigns|leads|company|mailboxes|webhook-deliveries|api-keys)\/:(id|keyId)/.test(r.path));

    it('covers every campaign, lead, company, mailbox, webhook delivery and API key route', () => {
      const paths = new Set(owned.map((r) => r.path.split('/:')[0]));
      expect([...paths].sort()).to.include.members(['/campaigns', '/v1/campaigns', '/v1/leads', '/v1/company', '/v1/mailboxes', '/v1/webhook-deliveries', '/v1/api-keys']);
    });

    for (const route of owned) {
      it(`${label(route)} with the other account's id`, async () => {
        const res = await send(route, { path: pathOf(route, other), ...(route.body ? { body: JSON.stringify(VALID_BODIES[label(route)] ?? {}) } : {}) });
        expectErrorBody(res, 404, label(route));
        // A second id this file does not seed (an answer of the lead) is 404 for its owner too.
        if (route.method !== 'get' || /:(?!id\b|keyId\b)[A-Za-z]/.test(route.path)) return;
        // The same id with its owner's key is found: the 404 is about the account, not the id.
        const mine = await request(`${t.api.baseUrl}${pathOf(route, other)}`, { headers: authHeaders(route, other.apiKey) });
        expect(mine.status, `${label(route)} for its owner: ${mine.text}`).to.equal(200);
      });
    }
  });

  // Mocha runs a suite's own tests before its nested suites: this one is nested, and last.
  describe('afterwards', () => {
    it("after every bad request above, both accounts' rows are exactly as they were", async () => {
      expect(await snapshot()).to.deep.equal(initialRows);
    });
  });
});
