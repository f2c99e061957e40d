import type { ReplyCategory, Sentiment } from '../db/models/reply';

export interface QualificationInput {
  readonly fromEmail: string;
  readonly toEmail: string;
  readonly subject: string;
  readonly bodyText: string;
}

export interface Qualification {
  readonly category: ReplyCategory;
  readonly sentiment: Sentiment;
  readonly confidence: number;
  readonly nextAction: string | null;
  /** builtin, openai or anthropic. */
  readonly qualifiedBy: string;
}

/** Where the reply belongs: an LLM's cost is charged to the campaign, once per reply id. */
export interface QualificationContext {
  readonly campaignId: string | null;
  readonly replyId: string;
  readonly receivedAt: Date;
}

/** Classifies a reply for an account (with the account's own LLM key when it has one). */
export type Qualifier = (accountId: string, input: QualificationInput, context: QualificationContext) => Promise<Qualification>;
