import { MUTATION_KINDS, type MutationKind } from './hostile-values';
import type { FuzzCase } from './mutation-cases';

/**
 * What the mutation run counts and how it judges one answer. Pure: the run (mutation-run.ts)
 * feeds it answers, `formatTally` prints the figures and every failure with its request.
 */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'no answer'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export function statusClass(status: number | undefined): StatusClass {
  if (status === undefined || status < 200) return 'no answer';
  if (status < 300) return '2xx';
  if (status < 400) return '3xx';
  if (status < 500) return '4xx';
  return '5xx';
}

export interface Answer {
  /** Undefined when the request got no answer (connection dropped, timed out). */
  readonly status?: number;
  readonly contentType?: string;
  /** The response body (cut), or the transport error. */
  readonly text: string;
}

const STACK_TRACE = /\bat .*\.[jt]s:\d+|node_modules/;

/**
 * Why an answer fails the run, or undefined when it is fine. A 5xx or no answer at all; a route
 * that requires a key answering anything but 401 to a request without one; a 4xx whose body is
 * not the API's `{"error": "..."}`, or the route's documented error object with such an `error`
 * (a 409 with its `reason`) (431 is the HTTP server's, before the application: no body).
 */
export function problemWith(c: FuzzCase, answer: Answer): string | undefined {
  const { status } = answer;
  if (status === undefined) return `no answer (${answer.text})`;
  if (status >= 500) return `answered ${status}`;
  // 431: the HTTP server refuses a URL over 64 KB before any route runs, key or not. A URL that
  // no longer names the route (an empty path segment) is answered by whatever it names.
  if (!c.withKey && c.operation.surface !== 'none' && c.routed && status !== 401 && status !== 431) return `answered ${status} without credentials, not 401`;
  if (status >= 400 && status !== 431) {
    const documented = c.operation.responses.get(status);
    const documentedJson = documented?.json ?? false;
    const isJson = (answer.contentType ?? '').startsWith('application/json');
    if (!documentedJson && !isJson) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    const error = (body as { error?: unknown } | undefined)?.error;
    const allowed = new Set(['error', ...(documented?.members ?? [])]);
    const onlyError = body !== null && typeof body === 'object' && Object.keys(body).every((k) => allowed.has(k)) && typeof error === 'string' && error !== '';
    if (!onlyError) return `answered ${status} with a body that is not {"error": "..."}`;
    if (STACK_TRACE.test(error)) return `answered ${status} with a stack trace in its error`;
  }
  return undefined;
}

export interface Failure {
  readonly fuzzCase: FuzzCase;
  readonly answer: Answer;
  readonly problem: string;
  /** The service's own account of it (its logged error), when the log is at hand. */
  serverError?: string;
}

/** Failures past this many keep their description but not their body (8,000 levels on every route add up). */
const KEPT_BODIES = 200;

type Counts = Record<StatusClass, number>;
const zero = (): Counts => ({ '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, 'no answer': 0 });

export class Tally {
  cases = 0;
  edgeCases = 0;
  withoutKey = 0;
  readonly byClass: Counts = zero();
  readonly byRoute = new Map<string, Counts>();
  readonly byKind = new Map<MutationKind, Counts>(MUTATION_KINDS.map((k) => [k, zero()]));
  readonly failures: Failure[] = [];

  /** Counts one answer; returns its failure, if it is one. */
  record(c: FuzzCase, answer: Answer): Failure | undefined {
    const cls = statusClass(answer.status);
    this.cases++;
    if (c.origin === 'edge') this.edgeCases++;
    if (!c.withKey) this.withoutKey++;
    this.byClass[cls]++;
    const route = this.byRoute.get(c.operation.label) ?? zero();
    route[cls]++;
    this.byRoute.set(c.operation.label, route);
    (this.byKind.get(c.kind) as Counts)[cls]++;
    const problem = problemWith(c, answer);
    if (problem === undefined) return undefined;
    const failure: Failure = { fuzzCase: this.failures.length < KEPT_BODIES ? c : { ...c, body: undefined }, answer, problem };
    this.failures.push(failure);
    return failure;
  }
}

const total = (c: Counts): number => STATUS_CLASSES.reduce((sum, k) => sum + c[k], 0);
const classes = (c: Counts): string =>
  STATUS_CLASSES.filter((k) => c[k] > 0)
    .map((k) => `${k} ${c[k]}`)
    .join(', ');

export interface FormatOptions {
  readonly seed: number;
  /** Operations the run leaves out, named in the report. */
  readonly skipped?: readonly string[];
  /** How many distinct failures are printed in full; the rest are counted. */
  readonly maxFailures?: number;
  /** A command that replays a failure (full run: curl with the body file), else the request is described. */
  readonly replay?: (f: Failure) => string | undefined;
}

/** A failure as a person replays it: route, what was mutated, the request, the answer, the service's error. */
export function describeFailure(f: Failure, replay?: string): string[] {
  const c = f.fuzzCase;
  const lines = [
    `${c.operation.label} [${c.origin} ${c.kind}${c.withKey ? '' : ', no key'}]: ${f.problem}`,
    `    mutated: ${c.mutations.join('; ')}`,
    `    request: ${c.operation.method} ${c.url.length > 300 ? `${c.url.slice(0, 300)}…(${c.url.length} chars)` : c.url}`,
  ];
  if (c.bodyShape !== undefined) lines.push(`    body (${c.body?.length ?? 0} bytes): ${c.bodyShape.length > 600 ? `${c.bodyShape.slice(0, 600)}…` : c.bodyShape}`);
  lines.push(`    answer: ${f.answer.status ?? '-'} ${f.answer.text.slice(0, 200)}`);
  if (f.serverError !== undefined) lines.push(`    service log: ${f.serverError}`);
  if (replay !== undefined) lines.push(`    replay: ${replay}`);
  return lines;
}

/**
 * Failures that are one bug many times (8,000 levels of nesting on every route) are shown once
 * per route, problem and logged error, with their count.
 */
function groupFailures(failures: readonly Failure[]): { first: Failure; count: number }[] {
  const groups = new Map<string, { first: Failure; count: number }>();
  for (const f of failures) {
    const key = `${f.fuzzCase.operation.label}\n${f.problem}\n${f.serverError ?? f.fuzzCase.kind}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { first: f, count: 1 });
  }
  return [...groups.values()];
}

export function formatTally(t: Tally, o: FormatOptions): string[] {
  const lines: string[] = [];
  lines.push(
    `fuzz mutations: ${t.cases} cases (${t.edgeCases} edge, ${t.cases - t.edgeCases} random with seed ${o.seed}; ${t.withoutKey} without credentials): ${classes(t.byClass) || 'none'}`,
  );
  lines.push(`  by kind: ${[...t.byKind].map(([k, c]) => `${k} ${total(c)} (${classes(c) || '-'})`).join('; ')}`);
  lines.push('  by route:');
  const width = Math.max(0, ...[...t.byRoute.keys()].map((k) => k.length));
  for (const [route, c] of t.byRoute) lines.push(`    ${route.padEnd(width)}  ${String(total(c)).padStart(5)}  ${classes(c)}`);
  if (o.skipped && o.skipped.length > 0) lines.push(`  not mutated (no JSON body, no parameters): ${o.skipped.join(', ')}`);
  const groups = groupFailures(t.failures);
  lines.push(`fuzz mutations: ${t.failures.length} failures${groups.length > 0 ? ` (${groups.length} distinct)` : ''}`);
  const max = o.maxFailures ?? 30;
  groups.slice(0, max).forEach((g, i) => {
    const [head, ...rest] = describeFailure(g.first, o.replay?.(g.first));
    lines.push(`  ${i + 1}. ${head}${g.count > 1 ? ` (${g.count} cases like it)` : ''}`, ...rest);
  });
  if (groups.length > max) lines.push(`  … and ${groups.length - max} more distinct failures`);
  return lines;
}
