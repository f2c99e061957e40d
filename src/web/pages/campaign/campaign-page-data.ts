import { sendsFromText } from '../campaign-edit/mailbox-choices';
import type { Sequelize } from 'sequelize';
import { campaignWorkflowId } from '../../../../workflows/campaign/contract';
import type { Config } from '../../../config/config';
import { ownedCampaign } from '../../../campaigns/campaign-repository';
import { spendInWindows } from '../../../campaigns/control/spend-windows';
import { campaignDeliveries, type DeliveryLogPage } from '../account';
import { changesPage, type StoredChange } from '../../../campaigns/edit/change-repository';
import { addDays, isoWeekday, localDate, localInstant } from '../../../campaigns/model/calendar';
import { nextScheduleSlot } from '../../../campaigns/model/schedule';
import { scheduleOfRow } from '../../../campaigns/model/schedule-row';
import { BUDGET_TYPES, type BudgetType } from '../../../campaigns/model/status';
import { allowedMoves, type CampaignMove } from '../../../campaigns/model/transitions';
import { campaignStats, type CampaignStats } from '../../../campaigns/reporting/campaign-stats';
import { readCampaignSettings, type CampaignReadModel } from '../../../campaigns/reporting/campaign-read-model';
import { campaignStepReport } from '../../../campaigns/reporting/campaign-step-report';
import { dailyActivity, type DailyActivity } from '../../../campaigns/reporting/daily-activity';
import { nextReportTime } from '../../../campaigns/reporting/next-report';
import { repliesPage, type CampaignReply } from '../../../campaigns/reporting/replies-page';
import { reportPage, type CampaignReportRow } from '../../../campaigns/reporting/report-repository';
import type { StepStats } from '../../../campaigns/reporting/step-stats';

/**
 * Everything the campaign page shows, read through the reporting read model in one round of
 * parallel queries: the page costs about as much as its slowest query (the statistics), not the
 * sum of them (`npm run bench -- campaign-page` holds it to at most 3 times GET .../stats).
 */

export const CHART_DAYS = 30;
export const PAGE_REPLIES = 10;
export const PAGE_REPORTS = 10;
export const PAGE_DELIVERIES = 10;
export const PAGE_CHANGES = 10;

export interface BudgetWindowView {
  readonly window: BudgetType;
  readonly limitUsd: number | null;
  readonly spentUsd: number;
  /** Spend over the limit, 0..1+ (null without a limit). */
  readonly share: number | null;
}

export interface CampaignPageData {
  readonly campaign: CampaignReadModel;
  readonly stats: CampaignStats;
  readonly moves: readonly CampaignMove[];
  readonly days: readonly DailyActivity[];
  readonly steps: readonly StepStats[];
  readonly winners: ReadonlyMap<number, string>;
  readonly budget: readonly BudgetWindowView[];
  readonly replies: readonly CampaignReply[];
  readonly repliesTotal: number;
  readonly reports: readonly CampaignReportRow[];
  readonly reportsTotal: number;
  /** The campaign's latest webhook deliveries (the account's log filtered to it). */
  readonly deliveries: DeliveryLogPage;
  /** The latest changes (edits, pauses, stops, resumes), newest first, and how many there are. */
  readonly changes: { readonly rows: readonly StoredChange[]; readonly total: number };
  /** Local date of the next sending day; null when the campaign will not send again. */
  readonly nextSendDay: string | null;
  /** Epoch ms of the next scheduled report; null without a reporting email or once it ended. */
  readonly nextReportAt: number | null;
  /** The campaign's workflow in the Temporal Web UI; null when no UI address is configured. */
  readonly workflowUrl: string | null;
  /** The addresses it sends from ("every active mailbox of the account" without a set of its own). */
  readonly sendsFrom: string;
}

/** Statuses that will not send again on their own: ended, or a draft not started. */
const NOT_SENDING = new Set(['completed', 'failed', 'draft']);

function nextSendDay(c: CampaignReadModel, now: number): string | null {
  if (NOT_SENDING.has(c.status)) return null;
  const today = localDate(now, c.timezone);
  // A campaign sends from its start date (or its creation day), weekly ones on that weekday, in
  // its weekdays' windows when it has them, never on a blackout date.
  const first = c.startDate ?? localDate(c.createdAt.getTime(), c.timezone);
  const from = first > today ? localInstant(first, 0, c.timezone) : now;
  return nextScheduleSlot(from, scheduleOfRow(c), isoWeekday(first), null)?.day ?? null;
}

/** The Web UI's page of one workflow: <ui>/namespaces/<ns>/workflows/<workflow id>. */
export function workflowUiUrl(config: Pick<Config, 'temporalUiUrl' | 'temporalNamespace'>, campaignId: string): string | null {
  if (config.temporalUiUrl === undefined) return null;
  return `${config.temporalUiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(config.temporalNamespace)}/workflows/${encodeURIComponent(campaignWorkflowId(campaignId))}`;
}

/** The page's data; a campaign of another account, or none, is the NotFoundError of ownedCampaign. */
export async function campaignPageData(sequelize: Sequelize, config: Config, accountId: string, campaignId: string, now = new Date()): Promise<CampaignPageData> {
  const row = await ownedCampaign(accountId, campaignId);
  const today = localDate(now.getTime(), row.timezone);
  const [settings, stats, days, stepReport, spend, replies, reports, deliveries, changes] = await Promise.all([
    readCampaignSettings(sequelize, accountId, campaignId, now),
    campaignStats(sequelize, row, now),
    dailyActivity(sequelize, campaignId, addDays(today, -(CHART_DAYS - 1)), today, row.timezone),
    campaignStepReport(sequelize, accountId, campaignId),
    spendInWindows(sequelize, campaignId, undefined, now.getTime()),
    repliesPage(sequelize, campaignId, { page: 1, perPage: PAGE_REPLIES }),
    reportPage(sequelize, campaignId, PAGE_REPORTS, 0),
    campaignDeliveries(sequelize, accountId, campaignId, PAGE_DELIVERIES),
    changesPage(sequelize, campaignId, { limit: PAGE_CHANGES, offset: 0 }),
  ]);
  // The headline counts are the statistics' own: the facts are counted once for the whole page.
  const { emailsSent, delivered, opened, replied, meetingsBooked } = stats.counts;
  const campaign: CampaignReadModel = { ...settings, emailsSent, delivered, opened, replied, meetingsBooked };
  const limits: Record<BudgetType, number | null> = { daily: campaign.maxDailyUsd, weekly: campaign.maxWeeklyUsd, monthly: campaign.maxMonthlyUsd };
  const budget = BUDGET_TYPES.map((w) => ({
    window: w,
    limitUsd: limits[w],
    spentUsd: spend[w],
    share: limits[w] === null || limits[w] === 0 ? null : spend[w] / (limits[w] as number),
  }));
  return {
    campaign,
    stats,
    moves: allowedMoves(campaign.status),
    days,
    steps: stepReport.steps,
    winners: stepReport.winners,
    budget,
    replies: replies.replies,
    repliesTotal: replies.total,
    reports: reports.reports,
    reportsTotal: reports.total,
    deliveries,
    changes,
    nextSendDay: nextSendDay(campaign, now.getTime()),
    nextReportAt: nextReportTime(campaign, now)?.getTime() ?? null,
    workflowUrl: workflowUiUrl(config, campaignId),
    sendsFrom: await sendsFromText(campaign.mailboxIds),
  };
}
