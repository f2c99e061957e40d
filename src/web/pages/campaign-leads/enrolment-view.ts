/**
 * A campaign's leads as the page shows them: each state in words, what the step and the next send
 * mean for it, and why a lead was skipped or removed (always said, whatever the row holds).
 */
import type { EnrolmentRow } from '../../../campaigns/enrolment/enrolment-repository';
import { ACTIVE_STATES, ENROLMENT_STATES, type EnrolmentState } from '../../../campaigns/enrolment/states';
import type { EnrolByHandResult } from '../../../campaigns/control/enrol-by-hand';
import { day } from '../../view/format';

export const STATE_LABELS: Readonly<Record<EnrolmentState, string>> = {
  queued: 'Queued',
  in_sequence: 'In sequence',
  replied: 'Replied',
  meeting_booked: 'Meeting booked',
  bounced: 'Bounced',
  unsubscribed: 'Unsubscribed',
  finished: 'Finished',
  removed: 'Removed',
  skipped: 'Skipped',
};

/** Where the zone comes from, in words. */
const ZONE_SOURCES: Readonly<Record<EnrolmentRow['timeZoneSource'], string>> = {
  city: 'from their city',
  country: 'from their country',
  campaign: "the campaign's zone",
};

export interface EnrolmentRowView {
  readonly leadId: string;
  readonly email: string;
  readonly name: string;
  readonly company: string | null;
  readonly state: EnrolmentState;
  readonly stateText: string;
  readonly step: string;
  readonly nextSend: string;
  /** The zone the lead is written in, with where it comes from ('Asia/Tokyo, from their city'). */
  readonly zone: string;
  readonly reason: string | null;
  /** The other campaign a skip names, linked from the reason. */
  readonly otherCampaignId: string | null;
  readonly removable: boolean;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The reason with what its detail names (a suppression's cause, the user's status), or the fallback a skipped or removed lead must show. */
export function reasonText(row: Pick<EnrolmentRow, 'state' | 'reason' | 'detail'>): string | null {
  const extra = str(row.detail?.cause) ?? str(row.detail?.status);
  if (row.reason !== null && row.reason !== '') return extra === null || row.reason.includes(extra) ? row.reason : `${row.reason} (${extra.replaceAll('_', ' ')})`;
  if (row.state === 'skipped') return 'skipped (no reason was recorded)';
  if (row.state === 'removed') return 'removed (no reason was recorded)';
  return null;
}

export function enrolmentRowView(row: EnrolmentRow): EnrolmentRowView {
  const name = [row.firstName, row.lastName].filter((p) => p !== null && p !== '').join(' ');
  const active = (ACTIVE_STATES as readonly string[]).includes(row.state);
  return {
    leadId: row.leadId,
    email: row.email,
    name,
    company: row.company,
    state: row.state,
    stateText: STATE_LABELS[row.state] ?? row.state,
    step: row.step === null ? (row.state === 'queued' ? 'first email to go' : '—') : `step ${row.step} sent`,
    nextSend: active ? (row.nextSendDate === null ? 'next sending day' : day(row.nextSendDate)) : '—',
    zone: `${row.timeZone}, ${ZONE_SOURCES[row.timeZoneSource]}`,
    reason: reasonText(row),
    otherCampaignId: str(row.detail?.campaign_id),
    removable: active,
  };
}

/** The state filter's entries: every state with its count, "All" first. */
export function stateFilter(counts: Readonly<Record<string, number>>, current: EnrolmentState | ''): Array<{ value: EnrolmentState | ''; label: string; count: number; current: boolean }> {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return [
    { value: '' as const, label: 'All', count: total, current: current === '' },
    ...ENROLMENT_STATES.map((s) => ({ value: s, label: STATE_LABELS[s], count: counts[s] ?? 0, current: current === s })),
  ];
}

/** An enrolment's answer in lines a user reads: added, skipped per reason, already there, not found. */
export interface EnrolOutcomeView {
  readonly given: number;
  readonly added: number;
  readonly skipped: Array<{ readonly reason: string; readonly count: number }>;
  readonly alreadyEnrolled: number;
  readonly notFound: string[];
}

export function enrolOutcomeView(given: number, result: EnrolByHandResult): EnrolOutcomeView {
  return {
    given,
    added: result.added,
    skipped: Object.entries(result.skipped)
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    alreadyEnrolled: result.alreadyEnrolled,
    notFound: result.notFound,
  };
}
