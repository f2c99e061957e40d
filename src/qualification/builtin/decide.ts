import { CATEGORIES, type Category } from '../categories';
import type { Scores } from './scoring';

/**
 * From scores to one category. Some categories win by precedence, not by weight:
 * 1. unsubscribe: an explicit demand to stop is honoured whatever else the reply says
 *    ("Not interested. Remove me." is an unsubscribe);
 * 2. "no longer with the company": an auto-reply, but not an absence (neutral);
 * 3. out_of_office: absence notices often name a colleague or say "contact X", which must not
 *    read as a referral;
 * then the highest score wins, ties going to the more specific category (TIE_ORDER).
 */
const UNSUBSCRIBE_THRESHOLD = 3;
const OUT_OF_OFFICE_THRESHOLD = 3;
const TIE_ORDER: readonly Category[] = ['unsubscribe', 'out_of_office', 'closed', 'meeting_booked', 'not_interested', 'interested', 'neutral'];

export interface Decision {
  readonly category: Category;
  readonly confidence: number;
  /** Why: 'precedence' when a rule above decided, 'score' for the highest score, 'default' when nothing matched. */
  readonly by: 'precedence' | 'score' | 'default';
}

/**
 * Nothing recognised: neutral, and say we are unsure; unless the reply asks something. A question
 * nothing else explains ("What kind of ROI have your customers seen?") is engagement with the
 * pitch, and answering it is the next step either way.
 */
const DEFAULT_CONFIDENCE = 0.3;
const UNEXPLAINED_QUESTION_CONFIDENCE = 0.4;

/**
 * Confidence grows with the strength of the winning score (saturating at 6, two decisive cues)
 * and with its margin over the runner-up; precedence decisions are at least 0.7.
 */
function confidenceOf(top: number, second: number, floor = 0): number {
  const strength = Math.min(1, top / 6);
  const margin = top > 0 ? Math.max(0, top - second) / top : 0;
  const c = 0.35 + 0.6 * strength * (0.35 + 0.65 * margin);
  return Math.round(Math.min(0.97, Math.max(floor, c)) * 100) / 100;
}

export function decide(scores: Scores): Decision {
  const s = scores.byCategory;
  const ranked = [...CATEGORIES].sort((a, b) => s[b] - s[a] || TIE_ORDER.indexOf(a) - TIE_ORDER.indexOf(b));
  const runnerUp = (winner: Category): number => Math.max(0, ...CATEGORIES.filter((c) => c !== winner).map((c) => s[c]));

  if (s.unsubscribe >= UNSUBSCRIBE_THRESHOLD) {
    return { category: 'unsubscribe', confidence: confidenceOf(s.unsubscribe, runnerUp('unsubscribe'), 0.8), by: 'precedence' };
  }
  if (scores.signals.has('left_company')) {
    return { category: 'neutral', confidence: confidenceOf(s.neutral, runnerUp('neutral'), 0.7), by: 'precedence' };
  }
  if (s.out_of_office >= OUT_OF_OFFICE_THRESHOLD) {
    return { category: 'out_of_office', confidence: confidenceOf(s.out_of_office, runnerUp('out_of_office'), 0.75), by: 'precedence' };
  }
  const winner = ranked[0] as Category;
  if (s[winner] <= 0) {
    return scores.asksQuestion
      ? { category: 'interested', confidence: UNEXPLAINED_QUESTION_CONFIDENCE, by: 'default' }
      : { category: 'neutral', confidence: DEFAULT_CONFIDENCE, by: 'default' };
  }
  return { category: winner, confidence: confidenceOf(s[winner], runnerUp(winner)), by: 'score' };
}
