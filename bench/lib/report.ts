import type { Measurement } from './load';
import type { ScenarioResult } from './scenario';

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
}

const us = (v: number | undefined): string => (v === undefined ? '-' : v.toFixed(0));

function row(m: Measurement): string[] {
  const cpu = m.cpuUsPerRequest ?? {};
  return [
    m.label,
    m.requestsPerSec.toFixed(0),
    m.latencyP50Ms.toFixed(1),
    m.latencyP99Ms.toFixed(1),
    m.latencyMaxMs.toFixed(0),
    String(m.total),
    us(cpu.server),
    us(cpu.postgres),
    us(cpu.loadgen),
  ];
}

/** The scenario's table (req/s, latencies) and its ratios, with target checks. */
export function formatResult(name: string, result: ScenarioResult, settingsLine: string): string {
  const header = ['server', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'requests', 'server CPU us/req', 'pg CPU us/req', 'loadgen CPU us/req'];
  const rows = result.measurements.map(row);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const lines = [`\n== ${name} ==  (${settingsLine})`, pad(header, widths), pad(widths.map((w) => '-'.repeat(w)), widths), ...rows.map((r) => pad(r, widths))];
  const byLabel = new Map(result.measurements.map((m) => [m.label, m]));
  if (result.ratios.length > 0) lines.push('');
  const nameWidth = Math.max(0, ...result.ratios.map((r) => r.numerator.length + r.denominator.length + 1));
  for (const r of result.ratios) {
    const num = byLabel.get(r.numerator);
    const den = byLabel.get(r.denominator);
    if (!num || !den) {
      lines.push(`${r.numerator}/${r.denominator}: (not measured)`);
      continue;
    }
    const ratio = num.requestsPerSec / den.requestsPerSec;
    const p99 = num.latencyP99Ms / den.latencyP99Ms;
    // A target such as 1/3 is printed to three decimals.
    const target = r.target === undefined ? '' : String(Number(r.target.toFixed(3)));
    const verdict = r.target === undefined ? '' : ratio >= r.target ? `  OK (target >= ${target})` : `  BELOW TARGET (>= ${target})`;
    lines.push(`${`${r.numerator}/${r.denominator}`.padEnd(nameWidth)} req/s ratio ${ratio.toFixed(2)}   p99 ratio ${p99.toFixed(2)}x${verdict}`);
  }
  for (const n of result.notes ?? []) lines.push(n);
  return lines.join('\n');
}

/** True when every targeted ratio is met. */
export function targetsMet(result: ScenarioResult): boolean {
  const byLabel = new Map(result.measurements.map((m) => [m.label, m]));
  return result.ratios.every((r) => {
    if (r.target === undefined) return true;
    const num = byLabel.get(r.numerator);
    const den = byLabel.get(r.denominator);
    return !!num && !!den && num.requestsPerSec / den.requestsPerSec >= r.target;
  });
}
