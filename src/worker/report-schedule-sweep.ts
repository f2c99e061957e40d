import type { Client } from '@temporalio/client';
import { QueryTypes, type Sequelize } from 'sequelize';
import { startReportSchedule, type ReportingCampaign } from '../campaigns/control/start-report-schedule';
import type { Logger } from '../log/logger';

export interface SweepDeps {
  readonly sequelize: Sequelize;
  readonly client: Client;
  readonly taskQueue: string;
  readonly log: Logger;
}

export interface SweepResult {
  /** Schedules started now: campaigns created before reports existed, or whose start failed at create. */
  readonly started: number;
  /** Schedules found running (the usual case). */
  readonly running: number;
  /** Starts Temporal refused; the next sweep tries again. */
  readonly failed: number;
}

/** Starts in flight at once: enough to get through thousands of campaigns in seconds without flooding the server. */
const CONCURRENCY = 16;

/**
 * At the worker's start: every campaign that has started, has not ended and has a report email gets
 * its report schedule if it has none running (a draft gets its schedule when it is started). One
 * query, then one start per campaign with an already running schedule left alone, so a sweep that
 * finds everything in place changes nothing. This covers a create whose schedule start failed
 * after the commit, and campaigns created before reports were emailed (their first report covers
 * the period in progress, from its start).
 */
export async function sweepReportSchedules(deps: SweepDeps): Promise<SweepResult> {
  const campaigns = await deps.sequelize.query<ReportingCampaign>(
    `SELECT id, account_id AS "accountId", reporting_frequency AS "reportingFrequency", timezone, created_at AS "createdAt"
       FROM campaigns
      WHERE reporting_email IS NOT NULL AND reporting_email <> '' AND status NOT IN ('draft', 'completed', 'failed')
      ORDER BY created_at`,
    { type: QueryTypes.SELECT },
  );
  let started = 0;
  let running = 0;
  let failed = 0;
  for (let i = 0; i < campaigns.length; i += CONCURRENCY) {
    await Promise.all(
      campaigns.slice(i, i + CONCURRENCY).map(async (c) => {
        try {
          if ((await startReportSchedule(deps.client, deps.taskQueue, c)) === 'started') started++;
          else running++;
        } catch (err) {
          failed++;
          deps.log.warn({ err, campaignId: c.id }, 'report schedule not started by the sweep; the next worker start tries again');
        }
      }),
    );
  }
  if (started > 0 || failed > 0) deps.log.info({ started, running, failed }, 'report schedules swept');
  return { started, running, failed };
}
