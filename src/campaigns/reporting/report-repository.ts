import { QueryTypes, type Sequelize } from 'sequelize';
import type { ReportKind } from '../../../workflows/reports/contract';
import { newId } from '../../accounts/ids';

/** The rows of `campaign_reports` (migration 20261128100000-campaign-reports). */
export type ReportStatus = 'pending' | 'sent' | 'failed' | 'skipped';

export interface CampaignReportRow {
  readonly id: string;
  readonly campaignId: string;
  readonly accountId: string;
  readonly kind: ReportKind;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly recipient: string | null;
  readonly status: ReportStatus;
  readonly error: string | null;
  readonly createdAt: Date;
  readonly sentAt: Date | null;
}

const COLUMNS = `id, campaign_id AS "campaignId", account_id AS "accountId", kind, period_start AS "periodStart", period_end AS "periodEnd",
  recipient, status, error, created_at AS "createdAt", sent_at AS "sentAt"`;

export const newReportId = (): string => newId('rpt');

export interface NewReport {
  readonly campaignId: string;
  readonly accountId: string;
  readonly kind: ReportKind;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  /** null: nobody to send to; the row is stored 'skipped'. */
  readonly recipient: string | null;
}

/**
 * The scheduled or final report of (campaign, kind, period end), inserted if there is none: a
 * retried or replayed activity reserves the same row, and a row already settled keeps its status
 * (the caller sends nothing for it). A new row without recipient is stored 'skipped'.
 */
export async function reservePeriodReport(sequelize: Sequelize, r: NewReport): Promise<CampaignReportRow> {
  const rows = await sequelize.query<CampaignReportRow>(
    `INSERT INTO campaign_reports (id, campaign_id, account_id, kind, period_start, period_end, recipient, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7::text IS NULL THEN 'skipped' ELSE 'pending' END)
     ON CONFLICT (campaign_id, kind, period_end) WHERE kind IN ('scheduled', 'final')
     DO UPDATE SET recipient = campaign_reports.recipient
     RETURNING ${COLUMNS}`,
    { bind: [newReportId(), r.campaignId, r.accountId, r.kind, r.periodStart.toISOString(), r.periodEnd.toISOString(), r.recipient], type: QueryTypes.SELECT },
  );
  return rows[0]!;
}

/**
 * A new on-demand report ('pending'), unless the campaign had one asked for within `minGapMs`:
 * then the time the last one was asked for, so the caller can say when to try again. Serialised
 * per campaign by a transaction-scoped advisory lock, so two requests at once insert one row.
 * `started`, when given, runs inside the transaction once the row is inserted (to start the
 * report's workflow): if it throws, the row is rolled back and nothing half-exists, so the caller
 * may ask again at once instead of waiting out the gap behind a report that never goes.
 */
export async function insertOnDemandReport(
  sequelize: Sequelize,
  r: Omit<NewReport, 'kind' | 'recipient'> & { readonly recipient: string },
  minGapMs: number,
  started?: (report: CampaignReportRow) => Promise<void>,
): Promise<{ report: CampaignReportRow } | { lastAskedAt: Date }> {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(hashtextextended('campaign_reports:' || $1, 0))`, { bind: [r.campaignId], transaction });
    const last = await sequelize.query<{ at: Date }>(
      `SELECT created_at AS "at" FROM campaign_reports
        WHERE campaign_id = $1 AND kind = 'on_demand' AND created_at > now() - ($2::int * interval '1 millisecond')
        ORDER BY created_at DESC LIMIT 1`,
      { bind: [r.campaignId, minGapMs], type: QueryTypes.SELECT, transaction },
    );
    if (last[0] !== undefined) return { lastAskedAt: last[0].at };
    const rows = await sequelize.query<CampaignReportRow>(
      `INSERT INTO campaign_reports (id, campaign_id, account_id, kind, period_start, period_end, recipient, status)
       VALUES ($1, $2, $3, 'on_demand', $4, $5, $6, 'pending') RETURNING ${COLUMNS}`,
      { bind: [newReportId(), r.campaignId, r.accountId, r.periodStart.toISOString(), r.periodEnd.toISOString(), r.recipient], type: QueryTypes.SELECT, transaction },
    );
    await started?.(rows[0]!);
    return { report: rows[0]! };
  });
}

export async function findReport(sequelize: Sequelize, reportId: string): Promise<CampaignReportRow | null> {
  const rows = await sequelize.query<CampaignReportRow>(`SELECT ${COLUMNS} FROM campaign_reports WHERE id = $1`, { bind: [reportId], type: QueryTypes.SELECT });
  return rows[0] ?? null;
}

/** Settles a pending report; a settled one is left as it is. */
export async function settleReport(
  sequelize: Sequelize,
  reportId: string,
  outcome: { readonly status: Exclude<ReportStatus, 'pending'>; readonly serviceEmailId?: string; readonly sentAt?: Date | null; readonly error?: string | null },
): Promise<void> {
  await sequelize.query(
    `UPDATE campaign_reports SET status = $2, service_email_id = coalesce($3, service_email_id), sent_at = $4, error = $5
      WHERE id = $1 AND status = 'pending'`,
    { bind: [reportId, outcome.status, outcome.serviceEmailId ?? null, outcome.sentAt?.toISOString() ?? null, outcome.error ?? null] },
  );
}

export interface ReportPage {
  readonly reports: readonly CampaignReportRow[];
  readonly total: number;
}

/** A campaign's reports, newest first (its (campaign_id, created_at) index). */
export async function reportPage(sequelize: Sequelize, campaignId: string, limit: number, offset: number): Promise<ReportPage> {
  const [reports, counted] = await Promise.all([
    sequelize.query<CampaignReportRow>(`SELECT ${COLUMNS} FROM campaign_reports WHERE campaign_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, {
      bind: [campaignId, limit, offset],
      type: QueryTypes.SELECT,
    }),
    sequelize.query<{ total: number }>('SELECT count(*)::int AS total FROM campaign_reports WHERE campaign_id = $1', { bind: [campaignId], type: QueryTypes.SELECT }),
  ]);
  return { reports, total: counted[0]!.total };
}
