import type { Client } from '@temporalio/client';
import type { Sequelize } from 'sequelize';
import { campaignReportWorkflowId, type CampaignReportInput } from '../../../workflows/reports/contract';
import { InvalidInputError } from '../../errors/domain-errors';
import { ownedCampaign } from '../campaign-repository';
import { periodSoFar } from '../reporting/period-so-far';
import { insertOnDemandReport, type CampaignReportRow } from '../reporting/report-repository';
import { TEMPORAL_CALL_MS } from './temporal-deadline';

/**
 * "Send a report now" (POST /campaigns/:id/reports, /v1/..., and the campaign page's button): the
 * report of the current period so far, recorded as a pending row and sent by its own workflow
 * (`campaign-report-<id>`), so a crash or an SMTP outage after the answer loses nothing.
 * At most one per campaign per ON_DEMAND_MIN_GAP_MS: a double click, or a script in a loop, does
 * not fill the recipient's inbox.
 */
export const ON_DEMAND_MIN_GAP_MS = 60_000;

export interface RequestReportDeps {
  readonly sequelize: Sequelize;
  readonly temporal: Client;
  readonly taskQueue: string;
}

/** Asked again within the minimum gap: try again in `retryAfterSeconds`. */
export class ReportTooSoonError extends Error {
  override readonly name = 'ReportTooSoonError';
  constructor(readonly retryAfterSeconds: number) {
    super(`a report of this campaign was asked for less than ${ON_DEMAND_MIN_GAP_MS / 1000} seconds ago: try again in ${retryAfterSeconds} s`);
  }
}

export async function requestReport(deps: RequestReportDeps, accountId: string, campaignId: string, email?: string, now = new Date()): Promise<CampaignReportRow> {
  const campaign = await ownedCampaign(accountId, campaignId);
  const recipient = email ?? campaign.reportingEmail;
  if (recipient === null || recipient === undefined || recipient === '') {
    throw new InvalidInputError('the campaign has no reporting.email: give the address to send the report to as email');
  }
  const period = periodSoFar(campaign, now);
  // The workflow starts inside the row's transaction: if Temporal refuses, no pending row is left
  // to block the next request for a minute behind a report that never goes.
  const asked = await insertOnDemandReport(
    deps.sequelize,
    { campaignId, accountId, periodStart: new Date(period.start), periodEnd: new Date(period.end), recipient },
    ON_DEMAND_MIN_GAP_MS,
    async (report) => {
      const input: CampaignReportInput = { reportId: report.id, campaignId, periodStart: report.periodStart.getTime(), periodEnd: report.periodEnd.getTime() };
      await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, () =>
        deps.temporal.workflow.start('campaignReportWorkflow', { taskQueue: deps.taskQueue, workflowId: campaignReportWorkflowId(report.id), args: [input] }),
      );
    },
  );
  if ('lastAskedAt' in asked) throw new ReportTooSoonError(Math.max(1, Math.ceil((asked.lastAskedAt.getTime() + ON_DEMAND_MIN_GAP_MS - now.getTime()) / 1000)));
  return asked.report;
}
