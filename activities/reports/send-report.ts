import { markPeriodReportFailed, markReportFailed, sendCampaignReport as sendReport } from '../../src/campaigns/reporting/send-report';
import type { MarkReportFailedInput, SendReportInput, SendReportResult } from '../../workflows/reports/contract';
import type { ActivityDeps } from '../deps';
import { reportFailure } from '../failures';

/**
 * The `sendCampaignReport` activity: reserves the report (idempotent on campaign, kind and period
 * end, or the row the API inserted) and emails it through the service-email path. A retry after a
 * crash finds the reservation and sends the same message, or nothing when it went out already.
 */
export function sendCampaignReport(deps: ActivityDeps) {
  return async (input: SendReportInput): Promise<SendReportResult> => {
    try {
      return await sendReport({ sequelize: deps.sequelize, config: deps.config, log: deps.log }, input);
    } catch (err) {
      throw reportFailure(err);
    }
  };
}

/** The `markCampaignReportFailed` activity: a report workflow gave up, and the list should say so rather than show it pending. */
export function markCampaignReportFailed(deps: ActivityDeps) {
  return (input: MarkReportFailedInput): Promise<void> =>
    'reportId' in input ? markReportFailed(deps.sequelize, input.reportId, input.error) : markPeriodReportFailed(deps.sequelize, input, input.error);
}
