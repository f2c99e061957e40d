import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { deleteReplyFact, leadHasFact, recordEmailFact } from '../../sending/email-event-repository';
import { normalizeEmail, suppressAddress } from '../../suppressions/suppression-repository';
import { BACK_FROM_UNSUBSCRIBED, moveEnrolment, TO_UNSUBSCRIBED } from './enrolment-moves';
import type { AnsweredEmail, LabelledReply } from './labelled-reply';
import { otherHolder } from './other-reply';

const unsubscribedKey = (emailId: string): string => `unsubscribed:${emailId}`;

/** The sender asked; the lead's own address is the one the sequence writes to (usually the same). */
function addressesOf(reply: LabelledReply, sent: AnsweredEmail): string[] {
  return [...new Set([normalizeEmail(reply.fromEmail), normalizeEmail(sent.toEmail)])];
}

/**
 * A reply the user files under unsubscribe does what such a reply does at ingest: the addresses
 * are suppressed (reason reply_unsubscribe, the answered email as source), the email's
 * `unsubscribed` fact is recorded, and the lead's row in the campaign says unsubscribed, even after
 * a reply. True: the lead's sequence should be told.
 */
export async function applyUnsubscribe(sequelize: Sequelize, tx: Transaction, reply: LabelledReply, sent: AnsweredEmail): Promise<boolean> {
  for (const address of addressesOf(reply, sent)) await suppressAddress(sequelize, tx, reply.accountId, address, 'reply_unsubscribe', sent.emailId);
  await recordEmailFact(sequelize, tx, {
    accountId: reply.accountId,
    campaignId: sent.campaignId,
    emailId: sent.emailId,
    leadId: sent.leadId,
    type: 'unsubscribed',
    occurredAt: reply.receivedAt,
    data: { source: 'reply_label', reply_id: reply.id },
    dedupeKey: unsubscribedKey(sent.emailId),
  });
  await moveEnrolment(sequelize, tx, sent.campaignId, sent.leadId, TO_UNSUBSCRIBED);
  return true;
}

/**
 * Takes back what this reply's unsubscribe did, unless another reply to the same email still asks
 * to unsubscribe (that one then holds the fact). The suppression goes only when this reply's
 * unsubscribe made it (reason reply_unsubscribe, this email as source) and no unsubscribed fact
 * of the account remains for an email to that address (a link clicked, another campaign's reply);
 * the lead's `unsubscribed_at` goes with it, and its row in the campaign returns to replied.
 */
export async function undoUnsubscribe(sequelize: Sequelize, tx: Transaction, reply: LabelledReply, sent: AnsweredEmail): Promise<void> {
  const deleted = await deleteReplyFact(sequelize, tx, unsubscribedKey(sent.emailId), reply.id);
  const other = await otherHolder(sequelize, tx, sent.emailId, reply.id, 'unsubscribed');
  if (other !== null) {
    if (deleted) {
      await recordEmailFact(
        sequelize,
        tx,
        {
          accountId: reply.accountId,
          campaignId: sent.campaignId,
          emailId: sent.emailId,
          leadId: sent.leadId,
          type: 'unsubscribed',
          occurredAt: other.receivedAt,
          data: { source: 'reply', reply_id: other.id },
          dedupeKey: unsubscribedKey(sent.emailId),
        },
        { announce: false },
      );
    }
    return;
  }
  for (const address of addressesOf(reply, sent)) await liftSuppression(sequelize, tx, reply.accountId, address, sent.emailId);
  if (!(await leadHasFact(sequelize, tx, sent.campaignId, sent.leadId, 'unsubscribed'))) await moveEnrolment(sequelize, tx, sent.campaignId, sent.leadId, BACK_FROM_UNSUBSCRIBED);
}

async function liftSuppression(sequelize: Sequelize, tx: Transaction, accountId: string, address: string, emailId: string): Promise<void> {
  const lifted = await sequelize.query<{ email: string }>(
    `DELETE FROM suppressions s
      WHERE s.account_id = $1 AND s.email = $2 AND s.reason = 'reply_unsubscribe' AND s.source_email_id = $3
        AND NOT EXISTS (SELECT 1 FROM email_events ev JOIN emails e ON e.id = ev.email_id
                         WHERE ev.account_id = $1 AND ev.type = 'unsubscribed' AND lower(e.to_email) = $2)
      RETURNING s.email`,
    { bind: [accountId, address, emailId], type: QueryTypes.SELECT, transaction: tx },
  );
  if (lifted.length === 0) return;
  // The stamp suppressAddress put on the lead; an erased lead keeps it (every send gate refuses it).
  await sequelize.query(`UPDATE leads SET unsubscribed_at = NULL, updated_at = now() WHERE account_id = $1 AND email = $2 AND erased_at IS NULL`, {
    bind: [accountId, address],
    transaction: tx,
  });
}
