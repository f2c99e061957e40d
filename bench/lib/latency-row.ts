import type { Measurement } from './load';
import { percentile } from './wait-until';

/**
 * A report row from per-item latencies (ms) measured by a scenario itself (not by autocannon):
 * the rate the row achieved, and CPU per item when the scenario measured it.
 */
export function latencyRow(label: string, latencies: readonly number[], perSec: number, cpuUsPerItem?: Measurement['cpuUsPerRequest']): Measurement {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    label,
    requestsPerSec: perSec,
    latencyP50Ms: percentile(sorted, 50),
    latencyP99Ms: percentile(sorted, 99),
    latencyMaxMs: sorted[sorted.length - 1] ?? 0,
    total: sorted.length,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    statusCodes: {},
    cpuUsPerRequest: cpuUsPerItem,
  };
}
