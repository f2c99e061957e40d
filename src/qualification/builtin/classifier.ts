import { sentimentOf, type Category, type Sentiment } from '../categories';
import { nextActionFor, type NextActionSignals } from '../next-actions';
import { replyOwnText } from '../reply-text';
import { decide } from './decide';
import { extractFollowUpDate } from './follow-up';
import { extractReturnDate } from './return-date';
import { scoreReply, type Evidence, type Scores } from './scoring';

export interface BuiltinInput {
  readonly subject: string;
  readonly bodyText: string;
  /** The reply's sender and our address: an address in the text that is neither is a referral. */
  readonly fromEmail?: string;
  readonly toEmail?: string;
}

export interface BuiltinOptions {
  /** When the reply arrived: return and follow-up dates are read relative to it. Default: now. */
  readonly now?: Date;
}

export interface BuiltinClassification {
  readonly category: Category;
  readonly sentiment: Sentiment;
  readonly confidence: number;
  readonly nextAction: string;
  /** out_of_office: the end of the absence, YYYY-MM-DD, when the reply names it. */
  readonly returnDate?: string;
  /** The cues that decided, for debugging and the evaluation report. */
  readonly evidence: readonly Evidence[];
}

// Bounded and anchored, tried on whitespace-separated tokens only: an unbounded pattern scanned
// over a 64 KB token without "@" takes seconds.
const EMAIL = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}$/;

function referralEmail(text: string, exclude: readonly (string | undefined)[]): string | undefined {
  if (!text.includes('@')) return undefined;
  const skip = new Set(exclude.filter((e): e is string => !!e).map((e) => e.toLowerCase()));
  for (const raw of text.split(/[\s<>()[\],;:"'`]+/)) {
    if (!raw.includes('@') || raw.length > 320) continue;
    const email = raw.replace(/[.!?]+$/, '').toLowerCase();
    if (EMAIL.test(email) && !skip.has(email)) return email;
  }
  return undefined;
}

/** What the reply reveals for the next action of a given category (a return date, a referral...). */
function signalsFor(category: Category, own: string, scores: Scores, input: BuiltinInput, now: Date): NextActionSignals {
  return {
    proposedTime: scores.signals.has('proposal'),
    asksQuestion: scores.asksQuestion || scores.signals.has('price') || scores.signals.has('question'),
    referral: scores.signals.has('referral') || scores.signals.has('left_company'),
    referralEmail: category === 'neutral' ? referralEmail(own, [input.fromEmail, input.toEmail]) : undefined,
    returnDate: category === 'out_of_office' ? extractReturnDate(own, now) : undefined,
    followUpLater: category === 'not_interested' && scores.signals.has('later') ? (extractFollowUpDate(own, now) ?? true) : undefined,
  };
}

/**
 * The built-in classifier: deterministic, no network. Strips quoted history, scores the lexicon
 * and the time expressions (scoring.ts), applies precedence (decide.ts) and derives the next action
 * from what the reply revealed (a proposed time, a question, a referral, a return date).
 */
export function classifyBuiltin(input: BuiltinInput, opts: BuiltinOptions = {}): BuiltinClassification {
  const now = opts.now ?? new Date();
  const own = replyOwnText(input.bodyText);
  const scores = scoreReply(input.subject, own);
  const { category, confidence } = decide(scores);
  const signals = signalsFor(category, own, scores, input, now);
  return {
    category,
    sentiment: sentimentOf(category),
    confidence,
    nextAction: nextActionFor(category, signals),
    ...(signals.returnDate ? { returnDate: signals.returnDate } : {}),
    evidence: scores.evidence,
  };
}

/**
 * The next action the built-in rules derive for a category decided elsewhere (by an LLM whose own
 * suggestion did not fit): the same return dates, referral addresses and follow-up dates.
 */
export function builtinNextAction(input: BuiltinInput, category: Category, opts: BuiltinOptions = {}): string {
  const own = replyOwnText(input.bodyText);
  return nextActionFor(category, signalsFor(category, own, scoreReply(input.subject, own), input, opts.now ?? new Date()));
}
