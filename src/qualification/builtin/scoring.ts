import { CATEGORIES, type Category } from '../categories';
import { BODY_CUES, SUBJECT_CUES, shortReplyCategory, type Cue, type CueTag } from './lexicon';
import { isNegated } from './negation';
import { fold, sentences, type Sentence } from './normalize';
import { ACCEPTANCE_MARKERS, PROPOSAL_MARKERS, hasTimeExpression } from './time-expressions';

/** Everything the scorer found, for the decision and for explaining it. */
export type Signal = CueTag | 'proposal';

export interface Evidence {
  readonly category: Category;
  readonly weight: number;
  /** The matched text (folded). */
  readonly text: string;
  readonly source: 'body' | 'subject' | 'short_reply' | 'proposed_time' | 'accepted_time';
  readonly negated?: boolean;
}

export interface Scores {
  readonly byCategory: Readonly<Record<Category, number>>;
  readonly signals: ReadonlySet<Signal>;
  readonly evidence: readonly Evidence[];
  /** The reply asks something (a question mark outside quoted history). */
  readonly asksQuestion: boolean;
}

/** What follows "but" is what the person means ("Thanks, but no thanks"): it weighs more. */
const CONTRAST = /\b(but|however|though|mais|aber|pero|maar|tuttavia|sin embargo)\b/g;
const CONTRAST_FACTOR = 1.5;
/** A phrase repeated three times is not three times as strong. */
const MAX_MATCHES_PER_CUE = 2;
const SHORT_REPLY_WEIGHT = 4;
const TIME_WEIGHT = 3;
/** A time stated without "works" or a question ("Quedamos el jueves a las 5.") still settles it, less surely. */
const STATED_TIME_WEIGHT = 2;

interface CompiledCue {
  readonly cue: Cue;
  readonly global: RegExp;
}

const compile = (list: readonly Cue[]): CompiledCue[] => list.map((cue) => ({ cue, global: new RegExp(cue.pattern.source, `${cue.pattern.flags.replace('g', '')}g`) }));
const BODY = compile(BODY_CUES);
const SUBJECT = compile(SUBJECT_CUES);

function sentenceAt(list: readonly Sentence[], index: number): Sentence | undefined {
  let found: Sentence | undefined;
  for (const s of list) {
    if (s.start > index) break;
    found = s;
  }
  return found;
}

class Tally {
  readonly byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  readonly signals = new Set<Signal>();
  readonly evidence: Evidence[] = [];

  add(e: Evidence, signal?: Signal): void {
    this.byCategory[e.category] += e.weight;
    this.evidence.push(e);
    if (signal) this.signals.add(signal);
  }
}

function scoreCues(tally: Tally, folded: string, list: readonly CompiledCue[], source: 'body' | 'subject'): void {
  const sents = sentences(folded);
  const contrasts = [...folded.matchAll(CONTRAST)].map((m) => m.index);
  for (const { cue, global } of list) {
    let n = 0;
    for (const m of folded.matchAll(global)) {
      if (n >= MAX_MATCHES_PER_CUE) break;
      const start = m.index;
      const end = start + m[0].length;
      if (cue.declarativeOnly && sentenceAt(sents, start)?.question) continue;
      let category: Category = cue.category;
      let negated = false;
      if (cue.onNegation !== undefined && isNegated(folded, start, end)) {
        if (cue.onNegation === null) continue;
        category = cue.onNegation;
        negated = true;
      }
      n += 1;
      const weight = contrasts.some((c) => c < start) ? cue.weight * CONTRAST_FACTOR : cue.weight;
      // A negated cue keeps no tag: "no more information" asks no question.
      tally.add({ category, weight, text: m[0], source, ...(negated ? { negated } : {}) }, negated ? undefined : cue.tag);
    }
  }
}

/**
 * Time expressions: in a question or next to "how about / would / instead" they propose a meeting
 * (interested); in a statement next to "works / is fine / perfect" they accept one (meeting_booked).
 */
function scoreTimes(tally: Tally, folded: string): void {
  const contrasts = [...folded.matchAll(CONTRAST)].map((m) => m.index);
  for (const s of sentences(folded)) {
    if (!hasTimeExpression(s.text)) continue;
    const weight = contrasts.some((c) => c < s.start) ? TIME_WEIGHT * CONTRAST_FACTOR : TIME_WEIGHT;
    if (s.question || PROPOSAL_MARKERS.test(s.text)) {
      tally.add({ category: 'interested', weight, text: s.text.trim(), source: 'proposed_time' }, 'proposal');
      continue;
    }
    const accept = ACCEPTANCE_MARKERS.exec(s.text);
    if (accept) {
      if (!isNegated(s.text, accept.index, accept.index + accept[0].length)) tally.add({ category: 'meeting_booked', weight, text: s.text.trim(), source: 'accepted_time' });
    } else if (!/\b(not|no|can'?t|cannot|don'?t|won'?t|nicht|pas|niet|non|nao)\b/.test(s.text)) {
      tally.add({ category: 'meeting_booked', weight: weight * (STATED_TIME_WEIGHT / TIME_WEIGHT), text: s.text.trim(), source: 'accepted_time' });
    }
  }
}

/** Scores the reply's own text (quoted history already removed) and its subject. */
export function scoreReply(subject: string, ownText: string): Scores {
  const folded = fold(ownText);
  const tally = new Tally();
  const short = shortReplyCategory(folded);
  if (short) tally.add({ category: short, weight: SHORT_REPLY_WEIGHT, text: folded.trim(), source: 'short_reply' });
  scoreCues(tally, folded, BODY, 'body');
  scoreTimes(tally, folded);
  scoreCues(tally, fold(subject), SUBJECT, 'subject');
  return { byCategory: tally.byCategory, signals: tally.signals, evidence: tally.evidence, asksQuestion: folded.includes('?') };
}
