/**
 * The qualification vocabulary shared by the built-in classifier, the LLM path and the API.
 * The categories are the reply counters of the delivery statistics; the sentiment of a reply is a
 * function of its category (design: "Sentiment of a reply"), never judged separately, so the two
 * can never disagree.
 */
export const CATEGORIES = ['interested', 'meeting_booked', 'closed', 'neutral', 'not_interested', 'out_of_office', 'unsubscribe'] as const;
export type Category = (typeof CATEGORIES)[number];

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

const SENTIMENT_OF: Readonly<Record<Category, Sentiment>> = {
  interested: 'positive',
  meeting_booked: 'positive',
  closed: 'positive',
  neutral: 'neutral',
  out_of_office: 'neutral',
  not_interested: 'negative',
  unsubscribe: 'negative',
};

export function sentimentOf(category: Category): Sentiment {
  return SENTIMENT_OF[category];
}

export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value);
}

/**
 * What each category means, in the words the LLM prompt and the documentation use. The labels of
 * the evaluation set (eval/qualify/replies.jsonl) follow these definitions.
 */
export const CATEGORY_DEFINITIONS: Readonly<Record<Category, string>> = {
  interested:
    'Wants to continue the conversation but nothing is booked yet: says yes, asks for more information, asks about price or the product, asks for a demo, or proposes a meeting time (a proposal is not yet a booked meeting).',
  meeting_booked:
    'A meeting is agreed: they booked a slot, sent or accepted a calendar invite, or accepted a specific time ("Tuesday at 3 works, see you then").',
  closed: 'A buying decision: move forward, send the contract or order form, ready to sign, signed, purchase order sent.',
  neutral:
    'Neither positive nor negative: referral to a colleague or forwarded to someone else, wrong person, left the company, acknowledgement ("thanks, received"), undecided ("let me think"), or a question about who the sender is.',
  not_interested: 'Declines: not interested, no thanks, happy with the current tool, no budget, or "not now, try again next quarter".',
  out_of_office: 'An automatic or manual absence notice: out of office, on vacation or leave, travelling, back on a date.',
  unsubscribe: 'An explicit demand to stop emailing: unsubscribe, remove me, take me off your list, stop emailing/spamming me, delete my data.',
};

/** Who produced a qualification. */
export type QualifiedBy = 'builtin' | 'openai' | 'anthropic';

export interface Qualification {
  readonly category: Category;
  readonly sentiment: Sentiment;
  /** How sure the classifier is, in [0, 1]. */
  readonly confidence: number;
  /** A slug from NEXT_ACTIONS, optionally followed by `:<argument>` (see next-actions.ts). */
  readonly nextAction: string;
  readonly qualifiedBy: QualifiedBy;
  /** The LLM model, when an LLM qualified the reply. */
  readonly model?: string;
}

/** What a reply looks like to the classifiers. `bodyText` is the plain-text body, quoted history allowed. */
export interface ReplyInput {
  readonly fromEmail: string;
  readonly toEmail: string;
  readonly subject: string;
  readonly bodyText: string;
}
