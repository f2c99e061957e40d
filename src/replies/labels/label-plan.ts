import type { ReplyCategory, ReplyKind } from '../../db/models/reply';

/** An inbound message that is an answer (bounces have no label). */
export type AnswerKind = Exclude<ReplyKind, 'bounce'>;

/** What a reply counts as: its kind and its effective category. */
export interface LabelSide {
  readonly kind: AnswerKind;
  readonly category: ReplyCategory | null;
}

/** What a correction does to one of a reply's effects: take it on, take it back, or leave it. */
export type EffectMove = 'apply' | 'undo' | 'keep';

export interface LabelPlan {
  readonly after: LabelSide;
  /** The effective category changes: only then do facts and the lead's state move. */
  readonly changed: boolean;
  /** The email's `replied` fact (a reply written by a person). */
  readonly replied: EffectMove;
  /** The suppression, the `unsubscribed` fact and the lead's `unsubscribed` state. */
  readonly unsubscribed: EffectMove;
  /** The `meeting_booked` fact a label records (never a calendar booking's). */
  readonly meetingLabel: EffectMove;
}

/**
 * The kind a reply takes with its new category. An automatic answer the user files under anything
 * but out_of_office was written by a person; a reply filed under out_of_office is an absence notice
 * (manual or not), which does not count as a reply.
 */
function kindFor(before: LabelSide, category: ReplyCategory | null): AnswerKind {
  if (category === before.category || category === null) return before.kind;
  if (before.kind === 'auto_reply' && category !== 'out_of_office') return 'reply';
  if (before.kind === 'reply' && category === 'out_of_office') return 'auto_reply';
  return before.kind;
}

// Effects belong to replies written by a person, as at ingest (an automatic answer records nothing).
const replied = (s: LabelSide): boolean => s.kind === 'reply';
const unsubscribed = (s: LabelSide): boolean => s.kind === 'reply' && s.category === 'unsubscribe';
const meetingLabel = (s: LabelSide): boolean => s.kind === 'reply' && s.category === 'meeting_booked';

function move(before: boolean, after: boolean): EffectMove {
  if (before === after) return 'keep';
  return after ? 'apply' : 'undo';
}

/**
 * What giving a reply the effective category `category` changes (pure). The same category again
 * changes no fact (the user's label is still recorded by the caller).
 */
export function planLabel(before: LabelSide, category: ReplyCategory | null): LabelPlan {
  const after: LabelSide = { kind: kindFor(before, category), category };
  if (category === before.category) return { after: before, changed: false, replied: 'keep', unsubscribed: 'keep', meetingLabel: 'keep' };
  return {
    after,
    changed: true,
    replied: move(replied(before), replied(after)),
    unsubscribed: move(unsubscribed(before), unsubscribed(after)),
    meetingLabel: move(meetingLabel(before), meetingLabel(after)),
  };
}
