import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { ReplyCategory, Sentiment } from '../../db/models/reply';

/**
 * Which other replies to the same email still carry a per-email fact (recorded once per email,
 * whichever reply came first):
 * - replied: any reply written by a person;
 * - unsubscribed: one of those whose category is unsubscribe.
 */
export type FactHolder = 'replied' | 'unsubscribed';

const CONDITION: Readonly<Record<FactHolder, string>> = {
  replied: `r.kind = 'reply'`,
  unsubscribed: `r.kind = 'reply' AND r.category = 'unsubscribe'`,
};

export interface OtherReply {
  readonly id: string;
  readonly receivedAt: Date;
  readonly category: ReplyCategory | null;
  readonly sentiment: Sentiment | null;
}

/**
 * The first other reply to `emailId` that holds the fact, if any: when a correction takes the fact
 * back from one reply, the email keeps it through this one (so the email still counts as replied,
 * or unsubscribed while a reply says so).
 */
export async function otherHolder(sequelize: Sequelize, tx: Transaction, emailId: string, exceptReplyId: string, holder: FactHolder): Promise<OtherReply | null> {
  const rows = await sequelize.query<{ id: string; received_at: Date; category: ReplyCategory | null; sentiment: Sentiment | null }>(
    `SELECT r.id, r.received_at, r.category, r.sentiment FROM replies r
      WHERE r.email_id = $1 AND r.id <> $2 AND ${CONDITION[holder]}
      ORDER BY r.received_at, r.id LIMIT 1`,
    { bind: [emailId, exceptReplyId], type: QueryTypes.SELECT, transaction: tx },
  );
  const r = rows[0];
  return r === undefined ? null : { id: r.id, receivedAt: r.received_at, category: r.category, sentiment: r.sentiment };
}
