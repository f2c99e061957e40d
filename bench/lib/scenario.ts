import type { BenchContext } from './context';
import type { Measurement } from './load';

/** stack/floor-style comparison: requests/s of `numerator` divided by that of `denominator`. */
export interface RatioSpec {
  readonly numerator: string;
  readonly denominator: string;
  /** When set, the ratio is reported as below target if it is lower. */
  readonly target?: number;
}

export interface ScenarioResult {
  readonly measurements: readonly Measurement[];
  readonly ratios: readonly RatioSpec[];
  /** Free-form lines printed under the table (body size, what each row is, ...). */
  readonly notes?: readonly string[];
}

/**
 * One benchmark. A scenario starts its servers through the context (which stops them whatever
 * happens), measures them with bench/lib/load.ts and returns rows plus the ratios to print.
 */
export interface Scenario {
  readonly name: string;
  readonly description: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}
