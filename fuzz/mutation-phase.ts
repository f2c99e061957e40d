import fs from 'node:fs';
import path from 'node:path';
import { requestIdOf, runMutations } from './mutation-run';
import { formatTally, type Failure, type Tally } from './mutation-report';
import { fuzzableOperations, type OpenApiDocument } from './operations';
import { MIN_MUTATION_CASES, type MutationSettings } from './phases';
import { pathIdPool } from './seeded-ids';
import type { Seed } from './seed';
import { serverErrorsByRequestId } from './service-log';

/**
 * The mutation phase of `npm run fuzz` (see phases.ts): the run itself, then, once the service
 * has stopped and its log is complete, the report: counts, and each failure with the error the
 * service logged for it and a curl line that replays it byte for byte.
 */
export interface MutationPhase {
  readonly tally: Tally;
  readonly skipped: readonly string[];
}

export async function runMutationPhase(o: {
  readonly baseUrl: string;
  readonly doc: OpenApiDocument;
  readonly seed: Seed;
  readonly settings: MutationSettings;
  readonly abort: AbortSignal;
  readonly out: (line: string) => void;
}): Promise<MutationPhase> {
  const { fuzzed, skipped } = fuzzableOperations(o.doc);
  o.out(`fuzz: mutations: every edge case and ${o.settings.random} random ones over ${fuzzed.length} operations (seed ${o.settings.seed}, ${o.settings.concurrency} in flight)`);
  const started = Date.now();
  const tally = await runMutations({
    baseUrl: o.baseUrl,
    apiKey: o.seed.apiKey,
    operations: fuzzed,
    random: o.settings.random,
    edges: 'all',
    seed: o.settings.seed,
    pool: pathIdPool(o.seed),
    concurrency: o.settings.concurrency,
    signal: o.abort,
    onProgress: (done) => {
      if (done % 1000 === 0) o.out(`fuzz: mutations: ${done} cases sent`);
    },
  });
  o.out(`fuzz: mutations: ${tally.cases} cases in ${((Date.now() - started) / 1000).toFixed(0)} s (the report follows once the service has stopped)`);
  return { tally, skipped: skipped.map((op) => op.label) };
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Writes the failing bodies to `dir` and returns a curl line per failure (the body from its file). */
function replayer(dir: string, baseUrl: string, apiKey: string): (f: Failure) => string | undefined {
  return (f) => {
    const c = f.fuzzCase;
    const parts = ['curl -sS', '-X', c.operation.method, shellQuote(`${baseUrl}${c.url}`)];
    if (c.withKey && c.operation.surface === 'a') parts.push('-H', shellQuote(`Authorization: Bearer ${apiKey}`));
    if (c.withKey && c.operation.surface === 'b') parts.push('-H', shellQuote(`X-API-Key: ${apiKey}`));
    if (c.contentType !== undefined) parts.push('-H', shellQuote(`Content-Type: ${c.contentType}`));
    if (c.body !== undefined) {
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `case-${c.index}.body`);
      fs.writeFileSync(file, c.body);
      parts.push('--data-binary', shellQuote(`@${file}`));
    }
    return parts.join(' ');
  };
}

/**
 * The phase's report lines and what fails the run: any failure (a 5xx first of all), or fewer
 * cases than the bar. `serviceLog` is the service's whole log, read after it stopped.
 */
export function mutationVerdict(
  phase: MutationPhase,
  o: { readonly settings: MutationSettings; readonly serviceLog: string; readonly reportDir: string; readonly baseUrl: string; readonly apiKey: string },
): { lines: string[]; problems: string[] } {
  const errors = serverErrorsByRequestId(o.serviceLog);
  for (const f of phase.tally.failures) f.serverError = errors.get(requestIdOf(f.fuzzCase.index));
  const lines = formatTally(phase.tally, {
    seed: o.settings.seed,
    skipped: phase.skipped,
    replay: replayer(path.join(o.reportDir, 'mutation-failures'), o.baseUrl, o.apiKey),
  });
  const problems: string[] = [];
  const fivexx = phase.tally.byClass['5xx'];
  if (phase.tally.failures.length > 0) problems.push(`mutations: ${phase.tally.failures.length} failures (${fivexx} answers of 5xx): see above`);
  if (phase.tally.cases < MIN_MUTATION_CASES) problems.push(`mutations: ${phase.tally.cases} cases, fewer than ${MIN_MUTATION_CASES}: raise FUZZ_MUTATION_CASES`);
  return { lines, problems };
}
