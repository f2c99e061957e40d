import type { Sequelize } from 'sequelize';
import { toUsd, type Campaign, type CampaignStatus } from '../../db/models/campaign';
import { campaignCosts } from './cost-breakdown';
import { campaignCounts, type CampaignCounts } from './campaign-counts';
import { DAY_MS } from './utc-dates';
import { findOwnedCampaign } from './owned-campaign';

/** One campaign as its owner reads it: settings, live status and headline figures. */
export interface CampaignDetail {
  readonly id: string;
  readonly name: string;
  readonly status: CampaignStatus;
  readonly statusReason: string | null;
  readonly mcp: string;
  readonly targetUrl: string;
  readonly targetAudience: string | null;
  readonly createdAt: Date;
  readonly budget: {
    readonly maxDailyUsd: number | null;
    readonly maxWeeklyUsd: number | null;
    readonly maxMonthlyUsd: number | null;
    readonly spentTodayUsd: number;
  };
  readonly schedule: {
    readonly frequency: string;
    readonly trialDays: number | null;
    readonly startDate: string | null;
    readonly daysRemaining: number | null;
    readonly timezone: string;
    readonly sendWindow: { readonly startMinute: number; readonly endMinute: number };
  };
  readonly reporting: { readonly frequency: string | null; readonly email: string | null; readonly webhookUrl: string | null };
  readonly counts: CampaignCounts;
  readonly startedAt: Date | null;
  readonly pausedAt: Date | null;
  readonly resumedAt: Date | null;
  readonly completedAt: Date | null;
  readonly failedAt: Date | null;
}

type TrialFields = Pick<Campaign, 'scheduleTrialDays' | 'startedAt' | 'status'>;

/**
 * Days left in the trial: the whole trial before the campaign has started, then the days until
 * `startedAt + trialDays` (a day begun counts as a day left, as the workflow ends the trial at
 * that instant), 0 once it has passed or the campaign has ended; null without a trial.
 */
export function trialDaysRemaining(c: TrialFields, now: Date): number | null {
  if (c.scheduleTrialDays === null) return null;
  if (c.status === 'completed' || c.status === 'failed') return 0;
  if (c.startedAt === null) return c.scheduleTrialDays;
  const endsAt = c.startedAt.getTime() + c.scheduleTrialDays * DAY_MS;
  return Math.min(c.scheduleTrialDays, Math.max(0, Math.ceil((endsAt - now.getTime()) / DAY_MS)));
}

/** The campaign if `accountId` owns it, with its counts and spend; null otherwise. */
export async function campaignDetail(sequelize: Sequelize, accountId: string, campaignId: string, now = new Date()): Promise<CampaignDetail | null> {
  const c = await findOwnedCampaign(accountId, campaignId);
  if (c === null) return null;
  const [counts, costs] = await Promise.all([campaignCounts(sequelize, c.id), campaignCosts(sequelize, c.id)]);
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    statusReason: c.statusReason,
    mcp: c.mcp,
    targetUrl: c.targetUrl,
    targetAudience: c.targetAudience,
    createdAt: c.createdAt,
    budget: {
      maxDailyUsd: toUsd(c.budgetMaxDailyUsd),
      maxWeeklyUsd: toUsd(c.budgetMaxWeeklyUsd),
      maxMonthlyUsd: toUsd(c.budgetMaxMonthlyUsd),
      spentTodayUsd: costs.todayUsd,
    },
    schedule: {
      frequency: c.scheduleFrequency,
      trialDays: c.scheduleTrialDays,
      startDate: c.scheduleStartDate,
      daysRemaining: trialDaysRemaining(c, now),
      timezone: c.timezone,
      sendWindow: { startMinute: c.sendWindowStartMinute, endMinute: c.sendWindowEndMinute },
    },
    reporting: { frequency: c.reportingFrequency, email: c.reportingEmail, webhookUrl: c.reportingWebhookUrl },
    counts,
    startedAt: c.startedAt,
    pausedAt: c.pausedAt,
    resumedAt: c.resumedAt,
    completedAt: c.completedAt,
    failedAt: c.failedAt,
  };
}
