import { DEFAULT_SETTINGS, positiveInt } from './schemathesis';

/**
 * The two phases of `npm run fuzz`, on the same service and seeded accounts:
 * - `mutations` (fuzz/mutation-*.ts): hostile values in every member and parameter of every
 *   operation that takes JSON or parameters, with and without a key; no 5xx allowed;
 * - `schemathesis` (fuzz/schemathesis.ts): schema-driven cases checked against the document.
 * FUZZ_PHASES picks them (comma-separated); both by default, mutations first, on a fresh service.
 */
export const PHASES = ['mutations', 'schemathesis'] as const;
export type Phase = (typeof PHASES)[number];

export function phasesFromEnv(env: NodeJS.ProcessEnv = process.env): Phase[] {
  const raw = env['FUZZ_PHASES'];
  if (raw === undefined || raw.trim() === '') return [...PHASES];
  const names = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const name of names) if (!(PHASES as readonly string[]).includes(name)) throw new Error(`FUZZ_PHASES=${raw}: expected ${PHASES.join(' and/or ')}`);
  // In the fixed order, whatever order they were named in.
  return PHASES.filter((p) => names.includes(p));
}

/** The bar for one run of the mutation phase. */
export const MIN_MUTATION_CASES = 5_000;

export interface MutationSettings {
  /** Random cases, spread evenly over the operations (FUZZ_MUTATION_CASES); every edge case runs besides. */
  readonly random: number;
  readonly seed: number;
  /** Requests in flight (FUZZ_WORKERS, shared with schemathesis' workers). */
  readonly concurrency: number;
}

export function mutationSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): MutationSettings {
  return {
    random: positiveInt(env, 'FUZZ_MUTATION_CASES', 4_000),
    seed: positiveInt(env, 'FUZZ_SEED', DEFAULT_SETTINGS.seed),
    concurrency: positiveInt(env, 'FUZZ_WORKERS', DEFAULT_SETTINGS.workers),
  };
}
