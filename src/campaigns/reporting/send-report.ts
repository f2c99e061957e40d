/**
 * Sends one emailed report of a campaign (docs/decisions.md, "Reports by email"): the activity of
 * both report workflows calls it, once per report, as often as Temporal retries it.
 */
import type { Sequelize } from 'sequelize';
import type { SendReportInput, SendReportResult } from '../../../workflows/reports/contract';
import type { Config } from '../../config/config';
import type { Logger } from '../../log/logger';
import { sendServiceEmail, ServiceMailTemporaryFailure } from '../../service-mail/send-service-email';
import type { SmtpTransports } from '../../sending/transports';
import { periodReport, readReportCampaign } from './period-report';
import { findReport, reservePeriodReport, settleReport, type CampaignReportRow } from './report-repository';
import { renderReportEmail } from './report-email';

export interface SendReportDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
  /** Tests may hand in their own; the process's pooled transports otherwise. */
  readonly transports?: SmtpTransports;
}

/** What service_emails calls a report. */
export const REPORT_MAIL_KIND = 'campaign_report';

/**
 * 1. The report's row: for a scheduled or final report, reserved on (campaign, kind, period end)
 *    with the campaign's reporting email as recipient (none: stored and returned `skipped`); for an
 *    on-demand one, the row the API inserted (`input.reportId`; gone with its campaign: `skipped`).
 * 2. A row already settled (sent, failed, skipped) returns its status: nothing is sent again.
 * 3. The period's figures (period-report.ts) rendered (report-email.ts) and sent through the
 *    service-mail path under the dedupe key `campaign_report:<report id>`: a retry after a crash
 *    between SMTP and step 4 finds the service email sent and sends nothing.
 * 4. The row settled: `sent` with the service email, or `failed` with the server's refusal.
 *
 * Throws only what a retry may fix (isRetryableReportFailure): the SMTP server unavailable for now
 * (ServiceMailTemporaryFailure), the database unreachable. A campaign that no longer exists is a
 * `skipped` result, not an error.
 */
/** How long an on-demand report's row may take to appear: the API starts the workflow inside the transaction that inserts it. */
const ROW_WAIT_TRIES = 20;
const ROW_WAIT_MS = 100;

/**
 * The on-demand report's row, waiting briefly for it: the workflow is started before the API's
 * transaction commits (so a refused start stores nothing), and its activity can run first. Null
 * only when the row is still missing after that (the campaign was deleted, the request rolled back).
 */
async function findReportSoon(sequelize: Sequelize, reportId: string): Promise<CampaignReportRow | null> {
  for (let attempt = 1; ; attempt++) {
    const row = await findReport(sequelize, reportId);
    if (row !== null || attempt >= ROW_WAIT_TRIES) return row;
    await new Promise((resolve) => setTimeout(resolve, ROW_WAIT_MS));
  }
}

export async function sendCampaignReport(deps: SendReportDeps, input: SendReportInput): Promise<SendReportResult> {
  const { sequelize, log } = deps;
  const campaign = await readReportCampaign(sequelize, input.campaignId);
  let row: CampaignReportRow | null;
  if (input.kind === 'on_demand' || input.reportId !== undefined) {
    row = input.reportId === undefined ? null : await findReportSoon(sequelize, input.reportId);
    if (row !== null && row.campaignId !== input.campaignId) row = null;
  } else {
    row =
      campaign === null
        ? null
        : await reservePeriodReport(sequelize, {
            campaignId: campaign.id,
            accountId: campaign.accountId,
            kind: input.kind,
            periodStart: new Date(input.periodStart),
            periodEnd: new Date(input.periodEnd),
            recipient: campaign.reportingEmail,
          });
  }
  if (row === null || campaign === null) {
    log.info({ campaignId: input.campaignId, reportId: input.reportId ?? null, kind: input.kind }, 'report skipped: the campaign or its report is gone');
    return { reportId: row?.id ?? input.reportId ?? '', status: 'skipped' };
  }
  if (row.status !== 'pending') return { reportId: row.id, status: row.status };
  if (row.recipient === null) {
    await settleReport(sequelize, row.id, { status: 'skipped' });
    return { reportId: row.id, status: 'skipped' };
  }

  const figures = await periodReport(sequelize, campaign, { start: row.periodStart, end: row.periodEnd });
  const email = await renderReportEmail(figures, row.kind, deps.config, { chart: 'cid' });
  const sent = await sendServiceEmail(deps, {
    accountId: campaign.accountId,
    kind: REPORT_MAIL_KIND,
    dedupeKey: `${REPORT_MAIL_KIND}:${row.id}`,
    to: row.recipient,
    subject: email.subject,
    html: email.html,
    text: email.text,
    attachments: email.attachments,
  });
  if (sent.outcome === 'failed') {
    await settleReport(sequelize, row.id, { status: 'failed', serviceEmailId: sent.serviceEmailId, error: sent.error });
    log.warn({ campaignId: campaign.id, reportId: row.id, error: sent.error }, 'report refused by the SMTP server');
    return { reportId: row.id, status: 'failed' };
  }
  await settleReport(sequelize, row.id, { status: 'sent', serviceEmailId: sent.serviceEmailId, sentAt: sent.sentAt });
  log.info({ campaignId: campaign.id, reportId: row.id, kind: row.kind }, 'report sent');
  return { reportId: row.id, status: 'sent' };
}

/**
 * Marks a report failed once its workflow gives up retrying (the last error), so the list shows it
 * as failed rather than pending for ever. A settled report is left as it is.
 */
export async function markReportFailed(sequelize: Sequelize, reportId: string, error: string): Promise<void> {
  await settleReport(sequelize, reportId, { status: 'failed', error });
}

/** The same for a scheduled or final report, found by what reserved it (nothing when it never was). */
export async function markPeriodReportFailed(sequelize: Sequelize, r: { readonly campaignId: string; readonly kind: 'scheduled' | 'final'; readonly periodEnd: number }, error: string): Promise<void> {
  await sequelize.query(
    `UPDATE campaign_reports SET status = 'failed', error = $4
      WHERE campaign_id = $1 AND kind = $2 AND period_end = $3 AND status = 'pending'`,
    { bind: [r.campaignId, r.kind, new Date(r.periodEnd).toISOString(), error.slice(0, 1000)] },
  );
}

/**
 * The activity's split of what sendCampaignReport throws: true for trouble a later attempt may not
 * meet (the SMTP server down or saying 4xx, the database unreachable or timing out); false for the
 * rest (a bug, a refusal that will not change), which retrying would only repeat.
 */
export function isRetryableReportFailure(err: unknown): boolean {
  if (err instanceof ServiceMailTemporaryFailure) return true;
  const name = (err as { name?: unknown } | null)?.name;
  return typeof name === 'string' && /^Sequelize(Connection\w*|Timeout|HostNotReachable|HostNotFound|AccessDenied)Error$/.test(name);
}
