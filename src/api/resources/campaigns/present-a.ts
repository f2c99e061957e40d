import type { Static } from '@sinclair/typebox';
import type { CampaignListRow } from '../../../campaigns/campaign-repository';
import type { ControlResult } from '../../../campaigns/control/campaign-control';
import type { CampaignReadModel } from '../../../campaigns/reporting/campaign-read-model';
import { nextReportTime } from '../../../campaigns/reporting/next-report';
import type { CampaignStats } from '../../../campaigns/reporting/campaign-stats';
import type { DailyStat } from '../../../campaigns/reporting/daily-stats';
import type { CampaignReply } from '../../../campaigns/reporting/replies-page';
import type { Config } from '../../../config/config';
import type { AudienceFilters } from '../../../campaigns/audience/types';
import type { Campaign } from '../../../db/models';
import { campaignPageUrl } from '../../../config/public-urls';
import { leadListsOf, stateCountsSnake } from './present-lead-control';
import { sequenceA } from './present-sequence';
import { daysView, LEAD_TIMEZONE, windowView } from './schedule-fields';
import type { CampaignA, CampaignListResponseA, CampaignStatsA, CreatedCampaignA, DailyStatsA, PausedA, RepliesA, ResumedA } from './schemas-a';

/**
 * Surface A's presenter: the campaign read model and the reporting results in snake_case. Each
 * response is one object literal (present-b.ts renders the same results in camelCase).
 */

const iso = (t: Date | null): string | null => (t === null ? null : t.toISOString());

type FiltersA = NonNullable<Static<typeof CampaignA>['audience']['filters']>;

/** Stored filters (camelCase) in Surface A's casing: companySizes and the seniority range are named differently. */
function filtersA(f: AudienceFilters | null): FiltersA | null {
  if (f === null) return null;
  const { companySizes, seniorityMin, seniorityMax, ...rest } = f as FiltersA & Pick<AudienceFilters, 'seniorityMin' | 'seniorityMax'> & { companySizes?: FiltersA['company_sizes'] };
  return {
    ...rest,
    ...(companySizes === undefined ? {} : { company_sizes: companySizes }),
    ...(seniorityMin === undefined ? {} : { seniority_min: seniorityMin }),
    ...(seniorityMax === undefined ? {} : { seniority_max: seniorityMax }),
  };
}

export function campaignA(c: CampaignReadModel, config: Pick<Config, 'publicBaseUrl'>, now = new Date()): Static<typeof CampaignA> {
  const audience = { text: c.targetAudience, filters: filtersA(c.audienceFilters), source: c.audienceSource, matched_leads: c.audienceMatchedLeads, reason: c.audienceReason };
  return {
    id: c.id,
    status: c.status,
    status_reason: c.statusReason,
    mcp: c.mcp,
    target_url: c.targetUrl,
    target_audience: c.targetAudience,
    audience,
    target_outcome: c.targetOutcome,
    value_for_target: c.valueForTarget,
    sequence: sequenceA(c),
    tracking: { opens: c.trackOpens, clicks: c.trackClicks },
    plain_text_only: c.plainTextOnly,
    created_at: c.createdAt.toISOString(),
    dashboard_url: campaignPageUrl(config, c.id),
    budget: { max_daily_usd: c.maxDailyUsd, max_weekly_usd: c.maxWeeklyUsd, max_monthly_usd: c.maxMonthlyUsd, spent_today_usd: c.spentTodayUsd },
    schedule: {
      frequency: c.scheduleFrequency,
      trial_days: c.trialDays,
      start_date: c.startDate,
      days_remaining: c.daysRemaining,
      timezone: c.leadTimezones ? LEAD_TIMEZONE : c.timezone,
      fallback_timezone: c.leadTimezones ? c.timezone : null,
      send_window: windowView({ startMinute: c.sendWindowStartMinute, endMinute: c.sendWindowEndMinute }),
      days: daysView(c.scheduleDays),
      blackout_dates: [...c.blackoutDates],
      skip_holidays: c.skipHolidays,
    },
    reporting: { frequency: c.reportingFrequency, email: c.reportingEmail, webhook_url: c.reportingWebhookUrl, next_report_at: iso(nextReportTime(c, now)) },
    stats: { emails_sent: c.emailsSent, delivered: c.delivered, opened: c.opened, replied: c.replied, meetings_booked: c.meetingsBooked },
    sources: { lead_list_ids: leadListsOf(c), audience, matched_leads: c.audienceMatchedLeads },
    allow_duplicate_leads: c.allowDuplicateLeads,
    stop_company_on_reply: c.stopCompanyOnReply,
    max_first_emails_per_domain_per_day: c.maxFirstEmailsPerDomainPerDay,
    skip_risky_leads: c.skipRiskyLeads,
    mailbox_ids: c.mailboxIds === null ? null : [...c.mailboxIds],
    mailboxes_reason: c.mailboxesReason,
    leads: stateCountsSnake(c.enrolmentCounts),
    started_at: iso(c.startedAt),
    paused_at: iso(c.pausedAt),
    resumed_at: iso(c.resumedAt),
    completed_at: iso(c.completedAt),
  };
}

export function listItemA(c: CampaignListRow): Static<typeof CampaignListResponseA>['campaigns'][number] {
  return {
    id: c.id,
    status: c.status,
    mcp: c.mcp,
    target_url: c.targetUrl,
    created_at: c.createdAt.toISOString(),
    audience: { text: c.targetAudience, source: c.audienceSource, matched_leads: c.audienceMatchedLeads, reason: c.audienceReason },
  };
}

export function createdA(c: Campaign, config: Pick<Config, 'publicBaseUrl'>): Static<typeof CreatedCampaignA> {
  return {
    id: c.id,
    status: c.status,
    mcp: c.mcp,
    target_url: c.targetUrl,
    created_at: c.createdAt.toISOString(),
    dashboard_url: campaignPageUrl(config, c.id),
    audience: { text: c.targetAudience, filters: filtersA(c.audienceFilters), source: c.audienceSource, matched_leads: c.audienceMatchedLeads, reason: c.audienceReason },
  };
}

export function pausedA(r: ControlResult): Static<typeof PausedA> {
  return { id: r.id, status: r.status, paused_at: r.at.toISOString() };
}

export function resumedA(r: ControlResult): Static<typeof ResumedA> {
  return { id: r.id, status: r.status, resumed_at: r.at.toISOString() };
}

export function statsA(s: CampaignStats): Static<typeof CampaignStatsA> {
  const { counts: c, rates: r, costs } = s;
  return {
    campaign_id: s.campaignId,
    status: s.status,
    period: { start: s.period.start.toISOString(), end: s.period.end.toISOString() },
    stats: {
      emails_sent: c.emailsSent,
      delivered: c.delivered,
      bounced: c.bounced,
      opened: c.opened,
      clicked: c.clicked,
      replied: c.replied,
      unsubscribed: c.unsubscribed,
      meetings_booked: c.meetingsBooked,
    },
    rates: { delivery_rate: r.deliveryRate, open_rate: r.openRate, click_rate: r.clickRate, reply_rate: r.replyRate, conversion_rate: r.conversionRate },
    costs: {
      total_byok_usd: costs.totalUsd,
      breakdown: { ai_generation: costs.aiGenerationUsd, lead_enrichment: costs.leadEnrichmentUsd, email_sending: costs.emailSendingUsd },
    },
  };
}

export function dailyStatsA(campaignId: string, days: readonly DailyStat[]): Static<typeof DailyStatsA> {
  return {
    campaign_id: campaignId,
    daily: days.map((d) => ({ date: d.date, emails_sent: d.emailsSent, opened: d.opened, replied: d.replied, cost_usd: d.costUsd })),
  };
}

export function replyA(r: CampaignReply): Static<typeof RepliesA>['replies'][number] {
  return { id: r.id, email: r.email, name: r.name, company: r.company, sentiment: r.sentiment, preview: r.preview, received_at: r.receivedAt.toISOString() };
}
