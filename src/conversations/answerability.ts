import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { blockedSql } from '../blocklist/blocked-sql';
import type { SuppressionReason } from '../db/models/suppression';
import { normalizeEmail } from '../suppressions/suppression-repository';

/**
 * Why the user may not answer a lead by hand, in the order they are told:
 * - unsubscribed: the person asked not to be written to (unsubscribe link, "remove me" in a reply,
 *   a spam complaint);
 * - bounced: the address refused mail for good (a hard bounce): an answer would bounce again and
 *   hurt the mailbox's reputation;
 * - blocklisted: the account blocked the address or its domain (or suppressed it by hand);
 * - no_conversation: nothing was ever sent to the lead, so there is no thread to answer in and no
 *   mailbox the person knows.
 */
export type AnswerRefusal = 'unsubscribed' | 'bounced' | 'blocklisted' | 'no_conversation';
export const ANSWER_REFUSALS = ['unsubscribed', 'bounced', 'blocklisted', 'no_conversation'] as const satisfies readonly AnswerRefusal[];

/** Each refusal in words, for an API error or the dashboard's answer box. */
export const ANSWER_REFUSAL_TEXT: Readonly<Record<AnswerRefusal, string>> = {
  unsubscribed: 'The lead unsubscribed (or complained): no email may be sent to them',
  bounced: "The lead's address bounced permanently: an answer would bounce again",
  blocklisted: "The lead's address or domain is on the account's blocklist",
  no_conversation: 'No email was ever sent to this lead: there is no conversation to answer',
};

/** The lead being answered: its id and its address as stored (lower case). */
export interface AnswerableLead {
  readonly id: string;
  readonly email: string;
}

/** A suppression's reason as a refusal: a manual suppression is the account's own block. */
const SUPPRESSION_REFUSAL: Readonly<Record<SuppressionReason, AnswerRefusal>> = {
  unsubscribe: 'unsubscribed',
  reply_unsubscribe: 'unsubscribed',
  complaint: 'unsubscribed',
  hard_bounce: 'bounced',
  manual: 'blocklisted',
};

interface Row {
  suppression: SuppressionReason | null;
  unsubscribed: boolean;
  bounced: boolean;
  blocklisted: boolean;
  contacted: boolean;
}

/**
 * Whether the lead may be answered now: null when it may, else the first reason it may not. The
 * lead's own stamps count beside the suppression list (`unsubscribed_at`, `bounced_at`, and a
 * `bounced` fact on one of its emails that is not marked soft), so a lead whose suppression was
 * lifted by hand but whose address bounced is still refused. "Sent" is an email that left
 * (status sent or bounced); one still sending, deferred or failed is not a conversation yet.
 *
 * One statement; `tx` lets the sender check inside the transaction that reserves the answer.
 */
export async function answerRefusal(sequelize: Sequelize, accountId: string, lead: AnswerableLead, tx: Transaction | null = null): Promise<AnswerRefusal | null> {
  const rows = await sequelize.query<Row>(
    `SELECT
       (SELECT s.reason FROM suppressions s WHERE s.account_id = $1 AND s.email = $3) AS suppression,
       EXISTS (SELECT 1 FROM leads l WHERE l.account_id = $1 AND l.id = $2 AND l.unsubscribed_at IS NOT NULL) AS unsubscribed,
       (EXISTS (SELECT 1 FROM leads l WHERE l.account_id = $1 AND l.id = $2 AND l.bounced_at IS NOT NULL)
        OR EXISTS (SELECT 1 FROM email_events e WHERE e.account_id = $1 AND e.lead_id = $2 AND e.type = 'bounced'
                    AND COALESCE(e.data->>'bounce_type', 'hard') <> 'soft')) AS bounced,
       ${blockedSql('$1', '$3::text')} AS blocklisted,
       EXISTS (SELECT 1 FROM emails m WHERE m.account_id = $1 AND m.lead_id = $2 AND m.status IN ('sent', 'bounced')) AS contacted`,
    { bind: [accountId, lead.id, normalizeEmail(lead.email)], type: QueryTypes.SELECT, transaction: tx },
  );
  const r = rows[0];
  if (r === undefined) throw new Error('answerRefusal: the statement returned no row');
  return refusalOf(r);
}

/** The first refusal of the facts read, in the order AnswerRefusal lists them. */
function refusalOf(r: Row): AnswerRefusal | null {
  const bySuppression = r.suppression === null ? null : SUPPRESSION_REFUSAL[r.suppression];
  if (bySuppression === 'unsubscribed' || r.unsubscribed) return 'unsubscribed';
  if (bySuppression === 'bounced' || r.bounced) return 'bounced';
  if (bySuppression === 'blocklisted' || r.blocklisted) return 'blocklisted';
  return r.contacted ? null : 'no_conversation';
}
