import type { Campaign } from '../../db/models';
import { toUsd } from '../../db/models/campaign';
import type { CampaignWorkflowInput } from '../../../workflows/campaign/contract';
import { scheduleOfRow } from '../model/schedule-row';
import type { SequencePlan } from '../model/sequence';
import type { SendFrequency } from '../model/status';

/**
 * The workflow's input, from the campaign's row: the row is what the API validated and stored,
 * so the workflow never sees a request body.
 */
export function workflowInputOf(c: Campaign, opts: { maxHistoryEvents?: number; sequence?: SequencePlan } = {}): CampaignWorkflowInput {
  const daily = toUsd(c.budgetMaxDailyUsd);
  const weekly = toUsd(c.budgetMaxWeeklyUsd);
  const monthly = toUsd(c.budgetMaxMonthlyUsd);
  return {
    campaignId: c.id,
    accountId: c.accountId,
    mcp: c.mcp,
    targetUrl: c.targetUrl,
    ...(c.scheduleTrialDays === null ? {} : { trialDays: c.scheduleTrialDays }),
    ...(c.scheduleStartDate === null ? {} : { startDate: c.scheduleStartDate }),
    frequency: c.scheduleFrequency as SendFrequency,
    timezone: c.timezone,
    sendWindow: { startMinute: c.sendWindowStartMinute, endMinute: c.sendWindowEndMinute },
    // The whole schedule; the three members above stay for code that reads only them.
    schedule: scheduleOfRow(c),
    ...(daily === null && weekly === null && monthly === null ? {} : { budget: { dailyUsd: daily, weeklyUsd: weekly, monthlyUsd: monthly } }),
    ...(opts.sequence === undefined ? {} : { sequence: opts.sequence }),
    ...(opts.maxHistoryEvents === undefined ? {} : { maxHistoryEvents: opts.maxHistoryEvents }),
  };
}
