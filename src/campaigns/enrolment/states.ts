/**
 * A lead's state in one campaign (pure: the API, the page and the workflow's activities share it).
 *
 * - queued: enrolled, its first email still to go;
 * - in_sequence: at least one step sent, the next due on `next_send_day`;
 * - replied, meeting_booked, bounced, unsubscribed: the sequence ended on that fact;
 * - finished: every step went out (or the sequence was stopped, with a reason: a colleague's answer, the user's own answer);
 * - removed: taken out by the user (or erased, marked by the user, blocklisted), with a reason;
 * - skipped: never started, always with a reason (in another campaign, blocklisted, invalid address, ...).
 */
export const ENROLMENT_STATES = ['queued', 'in_sequence', 'replied', 'meeting_booked', 'bounced', 'unsubscribed', 'finished', 'removed', 'skipped'] as const;
export type EnrolmentState = (typeof ENROLMENT_STATES)[number];

/** States whose sequence is still under way: the only ones the batch sends to. */
export const ACTIVE_STATES: readonly EnrolmentState[] = ['queued', 'in_sequence'];
/** SQL list of the active states, for `state IN (...)`. */
export const ACTIVE_STATES_SQL = `('queued', 'in_sequence')`;

/** Where a row came from: the campaign's audience, one of its lead lists, an enrolment by hand, or a workflow's own record (adopted). */
export type EnrolmentSource = 'audience' | 'list' | 'manual' | 'workflow';

/** Why a lead was skipped or its sequence ended early: fixed phrases the API and the page show. */
export const SKIP_REASONS = {
  otherCampaign: 'in another campaign',
  blocklisted: 'blocklisted',
  suppressed: 'suppressed',
  invalidAddress: 'invalid address',
  riskyAddress: 'risky address',
  userStatus: 'marked by the user',
  companyReplied: 'a colleague at the company answered',
  campaignEnded: 'campaign ended',
  /** The user answered the lead by hand in its thread (POST /v1/leads/:id/reply): the conversation is theirs now. */
  answeredByUser: 'answered by the user',
} as const;
