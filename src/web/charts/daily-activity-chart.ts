/**
 * The daily chart of a campaign (sent, opened, clicked, replied per local day), one vega-lite spec
 * shared by the campaign page (as SVG) and the emailed report (as PNG): render-chart.ts draws it.
 * Pure: no I/O; the days come from dailyActivity (src/campaigns/reporting/daily-activity.ts).
 */

/** A day as the chart reads it: the counts of dailyActivity. */
export interface ChartDay {
  /** YYYY-MM-DD */
  readonly date: string;
  readonly sent: number;
  readonly opened: number;
  readonly clicked: number;
  readonly replied: number;
}

/** The series, in legend order, with colours from the Okabe-Ito palette (told apart with colour-blindness, on white). */
export const DAILY_SERIES = [
  { field: 'sent', label: 'Sent', colour: '#0072B2' },
  { field: 'opened', label: 'Opened', colour: '#E69F00' },
  { field: 'clicked', label: 'Clicked', colour: '#009E73' },
  { field: 'replied', label: 'Replied', colour: '#CC3311' },
] as const;

/** The name of the spec's data source: render-chart.ts feeds the days into it. */
export const DAILY_DATA = 'days';

/** Fonts the PNG renderer finds on a Debian host (Liberation, DejaVu); browsers take the first they have. */
export const CHART_FONT = 'Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif';

export interface DailyChartOptions {
  /** The chart's title, read by screen readers too (the SVG's aria-label carries the description). */
  readonly title?: string;
  readonly width?: number;
  readonly height?: number;
}

/** A vega-lite spec (kept as a plain object: the types of vega-lite are ESM-only). */
export type ChartSpec = Record<string, unknown> & { readonly data: { readonly name: string; readonly values: readonly object[] } };

/** The spec of the daily chart over `days` (oldest first). */
export function dailyActivityChart(days: readonly ChartDay[], opts: DailyChartOptions = {}): ChartSpec {
  const first = days[0]?.date;
  const last = days[days.length - 1]?.date;
  const total = (k: keyof Omit<ChartDay, 'date'>): number => days.reduce((n, d) => n + d[k], 0);
  const summary = DAILY_SERIES.map((s) => `${total(s.field)} ${s.label.toLowerCase()}`).join(', ');
  const labels = Object.fromEntries(DAILY_SERIES.map((s) => [s.field, s.label]));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description: `Line chart of emails per day${first === undefined ? '' : ` from ${first} to ${last}`}: ${summary}.`,
    title: { text: opts.title ?? 'Daily activity', anchor: 'start', fontSize: 14, fontWeight: 'bold', color: '#1f2933' },
    width: opts.width ?? 560,
    height: opts.height ?? 220,
    background: '#ffffff',
    padding: 8,
    data: { name: DAILY_DATA, values: days },
    transform: [{ fold: DAILY_SERIES.map((s) => s.field), as: ['series', 'emails'] }],
    // No label per point: the description gives the totals, and 120 points read out are noise.
    mark: { type: 'line', strokeWidth: 2, point: { size: 28, filled: true, aria: false }, aria: false },
    encoding: {
      x: {
        field: 'date',
        type: 'temporal',
        scale: { type: 'utc' },
        title: null,
        axis: { format: '%-d %b', labelAngle: 0, labelOverlap: 'greedy', grid: false },
      },
      y: { field: 'emails', type: 'quantitative', title: 'Emails', axis: { tickMinStep: 1, format: 'd' }, scale: { domainMin: 0, nice: true } },
      color: {
        field: 'series',
        type: 'nominal',
        title: null,
        scale: { domain: DAILY_SERIES.map((s) => s.field), range: DAILY_SERIES.map((s) => s.colour) },
        legend: { orient: 'top', direction: 'horizontal', labelExpr: `${JSON.stringify(labels)}[datum.label]`, labelFontSize: 12, symbolStrokeWidth: 3 },
      },
    },
    config: {
      font: CHART_FONT,
      view: { stroke: null },
      axis: { labelColor: '#3e4c59', titleColor: '#3e4c59', labelFontSize: 11, titleFontSize: 11, gridColor: '#e4e7eb', domainColor: '#9aa5b1' },
    },
  };
}
