import type { Sequelize, Transaction } from 'sequelize';
import { recordEmailFact } from '../sending/email-event-repository';
import { suppressAddress } from '../suppressions/suppression-repository';
import type { BounceRecipient } from './bounce';
import type { SentEmail } from './sent-email';

/**
 * A permanent failure of a sent email, in the caller's transaction: the email is `bounced`, the
 * lead and the address are marked (hard bounce: never written to again by this account), and the
 * `bounced` fact is recorded once per email, whichever path (SMTP answer or DSN) saw it first.
 * True when this call recorded that fact.
 */
export async function applyHardBounce(
  sequelize: Sequelize,
  tx: Transaction,
  sent: SentEmail,
  failure: BounceRecipient,
  replyId: string,
  at: Date,
): Promise<boolean> {
  await sequelize.query(`UPDATE emails SET status = 'bounced', bounced_at = COALESCE(bounced_at, $2), updated_at = now() WHERE id = $1`, {
    bind: [sent.emailId, at.toISOString()],
    transaction: tx,
  });
  await sequelize.query(`UPDATE leads SET bounced_at = COALESCE(bounced_at, $2), updated_at = now() WHERE id = $1`, {
    bind: [sent.leadId, at.toISOString()],
    transaction: tx,
  });
  await suppressAddress(sequelize, tx, sent.accountId, sent.toEmail, 'hard_bounce', sent.emailId);
  return recordEmailFact(sequelize, tx, {
    accountId: sent.accountId,
    campaignId: sent.campaignId,
    emailId: sent.emailId,
    leadId: sent.leadId,
    type: 'bounced',
    occurredAt: at,
    data: { bounce_type: 'hard', status: failure.status, diagnostic: failure.diagnostic, recipient: failure.recipient ?? sent.toEmail, source: 'dsn', reply_id: replyId },
    dedupeKey: `bounced:${sent.emailId}`,
  });
}
