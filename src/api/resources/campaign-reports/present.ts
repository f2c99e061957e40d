import type { Static } from '@sinclair/typebox';
import type { CampaignReportRow } from '../../../campaigns/reporting/report-repository';
import type { CampaignReport } from './schemas';

const iso = (t: Date | null): string | null => (t === null ? null : t.toISOString());

/** A report on Surface A (snake_case). */
export function reportA(r: CampaignReportRow): Static<ReturnType<typeof CampaignReport<'snake'>>> {
  return {
    id: r.id,
    campaign_id: r.campaignId,
    kind: r.kind,
    period: { start: r.periodStart.toISOString(), end: r.periodEnd.toISOString() },
    recipient: r.recipient,
    status: r.status,
    sent_at: iso(r.sentAt),
    created_at: r.createdAt.toISOString(),
    error: r.error,
  };
}

/** A report on Surface B (camelCase). */
export function reportB(r: CampaignReportRow): Static<ReturnType<typeof CampaignReport<'camel'>>> {
  return {
    id: r.id,
    campaignId: r.campaignId,
    kind: r.kind,
    period: { start: r.periodStart.toISOString(), end: r.periodEnd.toISOString() },
    recipient: r.recipient,
    status: r.status,
    sentAt: iso(r.sentAt),
    createdAt: r.createdAt.toISOString(),
    error: r.error,
  };
}
