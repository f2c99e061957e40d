import { ActivityFailure, condition, continueAsNew, log, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import { markCampaignReportFailed, sendCampaignReport } from './activity-proxies';
import {
  campaignEndedSignal,
  reportingChangedSignal,
  type CampaignEnded,
  type ReportScheduleInput,
  type ReportScheduleResult,
  type SendReportInput,
  type SendReportResult,
} from './contract';
import { finalPeriod, nextDueReport, type ScheduleProgress, type ScheduleRules } from './schedule-plan';

/** Reports per run before continuing as new: a daily campaign's history stays a few hundred events. */
const REPORTS_PER_RUN = 100;

/**
 * The emailed reports of one campaign (id `campaign-reports-<campaignId>`), for as long as it runs:
 * sleeps until each report time of its frequency in its time zone (08:00 local), sends the period
 * that just ended, and on `campaignEnded` sends the final report at once and ends. Started with the
 * campaign, or by the worker's sweep for a campaign that has none; it never touches the campaign
 * workflow, whose histories stay as they were.
 *
 * The state is two instants (the last report time, the end of the last period reported), so a run
 * continued as new, or a frequency changed by `reportingChanged`, carries on without a period
 * reported twice or left out (schedule-plan.ts).
 */
export async function campaignReportScheduleWorkflow(input: ReportScheduleInput): Promise<ReportScheduleResult> {
  let rules: ScheduleRules = { frequency: input.frequency, timeZone: input.timeZone, since: input.since };
  let progress: ScheduleProgress = { lastReportAt: input.carried?.lastReportAt ?? Date.now(), reportedUntil: input.carried?.reportedUntil ?? null };
  let reportsSent = input.carried?.reportsSent ?? 0;
  let ended: CampaignEnded | null = null;
  let removed = false;
  let rulesChanged = false;

  // The first end wins: a retried record-transition activity signals again with the same moment.
  setHandler(campaignEndedSignal, (signal) => {
    ended ??= signal;
  });
  setHandler(reportingChangedSignal, (change) => {
    if (!change.hasEmail) removed = true;
    else {
      rules = { ...rules, frequency: change.frequency, timeZone: change.timeZone };
      rulesChanged = true;
    }
  });

  const campaignId = input.campaignId;
  const send = async (report: SendReportInput): Promise<SendReportResult | null> => {
    try {
      return await sendCampaignReport(report);
    } catch (err) {
      // Given up after its retries (a day of trouble) or refused for good: this report is lost, the
      // schedule is not. Its row, if it was reserved, is marked failed with the last error.
      if (!(err instanceof ActivityFailure)) throw err;
      const error = err.cause?.message ?? err.message;
      log.warn('campaign report not sent', { campaignId, kind: report.kind, periodEnd: new Date(report.periodEnd).toISOString(), error });
      if (report.kind === 'scheduled' || report.kind === 'final') await markCampaignReportFailed({ campaignId, kind: report.kind, periodEnd: report.periodEnd, error });
      return null;
    }
  };

  const maxPerRun = input.maxReportsPerRun ?? REPORTS_PER_RUN;
  for (let handledThisRun = 0; ; ) {
    const end = ended as CampaignEnded | null;
    if (end !== null) {
      const period = finalPeriod(rules, progress, end.at);
      setCurrentDetails(`Campaign ${end.status}: sending the final report`);
      const final = await send({ campaignId, kind: 'final', periodStart: period.start, periodEnd: period.end });
      return { outcome: 'campaign_ended', reportsSent, final };
    }
    if (removed) return { outcome: 'reporting_removed', reportsSent, final: null };
    if (handledThisRun >= maxPerRun || workflowInfo().continueAsNewSuggested) {
      // Handlers are synchronous, so nothing is half-applied; a signal that arrives while this
      // task completes makes the server retry the task, which then sees it and sends the final report.
      return continueAsNew<typeof campaignReportScheduleWorkflow>({
        ...input,
        frequency: rules.frequency,
        timeZone: rules.timeZone,
        carried: { ...progress, reportsSent, runs: (input.carried?.runs ?? 0) + 1 },
      });
    }

    const due = nextDueReport(rules, progress);
    rulesChanged = false;
    setCurrentDetails(`Next ${rules.frequency} report at ${new Date(due.at).toISOString()}, covering ${new Date(due.period.start).toISOString()} to ${new Date(due.period.end).toISOString()}`);
    const wait = due.at - Date.now();
    // Woken early by the campaign's end (the final report covers this period too), by the email's
    // removal, or by new rules (the next report is worked out again with them).
    if (wait > 0 && (await condition(() => ended !== null || removed || rulesChanged, wait))) continue;

    const result = await send({ campaignId, kind: 'scheduled', periodStart: due.period.start, periodEnd: due.period.end });
    if (result?.status === 'sent') reportsSent++;
    progress = { lastReportAt: due.at, reportedUntil: due.period.end };
    handledThisRun++;
  }
}
