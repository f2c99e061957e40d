import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { baseValue, validates, type BaseValueHints } from './base-values';
import { edgeValues } from './edge-values';
import { hostileValue, isAddressLike, isDateLike, MUTATION_KINDS, type HostileValue, type MutationKind, type TargetInfo } from './hostile-values';
import type { JsonSchema, Operation } from './operations';
import { describeJson, RawJson, renderJson, type JsonLike } from './raw-json';
import type { PathIdPool } from './seeded-ids';
import { percentEncode } from './url-encoding';

/**
 * Test cases of the mutation run: for one operation, a valid request (a body with its required
 * members, seeded ids in the path) with one of its members or parameters replaced by an edge
 * value (edge-values.ts), or one or two replaced by random hostile values of one family
 * (hostile-values.ts, fast-check from a fixed seed: the same seed gives the same requests, byte
 * for byte).
 */
export interface FuzzCase {
  /** Position in the run, also sent as X-Request-Id (`fuzz-<index>`) to find the service's log line. */
  readonly index: number;
  readonly operation: Operation;
  readonly kind: MutationKind;
  /** An edge value tried systematically (edge-values.ts), or a random case. */
  readonly origin: 'edge' | 'random';
  /** False: sent without credentials, on a route that requires them. */
  readonly withKey: boolean;
  /** False when an empty path parameter makes the URL another route's, or no route's (`/campaigns//pause`). */
  readonly routed: boolean;
  /** What was replaced, in words: `body.schedule.start_date = date 0000-01-01`. */
  readonly mutations: readonly string[];
  /** Path and query, percent-encoded. */
  readonly url: string;
  readonly contentType?: string;
  readonly body?: Buffer;
  /** The body for a report: its shape, long parts cut (describeJson). */
  readonly bodyShape?: string;
}

/** Base strings for members whose valid values the schema cannot say (a catalog, a site). */
export const BASE_HINTS: BaseValueHints = {
  byName: {
    mcp: ['sales_outreach'],
    target_url: ['https://acme.example'],
    brandUrl: ['https://acme.example'],
    name: ['Fuzz launch'],
    label: ['fuzz key'],
    text: ['CTOs at fintechs in Germany'],
    bodyText: ['Sounds good, send me some times.'],
    email: ['ada@acme.example'],
    fromEmail: ['sam@acme.example'],
    smtpUrl: ['smtps://sam:pw@smtp.acme.example:465'],
    // Fetched at once by some routes (a scrape, a test event): nothing listens on port 2, so the
    // attempt fails at once, on any machine (fetch refuses port 1 without trying).
    url: ['http://127.0.0.1:2/fuzz'],
    u: ['https://acme.example/pricing'],
    s: ['signature'],
  },
};

const UNKNOWN_MEMBER = 'zz_fuzz';

interface Target extends TargetInfo {
  /** Body: the keys down to the member ('0' for an array's item). Parameters: [name]. */
  readonly path: readonly string[];
  /** Body: the schema of each node along `path`, to create missing parents. */
  readonly chain: readonly (JsonSchema | undefined)[];
}

function objectBranches(schema: JsonSchema): JsonSchema[] {
  const out: JsonSchema[] = [];
  if (schema['properties']) out.push(schema);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches as JsonSchema[]) out.push(...objectBranches(b));
  }
  return out;
}

function arrayItems(schema: JsonSchema): JsonSchema | undefined {
  if (schema['type'] === 'array' && schema['items']) return schema['items'] as JsonSchema;
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches as JsonSchema[]) if (b['type'] === 'array' && b['items']) return b['items'] as JsonSchema;
  }
  return undefined;
}

const MAX_TARGET_DEPTH = 4;

/** Every member of a body schema, nested objects and array items included (a few levels). */
function bodyTargets(schema: JsonSchema, name: string | undefined, at: readonly string[], chain: readonly (JsonSchema | undefined)[]): Target[] {
  if (at.length >= MAX_TARGET_DEPTH) return [];
  const out: Target[] = [];
  const items = arrayItems(schema);
  if (items) {
    const t: Target = { where: 'body', name, schema: items, path: [...at, '0'], chain: [...chain, items] };
    out.push(t, ...bodyTargets(items, name, t.path, t.chain));
  }
  for (const branch of objectBranches(schema)) {
    for (const [key, prop] of Object.entries(branch['properties'] as Record<string, JsonSchema>)) {
      const t: Target = { where: 'body', name: key, schema: prop, path: [...at, key], chain: [...chain, prop] };
      out.push(t, ...bodyTargets(prop, key, t.path, t.chain));
    }
  }
  return out;
}

function targetsOf(op: Operation): Target[] {
  const out: Target[] = [];
  if (op.body?.kind === 'json') {
    const schema = op.body.schema;
    out.push({ where: 'body', schema, path: [], chain: [] });
    out.push({ where: 'body', name: UNKNOWN_MEMBER, path: [UNKNOWN_MEMBER], chain: [undefined] });
    out.push(...bodyTargets(schema, undefined, [], []));
  } else if (op.body?.kind === 'signed-json') {
    out.push({ where: 'body', path: [], chain: [] });
    out.push({ where: 'body', name: UNKNOWN_MEMBER, path: [UNKNOWN_MEMBER], chain: [undefined] });
  }
  for (const p of op.queryParams) out.push({ where: 'query', name: p.name, schema: p.schema, path: [p.name], chain: [] });
  if (op.queryParams.length > 0 || op.pathParams.length > 0) out.push({ where: 'query', name: UNKNOWN_MEMBER, path: [UNKNOWN_MEMBER], chain: [] });
  for (const p of op.pathParams) out.push({ where: 'path', name: p.name, schema: p.schema, path: [p.name], chain: [] });
  return out;
}

/** The body a case starts from: required members, plus one hinted member when none is required. */
export function baseBody(op: Operation): JsonLike | undefined {
  if (op.body?.kind === 'signed-json') return {};
  if (op.body?.kind !== 'json') return undefined;
  const schema = op.body.schema;
  const body = (baseValue(schema, BASE_HINTS) ?? {}) as Record<string, JsonLike>;
  if (((schema['required'] ?? []) as string[]).length === 0) {
    // "Exactly one of" bodies (enrich, audience preview) are refused empty: give them their hinted member.
    for (const [key, prop] of Object.entries((schema['properties'] ?? {}) as Record<string, JsonSchema>)) {
      const hinted = BASE_HINTS.byName[key]?.[0];
      if (hinted !== undefined && validates(schema, { ...body, [key]: hinted }) && validates(prop, hinted)) return { ...body, [key]: hinted };
    }
  }
  return body;
}

type Mutable = Record<string, JsonLike> | JsonLike[];

const isContainer = (v: JsonLike | undefined): v is Mutable => v !== null && typeof v === 'object' && !(v instanceof RawJson);

/** A copy of `body` with `value` at the target's path; parents are copied, not changed. */
function setAt(body: JsonLike, target: Target, value: JsonLike): JsonLike {
  if (target.path.length === 0) return value;
  if (!isContainer(body) || Array.isArray(body)) return body; // the whole body was already replaced
  const root: Record<string, JsonLike> = { ...body };
  let node: Mutable = root;
  target.path.forEach((key, i) => {
    const last = i === target.path.length - 1;
    const holder = node as Record<string, JsonLike>;
    if (last) {
      holder[key] = value;
      return;
    }
    const wantArray = target.path[i + 1] === '0';
    const existing = holder[key];
    let child: Mutable;
    if (isContainer(existing) && Array.isArray(existing) === wantArray) child = Array.isArray(existing) ? [...existing] : { ...existing };
    else {
      const fresh = baseValue(target.chain[i] ?? {}, BASE_HINTS, key) as JsonLike | undefined;
      child = isContainer(fresh ?? null) && Array.isArray(fresh) === wantArray ? (fresh as Mutable) : wantArray ? [] : {};
    }
    holder[key] = child as JsonLike;
    node = child;
  });
  return root;
}

/** Every member of the schema as null, nested objects' members too. */
function nullEverywhere(schema: JsonSchema | undefined, nested: boolean): JsonLike {
  const out: Record<string, JsonLike> = {};
  for (const branch of objectBranches(schema ?? {})) {
    for (const [key, prop] of Object.entries(branch['properties'] as Record<string, JsonSchema>)) {
      out[key] = nested && objectBranches(prop).length > 0 ? nullEverywhere(prop, true) : null;
    }
  }
  return out;
}

/** A JSON value as the text of a query or path parameter. */
function asParameterText(value: JsonLike): string | Buffer {
  if (value instanceof RawJson) return value.chunk;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  return renderJson(value).toString('utf8');
}

/** Query pairs for one parameter: an array repeats it, an object becomes `name[key]=…`, null a bare name. */
function queryPairs(name: string, value: JsonLike): string[] {
  if (value === null) return [percentEncode(name)];
  if (Array.isArray(value)) return value.length === 0 ? [`${percentEncode(name)}=`] : (value as JsonLike[]).map((v) => `${percentEncode(name)}=${percentEncode(asParameterText(v))}`);
  if (isContainer(value)) return Object.entries(value).map(([k, v]) => `${percentEncode(`${name}[${k}]`)}=${percentEncode(asParameterText(v))}`);
  return [`${percentEncode(name)}=${percentEncode(asParameterText(value))}`];
}

interface Mutation {
  readonly target: Target;
  readonly hostile: HostileValue;
}

function where(t: Target): string {
  if (t.where !== 'body') return `${t.where}.${t.name ?? ''}`;
  return t.path.length === 0 ? 'body' : `body.${t.path.join('.')}`;
}

function mutationArbitrary(op: Operation, kind: MutationKind, targets: readonly Target[]): fc.Arbitrary<Mutation> {
  const pickTarget = (ts: readonly Target[]): fc.Arbitrary<Target> => fc.constantFrom(...ts);
  let target = pickTarget(targets);
  // Dates go mostly where dates belong; odd URLs and addresses often where those belong.
  const preferred =
    kind === 'dates' ? { targets: targets.filter(isDateLike), weight: 3, rest: 1 } : kind === 'strings' ? { targets: targets.filter(isAddressLike), weight: 1, rest: 3 } : undefined;
  if (preferred && preferred.targets.length > 0) {
    target = fc.oneof({ weight: preferred.weight, arbitrary: pickTarget(preferred.targets) }, { weight: preferred.rest, arbitrary: pickTarget(targets) });
  }
  const single = target.chain((t) => hostileValue(kind, t).map((hostile) => ({ target: t, hostile })));
  if (kind !== 'wrong-types' || op.body?.kind !== 'json') return single;
  // "null everywhere": every member of the body at once, top level or all the way down.
  const schema = op.body.schema;
  const everywhere = fc.boolean().map<Mutation>((nested) => ({
    target: { where: 'body', schema, path: [], chain: [] },
    hostile: { value: nullEverywhere(schema, nested), label: nested ? 'null in every member, nested too' : 'null in every member' },
  }));
  return fc.oneof({ weight: 5, arbitrary: single }, { weight: 1, arbitrary: everywhere });
}

interface Draft {
  readonly withKey: boolean;
  readonly pathBase: readonly string[];
  readonly mutations: readonly Mutation[];
}

function draftArbitrary(op: Operation, kind: MutationKind, pool: PathIdPool): fc.Arbitrary<Draft> {
  const targets = targetsOf(op);
  const pathBase = op.pathParams.map((p) => {
    const ids = pool(op, p.name);
    const fallback = String(baseValue(p.schema, BASE_HINTS, p.name) ?? 'x');
    return ids.length > 0 ? fc.constantFrom(...ids) : fc.constant(fallback);
  });
  return fc.record({
    // One case in five without credentials: it must be a 401 whatever the rest holds.
    withKey: op.surface === 'none' ? fc.constant(true) : fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    pathBase: fc.tuple(...pathBase),
    mutations: fc.array(mutationArbitrary(op, kind, targets), { minLength: 1, maxLength: 2 }),
  });
}

function assemble(op: Operation, kind: MutationKind, draft: Draft, origin: FuzzCase['origin'], index: number): FuzzCase {
  let body = baseBody(op);
  const query = new Map<string, JsonLike>();
  for (const p of op.queryParams) {
    if (!p.required) continue;
    const v = baseValue(p.schema, BASE_HINTS, p.name);
    if (v !== undefined) query.set(p.name, String(v) as JsonLike);
  }
  const pathValues = new Map<string, JsonLike>(op.pathParams.map((p, i) => [p.name, draft.pathBase[i] ?? 'x']));
  for (const { target, hostile } of draft.mutations) {
    if (target.where === 'body') body = setAt(body ?? {}, target, hostile.value);
    else if (target.where === 'query') query.set(target.name ?? UNKNOWN_MEMBER, hostile.value);
    else pathValues.set(target.name ?? '', hostile.value);
  }
  let routed = true;
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const segment = percentEncode(asParameterText(pathValues.get(name) ?? 'x'));
    if (segment === '') routed = false;
    return segment;
  });
  const pairs = [...query].flatMap(([name, value]) => queryPairs(name, value));
  const url = pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
  const mutations = draft.mutations.map(({ target, hostile }) => `${where(target)} = ${hostile.label}`);
  const common = { index, operation: op, kind, origin, withKey: draft.withKey, routed, mutations, url };
  if (op.body?.kind === 'other') return { ...common, contentType: op.body.contentType, body: Buffer.alloc(0) };
  if (body === undefined) return common;
  return { ...common, contentType: 'application/json', body: renderJson(body), bodyShape: describeJson(body) };
}

/** A 31-bit seed for one (operation, kind): each keeps its cases when another route is added. */
function seedFor(seed: number, op: Operation, kind: MutationKind): number {
  return createHash('sha256').update(`${seed}\n${op.label}\n${kind}`).digest().readUInt32BE(0) & 0x7fffffff;
}

/**
 * Edge cases (edge-values.ts): 'all' tries every edge value at every target where it applies;
 * 'sample' (the bounded run in the suite) keeps every deep-nesting, number and date value but
 * one string and one wrong type per target, in turn, so each value is still tried somewhere.
 */
export type EdgeCoverage = 'all' | 'sample' | 'none';

function* edgeDrafts(op: Operation, coverage: EdgeCoverage, pool: PathIdPool): Generator<{ kind: MutationKind; draft: Draft }> {
  if (coverage === 'none') return;
  // The account's own object: the request gets past the lookup to the code that uses the value.
  const pathBase = op.pathParams.map((p) => pool(op, p.name)[0] ?? String(baseValue(p.schema, BASE_HINTS, p.name) ?? 'x'));
  let turn = 0;
  for (const target of targetsOf(op)) {
    for (const kind of MUTATION_KINDS) {
      const values = edgeValues(kind, target);
      if (values.length === 0) continue;
      const rotate = coverage === 'sample' && (kind === 'strings' || kind === 'wrong-types');
      for (const hostile of rotate ? [values[turn++ % values.length] as HostileValue] : values) {
        yield { kind, draft: { withKey: true, pathBase, mutations: [{ target, hostile }] } };
      }
    }
  }
}

export interface CaseOptions {
  /** Random cases in all; spread evenly over operations, and over the five kinds within each. */
  readonly random: number;
  readonly edges: EdgeCoverage;
  readonly seed: number;
  readonly pool: PathIdPool;
}

/** Random cases per operation: `ceil(random / operations)`. */
export function randomCasesPerOperation(operations: readonly Operation[], random: number): number {
  return Math.ceil(random / Math.max(1, operations.length));
}

/**
 * The run's cases, operation by operation: its edge cases, then its random ones, the kinds in
 * turn. Lazy: bodies of a few hundred KB are made as they are sent, not thousands held at once.
 */
export function* generateCases(operations: readonly Operation[], o: CaseOptions): Generator<FuzzCase> {
  const perOperation = randomCasesPerOperation(operations, o.random);
  let index = 0;
  for (const op of operations) {
    for (const { kind, draft } of edgeDrafts(op, o.edges, o.pool)) yield assemble(op, kind, draft, 'edge', index++);
    const byKind = MUTATION_KINDS.map((kind, k) => {
      // Kind k gets its share of the operation's cases, the first kinds one more when they do not divide.
      const n = Math.floor(perOperation / MUTATION_KINDS.length) + (k < perOperation % MUTATION_KINDS.length ? 1 : 0);
      return n === 0 ? [] : fc.sample(draftArbitrary(op, kind, o.pool), { seed: seedFor(o.seed, op, kind), numRuns: n }).map((draft) => ({ kind, draft }));
    });
    for (let i = 0; i < perOperation; i++) {
      for (const entries of byKind) {
        const entry = entries[i];
        if (entry) yield assemble(op, entry.kind, entry.draft, 'random', index++);
      }
    }
  }
}
