import type { Static } from '@sinclair/typebox';
import { dashboardUrl } from '../../../campaigns/dashboard-url';
import type { CampaignDetail } from '../../../campaigns/reporting/campaign-detail';
import type { CampaignStats } from '../../../campaigns/reporting/campaign-stats';
import type { DailyStat } from '../../../campaigns/reporting/daily-stats';
import type { CampaignReply } from '../../../campaigns/reporting/replies-page';
import type { Config } from '../../../config/config';
import type { CampaignDetailResponse, CampaignStatsResponse, DailyStatsResponse, RepliesResponse } from './schemas';

/** Surface A's snake_case renderings of the reporting results. */

const iso = (t: Date | null): string | null => (t === null ? null : t.toISOString());

/** Minutes after midnight as HH:MM (1440 is 24:00, the end of the day). */
export function clock(minutes: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export function campaignDetailView(d: CampaignDetail, config: Pick<Config, 'publicBaseUrl'>): Static<typeof CampaignDetailResponse> {
  return {
    id: d.id,
    status: d.status,
    status_reason: d.statusReason,
    mcp: d.mcp,
    target_url: d.targetUrl,
    target_audience: d.targetAudience,
    created_at: d.createdAt.toISOString(),
    dashboard_url: dashboardUrl(config, d.id),
    budget: {
      max_daily_usd: d.budget.maxDailyUsd,
      max_weekly_usd: d.budget.maxWeeklyUsd,
      max_monthly_usd: d.budget.maxMonthlyUsd,
      spent_today_usd: d.budget.spentTodayUsd,
    },
    schedule: {
      frequency: d.schedule.frequency,
      trial_days: d.schedule.trialDays,
      start_date: d.schedule.startDate,
      days_remaining: d.schedule.daysRemaining,
      timezone: d.schedule.timezone,
      send_window: { start: clock(d.schedule.sendWindow.startMinute), end: clock(d.schedule.sendWindow.endMinute) },
    },
    reporting: { frequency: d.reporting.frequency, email: d.reporting.email, webhook_url: d.reporting.webhookUrl },
    stats: {
      emails_sent: d.counts.emailsSent,
      delivered: d.counts.delivered,
      opened: d.counts.opened,
      replied: d.counts.replied,
      meetings_booked: d.counts.meetingsBooked,
    },
    started_at: iso(d.startedAt),
    paused_at: iso(d.pausedAt),
    resumed_at: iso(d.resumedAt),
    completed_at: iso(d.completedAt),
  };
}

export function campaignStatsView(s: CampaignStats): Static<typeof CampaignStatsResponse> {
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
    rates: {
      delivery_rate: r.deliveryRate,
      open_rate: r.openRate,
      click_rate: r.clickRate,
      reply_rate: r.replyRate,
      conversion_rate: r.conversionRate,
    },
    costs: {
      total_byok_usd: costs.totalUsd,
      breakdown: { ai_generation: costs.aiGenerationUsd, lead_enrichment: costs.leadEnrichmentUsd, email_sending: costs.emailSendingUsd },
    },
  };
}

export function dailyStatsView(campaignId: string, days: readonly DailyStat[]): Static<typeof DailyStatsResponse> {
  return {
    campaign_id: campaignId,
    daily: days.map((d) => ({ date: d.date, emails_sent: d.emailsSent, opened: d.opened, replied: d.replied, cost_usd: d.costUsd })),
  };
}

export function replyView(r: CampaignReply): Static<typeof RepliesResponse>['replies'][number] {
  return { id: r.id, email: r.email, name: r.name, company: r.company, sentiment: r.sentiment, preview: r.preview, received_at: r.receivedAt.toISOString() };
}
