import type { CampaignReadModel } from '../../../campaigns/reporting/campaign-read-model';
import { ENROLMENT_STATES, type EnrolmentState } from '../../../campaigns/enrolment/states';

/**
 * A campaign's sources, lead-control settings and leads by state, on either surface: the counts
 * are written once and cased per surface (Surface B names the states camelCase, inSequence).
 */

type Counts = Readonly<Record<string, number>> | null;

/** Every state with its count (0 when none) and the total, keys as the states are written. */
export function stateCountsSnake(counts: Counts): Record<EnrolmentState | 'total', number> {
  const out = { total: 0 } as Record<EnrolmentState | 'total', number>;
  for (const state of ENROLMENT_STATES) {
    const n = counts?.[state] ?? 0;
    out[state] = n;
    out.total += n;
  }
  return out;
}

/** The same counts with Surface B's member names. */
export function stateCountsCamel(counts: Counts) {
  const c = stateCountsSnake(counts);
  return {
    queued: c.queued,
    inSequence: c.in_sequence,
    replied: c.replied,
    meetingBooked: c.meeting_booked,
    bounced: c.bounced,
    unsubscribed: c.unsubscribed,
    finished: c.finished,
    removed: c.removed,
    skipped: c.skipped,
    total: c.total,
  };
}

/** The lead lists as GET shows them under `sources` (the same members on both surfaces). */
export const leadListsOf = (c: Pick<CampaignReadModel, 'leadLists'>) => c.leadLists.map((l) => ({ id: l.id, name: l.name }));
