import { Pool } from 'undici';
import { generateCases, type EdgeCoverage, type FuzzCase } from './mutation-cases';
import { Tally, type Answer } from './mutation-report';
import type { Operation } from './operations';
import type { PathIdPool } from './seeded-ids';

/**
 * Sends the mutation cases to a running service over real HTTP and counts the answers. The
 * service's own URL parsing, body parser, validation and handlers see every request exactly as
 * generated (undici sends the path and bytes as given).
 */
export interface MutationRunOptions {
  readonly baseUrl: string;
  /** A key of the fuzzer's account: valid on both surfaces, sent in each surface's own header. */
  readonly apiKey: string;
  readonly operations: readonly Operation[];
  /** Random cases in all (spread over the operations), besides the edge cases. */
  readonly random: number;
  readonly edges: EdgeCoverage;
  readonly seed: number;
  readonly pool: PathIdPool;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Longest wait for one answer; past it the case fails as "no answer". */
  readonly requestTimeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number) => void;
}

const KEPT_RESPONSE_CHARS = 2_000;

/** The X-Request-Id of case `index`: the service logs it with any error the case caused. */
export const requestIdOf = (index: number): string => `fuzz-${index}`;

function headersFor(c: FuzzCase, apiKey: string): Record<string, string> {
  const headers: Record<string, string> = { 'x-request-id': requestIdOf(c.index) };
  if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  if (c.withKey && c.operation.surface === 'a') headers['authorization'] = `Bearer ${apiKey}`;
  if (c.withKey && c.operation.surface === 'b') headers['x-api-key'] = apiKey;
  return headers;
}

async function send(client: Pool, c: FuzzCase, apiKey: string, timeoutMs: number): Promise<Answer> {
  try {
    const res = await client.request({
      method: c.operation.method as 'GET',
      path: c.url,
      headers: headersFor(c, apiKey),
      body: c.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    const type = res.headers['content-type'];
    return { status: res.statusCode, contentType: Array.isArray(type) ? type[0] : type, text: text.slice(0, KEPT_RESPONSE_CHARS) };
  } catch (err) {
    return { text: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

/** Runs every case (`concurrency` at a time) and returns the tally; it never throws for a bad answer. */
export async function runMutations(o: MutationRunOptions): Promise<Tally> {
  const tally = new Tally();
  const client = new Pool(o.baseUrl, { connections: o.concurrency, pipelining: 1 });
  const cases = generateCases(o.operations, { random: o.random, edges: o.edges, seed: o.seed, pool: o.pool });
  const timeoutMs = o.requestTimeoutMs ?? 30_000;
  // Workers share one generator: each takes the next case when its previous answer is in.
  const worker = async (): Promise<void> => {
    for (;;) {
      if (o.signal?.aborted) return;
      const next = cases.next();
      if (next.done) return;
      tally.record(next.value, await send(client, next.value, o.apiKey, timeoutMs));
      o.onProgress?.(tally.cases);
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    await client.close();
  }
  return tally;
}
