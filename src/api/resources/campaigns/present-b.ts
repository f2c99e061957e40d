import type { Static } from '@sinclair/typebox';
import type { ControlResult } from '../../../campaigns/control/campaign-control';
import type { CampaignReadModel } from '../../../campaigns/reporting/campaign-read-model';
import { nextReportTime } from '../../../campaigns/reporting/next-report';
import type { CampaignStats } from '../../../campaigns/reporting/campaign-stats';
import type { Config } from '../../../config/config';
import { campaignPageUrl } from '../../../config/public-urls';
import { leadListsOf, stateCountsCamel } from './present-lead-control';
import { sequenceB } from './present-sequence';
import { daysView, LEAD_TIMEZONE, windowView } from './schedule-fields';
import type { CampaignB, CampaignStatsB, ResumedB, StoppedB } from './schemas-b';

/**
 * Surface B's presenter: the same read model and results as present-a.ts, in camelCase. Each
 * response is one object literal.
 */

const iso = (t: Date | null): string | null => (t === null ? null : t.toISOString());

/** Stored filters are already camelCase: Surface B shows them as they are. */
type FiltersB = Static<typeof CampaignB>['audience']['filters'];

export function campaignB(c: CampaignReadModel, config: Pick<Config, 'publicBaseUrl'>, now = new Date()): Static<typeof CampaignB> {
  const audience = { text: c.targetAudience, filters: c.audienceFilters as FiltersB, source: c.audienceSource, matchedLeads: c.audienceMatchedLeads, reason: c.audienceReason };
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    statusReason: c.statusReason,
    brandUrl: c.targetUrl,
    brandId: c.brandId,
    targetAudience: c.targetAudience,
    audience,
    targetOutcome: c.targetOutcome,
    valueForTarget: c.valueForTarget,
    mcp: c.mcp,
    sequence: sequenceB(c),
    tracking: { opens: c.trackOpens, clicks: c.trackClicks },
    plainTextOnly: c.plainTextOnly,
    maxBudgetDailyUsd: c.maxDailyUsd,
    maxBudgetWeeklyUsd: c.maxWeeklyUsd,
    maxBudgetMonthlyUsd: c.maxMonthlyUsd,
    spentTodayUsd: c.spentTodayUsd,
    createdVia: c.createdVia,
    createdAt: c.createdAt.toISOString(),
    startedAt: iso(c.startedAt),
    pausedAt: iso(c.pausedAt),
    resumedAt: iso(c.resumedAt),
    completedAt: iso(c.completedAt),
    dashboardUrl: campaignPageUrl(config, c.id),
    schedule: {
      frequency: c.scheduleFrequency,
      trialDays: c.trialDays,
      startDate: c.startDate,
      daysRemaining: c.daysRemaining,
      timezone: c.leadTimezones ? LEAD_TIMEZONE : c.timezone,
      fallbackTimezone: c.leadTimezones ? c.timezone : null,
      sendWindow: windowView({ startMinute: c.sendWindowStartMinute, endMinute: c.sendWindowEndMinute }),
      days: daysView(c.scheduleDays),
      blackoutDates: [...c.blackoutDates],
      skipHolidays: c.skipHolidays,
    },
    reporting: { frequency: c.reportingFrequency, email: c.reportingEmail, nextReportAt: iso(nextReportTime(c, now)) },
    stats: { emailsSent: c.emailsSent, delivered: c.delivered, opened: c.opened, replied: c.replied, meetingsBooked: c.meetingsBooked },
    sources: { leadListIds: leadListsOf(c), audience, matchedLeads: c.audienceMatchedLeads },
    allowDuplicateLeads: c.allowDuplicateLeads,
    stopCompanyOnReply: c.stopCompanyOnReply,
    maxFirstEmailsPerDomainPerDay: c.maxFirstEmailsPerDomainPerDay,
    skipRiskyLeads: c.skipRiskyLeads,
    mailboxIds: c.mailboxIds === null ? null : [...c.mailboxIds],
    mailboxesReason: c.mailboxesReason,
    leads: stateCountsCamel(c.enrolmentCounts),
  };
}

export function stoppedB(r: ControlResult): Static<typeof StoppedB> {
  return { id: r.id, status: r.status, stoppedAt: r.at.toISOString() };
}

export function resumedB(r: ControlResult): Static<typeof ResumedB> {
  return { id: r.id, status: r.status, resumedAt: r.at.toISOString() };
}

export function statsB(s: CampaignStats): Static<typeof CampaignStatsB> {
  const { counts: c, rates: r, costs } = s;
  return {
    campaignId: s.campaignId,
    status: s.status,
    period: { start: s.period.start.toISOString(), end: s.period.end.toISOString() },
    stats: {
      emailsSent: c.emailsSent,
      delivered: c.delivered,
      bounced: c.bounced,
      opened: c.opened,
      clicked: c.clicked,
      replied: c.replied,
      unsubscribed: c.unsubscribed,
      meetingsBooked: c.meetingsBooked,
    },
    rates: { deliveryRate: r.deliveryRate, openRate: r.openRate, clickRate: r.clickRate, replyRate: r.replyRate, conversionRate: r.conversionRate },
    costs: {
      totalUsd: costs.totalUsd,
      breakdown: { aiGeneration: costs.aiGenerationUsd, leadEnrichment: costs.leadEnrichmentUsd, emailSending: costs.emailSendingUsd },
    },
  };
}
