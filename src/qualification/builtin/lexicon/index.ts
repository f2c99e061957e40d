import { CLOSED_CUES } from './closed';
import type { Cue } from './cue';
import { INTERESTED_CUES } from './interested';
import { MEETING_BOOKED_CUES } from './meeting-booked';
import { NEUTRAL_CUES } from './neutral';
import { NOT_INTERESTED_CUES } from './not-interested';
import { LEFT_COMPANY_CUES, OUT_OF_OFFICE_CUES, SUBJECT_CUES } from './out-of-office';
import { UNSUBSCRIBE_CUES } from './unsubscribe';

export type { Cue, CueTag } from './cue';
export { shortReplyCategory } from './short-replies';

/** Every cue scored on the reply's own text. */
export const BODY_CUES: readonly Cue[] = [
  ...UNSUBSCRIBE_CUES,
  ...OUT_OF_OFFICE_CUES,
  ...LEFT_COMPANY_CUES,
  ...MEETING_BOOKED_CUES,
  ...CLOSED_CUES,
  ...INTERESTED_CUES,
  ...NOT_INTERESTED_CUES,
  ...NEUTRAL_CUES,
];

/** Cues scored on the subject line (auto-reply prefixes). */
export { SUBJECT_CUES };
