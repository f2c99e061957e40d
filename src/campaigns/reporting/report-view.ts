/**
 * An emailed report's figures as the reader sees them: every number formatted once, shared by the
 * HTML part (src/web/templates/emails/campaign-report.eta) and the plain-text part, so both say the
 * same. Pure.
 */
import type { ReportKind } from '../../../workflows/reports/contract';
import { localDate } from '../model/calendar';
import type { PeriodReport, StepFigures } from './period-report';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const part = (date: string): { d: number; m: string; y: string } => ({ d: Number(date.slice(8, 10)), m: MONTHS[Number(date.slice(5, 7)) - 1]!, y: date.slice(0, 4) });

/** `16–22 Nov 2026`, `28 Nov – 4 Dec 2026`, `28 Dec 2026 – 3 Jan 2027`, `16 Nov 2026` (local dates, inclusive). */
export function dateRange(first: string, last: string): string {
  const a = part(first);
  const b = part(last);
  if (first === last) return `${a.d} ${a.m} ${a.y}`;
  if (a.y !== b.y) return `${a.d} ${a.m} ${a.y} – ${b.d} ${b.m} ${b.y}`;
  if (a.m !== b.m) return `${a.d} ${a.m} – ${b.d} ${b.m} ${b.y}`;
  return `${a.d}–${b.d} ${b.m} ${b.y}`;
}

export const count = (n: number): string => n.toLocaleString('en-US');
/** A rate in [0, 1] as a percentage with one decimal: 0.1234 -> 12.3%. */
export const percent = (r: number): string => `${(Math.round(r * 1000) / 10).toFixed(1)}%`;
/** USD with cents, and up to 4 decimals for the fractions of a cent an email costs. */
export const usd = (v: number): string => `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;

const KIND_TITLE: Record<string, string> = { daily: 'Daily report', weekly: 'Weekly report', monthly: 'Monthly report' };
/** A reply's category in words: the report's and the campaign page's. */
export const CATEGORY_LABEL: Readonly<Record<string, string>> = {
  interested: 'Interested',
  meeting_booked: 'Meeting booked',
  closed: 'Closed',
  neutral: 'Neutral',
  not_interested: 'Not interested',
  out_of_office: 'Out of office',
  unsubscribe: 'Asked to unsubscribe',
  uncategorised: 'Not yet categorised',
};
const BUDGET_LABEL = { daily: 'Daily budget (today, UTC)', weekly: 'Weekly budget (this week, UTC)', monthly: 'Monthly budget (this month, UTC)' } as const;

export interface FigureRow {
  readonly label: string;
  readonly value: string;
  /** The rate beside it, when it has one. */
  readonly rate: string | null;
}

export interface ReportView {
  readonly subject: string;
  /** `Weekly report`, `Final report`, `Report so far`. */
  readonly title: string;
  readonly campaignName: string;
  readonly range: string;
  /** The period in words with its zone: `Mon 16 Nov 2026 00:00 to Mon 23 Nov 2026 00:00 (Europe/Berlin)`. */
  readonly periodNote: string;
  readonly empty: boolean;
  readonly emptyNote: string;
  readonly figures: readonly FigureRow[];
  readonly replies: readonly { readonly label: string; readonly value: string }[];
  readonly costs: readonly { readonly label: string; readonly value: string }[];
  readonly budgets: readonly { readonly label: string; readonly spent: string; readonly limit: string; readonly share: string; readonly over: boolean }[];
  readonly bestStep: string | null;
  readonly worstStep: string | null;
  readonly stepNote: string;
  readonly campaignUrl: string;
  readonly recipientNote: string;
}

const stepLine = (s: StepFigures): string =>
  `Step ${s.step}: ${percent(s.replyRate)} replied, ${percent(s.openRate)} opened, ${percent(s.clickRate)} clicked (${count(s.delivered)} delivered)`;

function clock(ms: number, zone: string): string {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const date = part(localDate(ms, zone));
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.weekday} ${date.d} ${date.m} ${date.y} ${p.hour}:${p.minute}`;
}

export function reportView(r: PeriodReport, kind: ReportKind, frequency: string | null, campaignUrl: string): ReportView {
  const zone = r.campaign.timezone;
  const start = r.period.start.getTime();
  const end = r.period.end.getTime();
  const range = dateRange(localDate(Math.min(start, end - 1), zone), localDate(end - 1, zone));
  const title = kind === 'final' ? 'Final report' : kind === 'on_demand' ? 'Report so far' : (KIND_TITLE[frequency ?? ''] ?? 'Report');
  const c = r.counts;
  const rt = r.rates;
  return {
    subject: `${title}: ${r.campaign.name}, ${range}`,
    title,
    campaignName: r.campaign.name,
    range,
    periodNote: `${clock(start, zone)} to ${clock(end, zone)} (${zone})`,
    empty: r.empty,
    emptyNote: 'No activity in this period: no email was sent, delivered, opened, clicked or replied to, no meeting was booked and nothing was spent.',
    figures: [
      { label: 'Emails sent', value: count(c.emailsSent), rate: null },
      { label: 'Delivered', value: count(c.delivered), rate: percent(rt.deliveryRate) },
      { label: 'Bounced', value: count(c.bounced), rate: null },
      { label: 'Opened', value: count(c.opened), rate: percent(rt.openRate) },
      { label: 'Clicked', value: count(c.clicked), rate: percent(rt.clickRate) },
      { label: 'Replied', value: count(c.replied), rate: percent(rt.replyRate) },
      { label: 'Unsubscribed', value: count(c.unsubscribed), rate: null },
      { label: 'Meetings booked', value: count(c.meetingsBooked), rate: percent(rt.conversionRate) },
    ],
    replies: r.repliesByCategory.map((x) => ({ label: CATEGORY_LABEL[x.category] ?? x.category, value: count(x.replies) })),
    costs: [
      { label: 'Total', value: usd(r.costs.totalUsd) },
      { label: 'AI generation', value: usd(r.costs.aiGenerationUsd) },
      { label: 'Lead enrichment', value: usd(r.costs.leadEnrichmentUsd) },
      { label: 'Email sending', value: usd(r.costs.emailSendingUsd) },
    ],
    budgets: r.budgets.map((b) => ({
      label: BUDGET_LABEL[b.type],
      spent: usd(b.spentUsd),
      limit: usd(b.limitUsd),
      share: b.limitUsd > 0 ? `${Math.round((b.spentUsd / b.limitUsd) * 100)}%` : '–',
      over: b.spentUsd >= b.limitUsd,
    })),
    bestStep: r.bestStep === null ? null : stepLine(r.bestStep),
    worstStep: r.worstStep === null ? null : stepLine(r.worstStep),
    stepNote: 'Steps are ranked by reply rate, then open rate, over their emails since the campaign began; only steps with at least 10 delivered emails are ranked.',
    campaignUrl,
    recipientNote: 'You receive this email because it is the reporting address of this campaign.',
  };
}

/** The plain-text part: the same figures as the HTML part, in the same order. */
export function reportText(v: ReportView): string {
  const lines: string[] = [`${v.title}: ${v.campaignName}`, v.range, `Period: ${v.periodNote}`, ''];
  if (v.empty) lines.push(v.emptyNote, '');
  lines.push('FIGURES');
  for (const f of v.figures) lines.push(`${f.label}: ${f.value}${f.rate === null ? '' : ` (${f.rate})`}`);
  lines.push('', 'REPLIES BY CATEGORY');
  if (v.replies.length === 0) lines.push('No replies in this period.');
  for (const x of v.replies) lines.push(`${x.label}: ${x.value}`);
  lines.push('', 'SPEND');
  for (const x of v.costs) lines.push(`${x.label}: ${x.value}`);
  for (const b of v.budgets) lines.push(`${b.label}: ${b.spent} of ${b.limit} (${b.share})`);
  lines.push('', 'STEPS');
  if (v.bestStep === null) lines.push('Too few emails per step to rank the steps yet.');
  else lines.push(`Best: ${v.bestStep}`);
  if (v.worstStep !== null) lines.push(`Worst: ${v.worstStep}`);
  lines.push(v.stepNote, '', `Campaign page: ${v.campaignUrl}`, '', v.recipientNote, '');
  return lines.join('\n');
}
