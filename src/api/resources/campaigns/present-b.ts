import type { Static } from '@sinclair/typebox';
import { dashboardUrl } from '../../../campaigns/dashboard-url';
import { countsOf } from '../../../campaigns/reporting/campaign-counts';
import type { CampaignDetail } from '../../../campaigns/reporting/campaign-detail';
import type { CampaignStats } from '../../../campaigns/reporting/campaign-stats';
import type { Config } from '../../../config/config';
import type { V1Campaign, V1CampaignStatsResponse } from './schemas';

/** Surface B's camelCase renderings of the reporting results (Surface A renders the same ones in snake_case). */

const iso = (t: Date | null): string | null => (t === null ? null : t.toISOString());

export function v1CampaignView(d: CampaignDetail, config: Pick<Config, 'publicBaseUrl'>): Static<typeof V1Campaign> {
  return {
    id: d.id,
    name: d.name,
    status: d.status,
    statusReason: d.statusReason,
    brandUrl: d.targetUrl,
    brandId: d.brandId,
    targetAudience: d.targetAudience,
    targetOutcome: d.targetOutcome,
    valueForTarget: d.valueForTarget,
    maxBudgetDailyUsd: d.budget.maxDailyUsd,
    maxBudgetWeeklyUsd: d.budget.maxWeeklyUsd,
    maxBudgetMonthlyUsd: d.budget.maxMonthlyUsd,
    spentTodayUsd: d.budget.spentTodayUsd,
    createdVia: d.createdVia,
    createdAt: d.createdAt.toISOString(),
    startedAt: iso(d.startedAt),
    pausedAt: iso(d.pausedAt),
    resumedAt: iso(d.resumedAt),
    completedAt: iso(d.completedAt),
    dashboardUrl: dashboardUrl(config, d.id),
    stats: {
      emailsSent: d.counts.emailsSent,
      delivered: d.counts.delivered,
      opened: d.counts.opened,
      replied: d.counts.replied,
      meetingsBooked: d.counts.meetingsBooked,
    },
  };
}

export function v1CampaignStatsView(s: CampaignStats): Static<typeof V1CampaignStatsResponse> {
  const { counts: c, rates: r, costs } = s;
  return {
    campaignId: s.campaignId,
    status: s.status,
    period: { start: s.period.start.toISOString(), end: s.period.end.toISOString() },
    // Surface B's names are the counts' own.
    stats: countsOf(c),
    rates: { deliveryRate: r.deliveryRate, openRate: r.openRate, clickRate: r.clickRate, replyRate: r.replyRate, conversionRate: r.conversionRate },
    costs: {
      totalUsd: costs.totalUsd,
      breakdown: { aiGeneration: costs.aiGenerationUsd, leadEnrichment: costs.leadEnrichmentUsd, emailSending: costs.emailSendingUsd },
    },
  };
}
