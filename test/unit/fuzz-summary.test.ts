import { expect } from 'chai';
import { MUTATION_KINDS } from '../../fuzz/hostile-values';
import { generateCases, type CaseOptions, type FuzzCase } from '../../fuzz/mutation-cases';
import { formatTally, problemWith, Tally } from '../../fuzz/mutation-report';
import { fuzzableOperations, type OpenApiDocument, type Operation } from '../../fuzz/operations';
import { phasesFromEnv } from '../../fuzz/phases';
import { describeJson, RawJson, renderJson } from '../../fuzz/raw-json';
import type { PathIdPool } from '../../fuzz/seeded-ids';
import { serverErrorsByRequestId } from '../../fuzz/service-log';
import { parseSummary } from '../../fuzz/summary';
import { percentEncode } from '../../fuzz/url-encoding';

/** `npm run fuzz` passes or fails on these figures: the summaries below are schemathesis 4.32.5's own. */
describe('fuzz summary (schemathesis output)', () => {
  it('reads a clean run: requests generated, no failures', () => {
    const output = [
      'Test cases:',
      '  3926 generated, 3926 passed, 22 skipped',
      '',
      'Seed: 20260101',
      '',
      '============================ 3 warnings in 154.80s =============================',
    ].join('\n');
    expect(parseSummary(output)).to.deep.equal({ requests: 3926, failures: 0 });
  });

  it('counts failures, and errors (a dropped connection) as failures too', () => {
    const output = [
      'Test cases:',
      '  3869 generated, 3 found 4 unique failures, 17 errored, 20 skipped',
      '',
      '================== 4 failures, 1 error, 3 warnings in 182.89s ==================',
    ].join('\n');
    expect(parseSummary(output)).to.deep.equal({ requests: 3869, failures: 5 });
  });

  it('reads a run with one failure', () => {
    const output = ['Test cases:', '  2170 generated, 1 found 1 unique failure', '', '======================= 1 failure in 96.41s ======================='].join('\n');
    expect(parseSummary(output)).to.deep.equal({ requests: 2170, failures: 1 });
  });

  it('has no figures for output without a summary (a crash, an interrupted run)', () => {
    expect(parseSummary('Schemathesis v4.32.5\n ✅  Loaded specification\nKeyboardInterrupt\n')).to.equal(undefined);
  });
});

/** A small document with what the generators aim at: a date, numbers, strings, nesting, a path id, a query. */
const DOC: OpenApiDocument = {
  paths: {
    '/things': {
      post: {
        security: [{ apiKeyAuth: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                required: ['name'],
                properties: {
                  name: { type: 'string', minLength: 1, maxLength: 50 },
                  budget: { type: 'number', minimum: 0 },
                  schedule: { type: 'object', properties: { start_date: { type: 'string', format: 'date' } } },
                },
              },
            },
          },
        },
        responses: { '201': { content: { 'application/json': {} } }, '400': { content: { 'application/json': {} } } },
      },
    },
    '/things/{id}': {
      get: {
        security: [{ bearerAuth: [] }],
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
        ],
        responses: { '200': { content: { 'application/json': {} } }, '404': { content: { 'application/json': {} } } },
      },
    },
    '/public/{token}': { get: { parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }], responses: { '404': { content: { 'text/html': {} } } } } },
    '/me': { get: { security: [{ apiKeyAuth: [] }], responses: { '200': {} } } },
  },
};

const POOL: PathIdPool = (_op, param) => (param === 'id' ? ['thing_1'] : []);

function casesOf(o: Partial<CaseOptions> = {}): FuzzCase[] {
  return [...generateCases(fuzzableOperations(DOC).fuzzed, { random: 200, edges: 'all', seed: 1, pool: POOL, ...o })];
}

const bodyText = (c: FuzzCase): string => c.body?.toString('utf8') ?? '';

describe('fuzz mutations: the requests it generates', () => {
  it('fuzzes the operations that take JSON or parameters, and names the others', () => {
    const { fuzzed, skipped } = fuzzableOperations(DOC);
    expect(fuzzed.map((op) => op.label)).to.deep.equal(['POST /things', 'GET /things/{id}', 'GET /public/{token}']);
    expect(skipped.map((op) => op.label)).to.deep.equal(['GET /me']);
    expect(fuzzed.map((op) => op.surface)).to.deep.equal(['b', 'a', 'none']);
  });

  it('writes what JSON.stringify cannot: 1e400, -0 and NaN as tokens, a lone surrogate escaped, raw bytes', () => {
    const text = renderJson({ a: new RawJson('1e400'), b: -0, c: NaN, d: '\ud800', e: new RawJson(Buffer.from([0x22, 0xff, 0x22])) });
    expect(text.subarray(0, -4).toString('latin1')).to.equal('{"a":1e400,"b":-0,"c":NaN,"d":"\\ud800","e":');
    expect([...text.subarray(-4)]).to.deep.equal([0x22, 0xff, 0x22, 0x7d]);
    expect(describeJson({ s: 'x'.repeat(100_000), deep: new RawJson('['.repeat(9000), '<9000 levels>') })).to.equal(`{"s":"${'x'.repeat(48)}"…(100000 UTF-16 units),"deep":<9000 levels>}`);
  });

  it('percent-encodes a lone surrogate as its three bytes instead of throwing', () => {
    expect(percentEncode('a\ud800b')).to.equal('a%ED%A0%80b');
    expect(percentEncode('😀/')).to.equal('%F0%9F%98%80%2F');
    expect(percentEncode(Buffer.from([0xff]))).to.equal('%FF');
  });

  it('tries every edge value where it applies, on an otherwise valid body, with the key', () => {
    const edges = casesOf({ random: 0 }).filter((c) => c.operation.label === 'POST /things');
    expect(edges.every((c) => c.origin === 'edge' && c.withKey && c.mutations.length === 1)).to.equal(true);
    const at = (member: string, label: string): FuzzCase | undefined => edges.find((c) => c.mutations[0] === `body.${member} = ${label}`);
    expect(bodyText(at('schedule.start_date', 'date 0000-01-01')!)).to.equal('{"name":"Fuzz launch","schedule":{"start_date":"0000-01-01"}}');
    for (const d of ['2026-02-30', '9999-12-31T24:00:00Z', '-000001-01-01']) expect(at('schedule.start_date', `date ${d}`), d).not.to.equal(undefined);
    expect(bodyText(at('budget', 'number 1e400')!)).to.equal('{"name":"Fuzz launch","budget":1e400}');
    for (const n of ['1e308', '-0', 'NaN', 'Infinity', '2^53 + 1']) expect(at('budget', `number ${n}`), n).not.to.equal(undefined);
    expect(bodyText(at('name', 'lone high surrogate')!)).to.equal('{"name":"\\ud800"}');
    expect(at('name', '100 K of x')!.body!.length).to.be.greaterThan(100 * 1024);
    for (const s of ['NUL inside', 'right-to-left override', 'emoji ZWJ sequence', 'combining marks']) expect(at('name', s), s).not.to.equal(undefined);
    const deep = bodyText(edges.find((c) => c.mutations[0] === 'body = 8000 levels of arrays')!);
    expect(deep).to.equal('['.repeat(8000) + ']'.repeat(8000));
    expect(bodyText(at('schedule', 'empty array')!)).to.equal('{"name":"Fuzz launch","schedule":[]}');
    expect(bodyText(at('name', 'null')!)).to.equal('{"name":null}');
  });

  it('puts hostile values in path and query parameters, percent-encoded', () => {
    const gets = casesOf().filter((c) => c.operation.label === 'GET /things/{id}');
    expect(gets.find((c) => c.mutations[0] === 'query.page = number 1e400')?.url).to.equal('/things/thing_1?page=1e400');
    expect(gets.find((c) => c.mutations[0] === 'path.id = lone high surrogate')?.url).to.equal('/things/%ED%A0%80');
    expect(gets.find((c) => c.mutations[0] === 'query.page = null')?.url).to.equal('/things/thing_1?page');
  });

  it('random cases: every kind on every operation, a fifth without the key (never on a public route), the same bytes for the same seed', () => {
    const random = casesOf({ edges: 'none' });
    expect(random.length).to.equal(201); // ceil(200 / 3) for each of the three operations
    for (const label of ['POST /things', 'GET /things/{id}', 'GET /public/{token}']) {
      expect(new Set(random.filter((c) => c.operation.label === label).map((c) => c.kind))).to.have.lengthOf(MUTATION_KINDS.length);
    }
    const withoutKey = random.filter((c) => !c.withKey);
    expect(withoutKey.length).to.be.within(20, 70);
    expect(withoutKey.every((c) => c.operation.surface !== 'none')).to.equal(true);
    // Thousands of levels somewhere, in a body.
    expect(random.some((c) => c.kind === 'deep-nesting' && /\[{1000}|(\{"a":){1000}/.test(bodyText(c)))).to.equal(true);

    const again = casesOf({ edges: 'none' });
    expect(again.map((c) => [c.url, bodyText(c), c.withKey])).to.deep.equal(random.map((c) => [c.url, bodyText(c), c.withKey]));
    const other = casesOf({ edges: 'none', seed: 2 });
    expect(other.map((c) => bodyText(c))).not.to.deep.equal(random.map((c) => bodyText(c)));
  });
});

describe('fuzz mutations: the verdict on each answer, and the report', () => {
  const [post, get, pub] = fuzzableOperations(DOC).fuzzed as [Operation, Operation, Operation];
  const aCase = (op: Operation, o: Partial<FuzzCase> = {}): FuzzCase => ({ index: 7, operation: op, kind: 'dates', origin: 'edge', withKey: true, routed: true, mutations: ['body.schedule.start_date = date 0000-01-01'], url: op.path, ...o });

  it('fails a 5xx and no answer; a request without the key must be a 401 (or the 431 of an oversized URL)', () => {
    expect(problemWith(aCase(post), { status: 500, contentType: 'application/json', text: '{"error":"Internal server error"}' })).to.equal('answered 500');
    expect(problemWith(aCase(post), { text: 'SocketError: other side closed' })).to.equal('no answer (SocketError: other side closed)');
    expect(problemWith(aCase(get, { withKey: false }), { status: 400, contentType: 'application/json', text: '{"error":"x"}' })).to.equal('answered 400 without credentials, not 401');
    expect(problemWith(aCase(get, { withKey: false }), { status: 401, contentType: 'application/json', text: '{"error":"Missing API key"}' })).to.equal(undefined);
    expect(problemWith(aCase(get, { withKey: false }), { status: 431, text: '' })).to.equal(undefined);
    // `/things//`: an empty id names no route, whose 404 comes before any key is asked for.
    expect(problemWith(aCase(get, { withKey: false, routed: false }), { status: 404, contentType: 'application/json', text: '{"error":"No route"}' })).to.equal(undefined);
  });

  it('a refusal is a JSON {"error": "..."} where the document says JSON, never a stack trace', () => {
    expect(problemWith(aCase(post), { status: 400, contentType: 'application/json', text: '{"error":"body.schedule.start_date must be a date"}' })).to.equal(undefined);
    expect(problemWith(aCase(post), { status: 400, contentType: 'application/json', text: '{"message":"bad"}' })).to.equal('answered 400 with a body that is not {"error": "..."}');
    expect(problemWith(aCase(post), { status: 400, contentType: 'text/plain', text: 'Bad Request' })).to.equal('answered 400 with a body that is not {"error": "..."}');
    expect(problemWith(aCase(post), { status: 400, contentType: 'application/json', text: '{"error":"at f (/srv/app/src/x.ts:3:9)"}' })).to.equal('answered 400 with a stack trace in its error');
    expect(problemWith(aCase(pub), { status: 404, contentType: 'text/html', text: '<!doctype html>' })).to.equal(undefined);
  });

  it('counts by route, kind and status class, and prints each failure once with its count, request and logged error', () => {
    const tally = new Tally();
    tally.record(aCase(get, { kind: 'numbers', origin: 'random', withKey: false }), { status: 401, contentType: 'application/json', text: '{"error":"no key"}' });
    for (const index of [1, 2]) {
      const failure = tally.record(aCase(post, { index, bodyShape: '{"name":"Fuzz launch","schedule":{"start_date":"0000-01-01"}}', body: Buffer.from('{}') }), {
        status: 500,
        contentType: 'application/json',
        text: '{"error":"Internal server error"}',
      });
      failure!.serverError = serverErrorsByRequestId(
        `{"msg":"request"}\n{"msg":"unhandled error","requestId":"fuzz-${index}","err":{"message":"date/time field value out of range: \\"0000-01-01\\"","stack":"Error: x\\n    at q (/srv/node_modules/pg/x.js:1:1)\\n    at start (/srv/src/campaigns/control/start-campaign.ts:44:22)"}}\n`,
      ).get(`fuzz-${index}`);
    }
    expect(tally.cases).to.equal(3);
    expect(tally.byClass).to.deep.include({ '4xx': 1, '5xx': 2 });
    const text = formatTally(tally, { seed: 5, skipped: ['GET /me'], replay: (f) => `curl … case-${f.fuzzCase.index}.body` }).join('\n');
    expect(text).to.include('fuzz mutations: 3 cases (2 edge, 1 random with seed 5; 1 without credentials): 4xx 1, 5xx 2');
    expect(text).to.match(/POST \/things +2 +5xx 2/);
    expect(text).to.include('not mutated (no JSON body, no parameters): GET /me');
    expect(text).to.include('fuzz mutations: 2 failures (1 distinct)');
    expect(text).to.include('1. POST /things [edge dates]: answered 500 (2 cases like it)');
    expect(text).to.include('body (2 bytes): {"name":"Fuzz launch","schedule":{"start_date":"0000-01-01"}}');
    expect(text).to.include('service log: unhandled error: date/time field value out of range: "0000-01-01" (at start (/srv/src/campaigns/control/start-campaign.ts:44:22))');
    expect(text).to.include('replay: curl … case-1.body');
  });

  it('FUZZ_PHASES picks the phases, in their fixed order', () => {
    expect(phasesFromEnv({})).to.deep.equal(['mutations', 'schemathesis']);
    expect(phasesFromEnv({ FUZZ_PHASES: 'schemathesis, mutations' })).to.deep.equal(['mutations', 'schemathesis']);
    expect(phasesFromEnv({ FUZZ_PHASES: 'mutations' })).to.deep.equal(['mutations']);
    expect(() => phasesFromEnv({ FUZZ_PHASES: 'everything' })).to.throw('FUZZ_PHASES=everything');
  });
});
