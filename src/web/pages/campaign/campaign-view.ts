import { threadHref } from '../inbox/links';
import { CATEGORY_LABEL } from '../../../campaigns/reporting/report-view';
import { moveAllowed } from '../../../campaigns/model/transitions';
import type { PreviewStep } from '../../../campaigns/sequences/preview';
import { changeRow, weekdayWindowsText } from '../campaign-edit/change-view';
import { describeFilters } from '../../view/describe-filters';
import { count, dateTime, day, percent, usd } from '../../view/format';
import { safeHtml } from '../../view/safe-html';
import { statusLabel } from '../../view/status-label';
import { dailyChartSvg } from '../../view/daily-chart';
import type { CampaignPageData } from './campaign-page-data';

/**
 * The campaign page's data as the template shows it: every number formatted, every time in the
 * campaign's zone, the chart drawn. Text a user or a lead wrote stays text (the template escapes
 * it); the only markup handed to the template is the chart's SVG, which the service drew, and a
 * step preview's HTML after sanitize-html.
 */

/** A reply's sentiment in words, shown beside its category. */
const SENTIMENT_LABEL: Readonly<Record<string, string>> = { positive: 'Positive', negative: 'Negative', neutral: 'Neutral' };

export interface StepPreviewView {
  /** The lead as asked for (an address or an id). */
  readonly who: string;
  readonly step: number;
  /** Why there is nothing to show; null when `preview` is set. */
  readonly problem: string | null;
  readonly preview: PreviewStep | null;
}


export async function campaignView(d: CampaignPageData, preview: StepPreviewView | null) {
  const c = d.campaign;
  const zone = c.timezone;
  const counts = d.stats.counts;
  const rates = d.stats.rates;
  const figures = [
    { label: 'Sent', value: count(counts.emailsSent), rate: null },
    { label: 'Delivered', value: count(counts.delivered), rate: `${percent(rates.deliveryRate)} of sent` },
    { label: 'Opened', value: count(counts.opened), rate: `${percent(rates.openRate)} of delivered` },
    { label: 'Clicked', value: count(counts.clicked), rate: `${percent(rates.clickRate)} of delivered` },
    { label: 'Replied', value: count(counts.replied), rate: `${percent(rates.replyRate)} of delivered` },
    { label: 'Bounced', value: count(counts.bounced), rate: null },
    { label: 'Unsubscribed', value: count(counts.unsubscribed), rate: null },
    { label: 'Meetings booked', value: count(counts.meetingsBooked), rate: `${percent(rates.conversionRate)} of delivered` },
  ];
  // Every step of the sequence in use, with its figures (none yet for a step not sent).
  const figuresOf = new Map(d.steps.map((s) => [s.step, s]));
  const defined = c.sequence?.steps ?? [];
  const stepNumbers = [...new Set([...defined.map((_, i) => i + 1), ...d.steps.map((s) => s.step)])].sort((a, b) => a - b);
  const steps = stepNumbers.map((n) => {
    const def = defined[n - 1];
    const stats = figuresOf.get(n);
    const variantStats = new Map((stats?.variants ?? []).map((v) => [v.variant, v]));
    return {
      step: n,
      delayDays: def?.delayDays ?? null,
      winner: d.winners.get(n) ?? null,
      total: stats === undefined ? null : stepRow(stats.total.counts, stats.total.rates),
      variants: (def?.variants ?? []).map((v) => {
        const vs = variantStats.get(v.id);
        return {
          id: v.id,
          weight: v.weight,
          mode: v.mode,
          subject: v.subject,
          instructions: v.mode === 'ai' ? v.instructions : null,
          figures: vs === undefined ? null : stepRow(vs.counts, vs.rates),
        };
      }),
    };
  });
  const sendZone = c.leadTimezones ? `each lead's own time (else ${zone})` : zone;
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    statusText: statusLabel(c.status, c.statusReason),
    facts: [
      ['Target', c.targetUrl],
      ['Template (preset)', c.mcp],
      ['Created', dateTime(c.createdAt, zone)],
      ['Started', dateTime(c.startedAt, zone)],
      ...(c.completedAt === null ? [] : [['Completed', dateTime(c.completedAt, zone)]]),
      ['Time zone', zone],
      ['Sends from', d.sendsFrom],
      ['Id', c.id],
    ],
    moves: d.moves,
    canEdit: moveAllowed('edit', c.status),
    budgetPaused: c.status === 'budget_paused',
    noMailbox: c.mailboxesReason === 'no_active_mailbox',
    figures,
    costs: [
      ['AI writing', usd(d.stats.costs.aiGenerationUsd)],
      ['Lead enrichment', usd(d.stats.costs.leadEnrichmentUsd)],
      ['Email sending', usd(d.stats.costs.emailSendingUsd)],
      ['Total', usd(d.stats.costs.totalUsd)],
    ],
    chartSvg: await dailyChartSvg(d.days),
    chartRows: d.days.filter((x) => x.sent + x.opened + x.clicked + x.replied > 0),
    steps,
    sequenceSource: c.sequence === null ? null : `${c.sequence.source === 'preset' ? `preset ${c.sequence.preset ?? c.mcp}` : 'written for this campaign'}, version ${c.sequenceVersion ?? 1}`,
    stepNumbers: defined.map((_, i) => i + 1),
    preview:
      preview === null
        ? null
        : {
            who: preview.who,
            step: preview.step,
            problem: preview.problem,
            subject: preview.preview?.subject ?? null,
            skipped: preview.preview?.skipped ?? null,
            variant: preview.preview?.variant ?? null,
            text: preview.preview?.text ?? null,
            html: preview.preview?.html == null ? null : safeHtml(preview.preview.html),
          },
    audience: {
      text: c.audienceSource === 'all_leads' ? 'All leads of the account' : (c.targetAudience ?? null),
      source: c.audienceSource,
      filters: describeFilters(c.audienceFilters),
      matched: c.audienceMatchedLeads,
      reason: c.audienceReason,
    },
    schedule: {
      frequency: c.scheduleFrequency,
      window: `${clock(c.sendWindowStartMinute)}–${clock(c.sendWindowEndMinute)} ${sendZone}`,
      zone: sendZone,
      days: c.scheduleDays === null ? null : weekdayWindowsText(c.scheduleDays),
      blackoutDates: c.blackoutDates.length === 0 ? null : c.blackoutDates.join(', '),
      skipHolidays: c.skipHolidays,
      startDate: day(c.startDate),
      nextSendDay: day(d.nextSendDay),
      trial: c.trialDays === null ? null : `${c.trialDays} days${c.daysRemaining === null ? '' : `, ${c.daysRemaining} left`}`,
    },
    budget: d.budget.map((b) => ({
      window: b.window,
      spent: usd(b.spentUsd),
      limit: b.limitUsd === null ? 'no limit' : usd(b.limitUsd),
      share: b.share,
      percent: b.share === null ? null : Math.min(100, Math.round(b.share * 100)),
    })),
    replies: d.replies.map((r) => ({
      href: r.leadId === null ? null : threadHref(r.leadId, r.id),
      from: r.name === null ? r.email : `${r.name} <${r.email}>`,
      company: r.company,
      category: r.category === null ? CATEGORY_LABEL.uncategorised! : (CATEGORY_LABEL[r.category] ?? r.category),
      sentiment: SENTIMENT_LABEL[r.sentiment] ?? 'Neutral',
      preview: r.preview,
      at: dateTime(r.receivedAt, zone),
    })),
    repliesTotal: d.repliesTotal,
    inboxHref: `/dashboard/inbox?campaign=${encodeURIComponent(c.id)}`,
    reporting: {
      email: c.reportingEmail,
      frequency: c.reportingFrequency,
      next: d.nextReportAt === null ? null : dateTime(d.nextReportAt, zone),
      sent: d.reports.map((r) => ({
        kind: r.kind,
        period: `${dateTime(r.periodStart, zone)} – ${dateTime(r.periodEnd, zone)}`,
        recipient: r.recipient ?? '—',
        status: r.status,
        at: dateTime(r.sentAt ?? r.createdAt, zone),
        error: r.error,
      })),
      total: d.reportsTotal,
    },
    workflowUrl: d.workflowUrl,
    deliveries: d.deliveries,
    changes: d.changes.rows.map((r) => changeRow(r, zone)),
    changesTotal: d.changes.total,
  };
}

function stepRow(c: { emailsSent: number; delivered: number; opened: number; clicked: number; replied: number; meetingsBooked: number; skipped: number }, r: { openRate: number; clickRate: number; replyRate: number }) {
  return {
    sent: count(c.emailsSent),
    delivered: count(c.delivered),
    opened: `${count(c.opened)} (${percent(r.openRate)})`,
    clicked: `${count(c.clicked)} (${percent(r.clickRate)})`,
    replied: `${count(c.replied)} (${percent(r.replyRate)})`,
    meetings: count(c.meetingsBooked),
    skipped: count(c.skipped),
  };
}

const clock = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
