import type { Sequelize, Transaction } from 'sequelize';
import type { StopFact } from '../campaigns/model/templates';
import { recordEmailFact } from '../sending/email-event-repository';
import { emitEvent } from '../webhooks/outbox-repository';
import { normalizeEmail, suppressAddress } from '../suppressions/suppression-repository';
import { replyReceivedData } from './reply-received-event';
import type { NewReply } from './reply-repository';
import type { SentEmail } from './sent-email';

/**
 * What a real reply changes, in the caller's transaction (the one that stored the reply):
 * - a reply to a sent email is the `replied` fact of that email (the first reply only: later
 *   ones are stored but the email was already replied to) and a `reply.received` event with the
 *   full form of the spec;
 * - an `unsubscribe` reply puts the person on the account's suppression list, with an
 *   `unsubscribed` fact for the email when there is one.
 * Returns the facts it recorded that end the lead's sequence in `sent`'s campaign (for the
 * workflow's signal, once the transaction has committed).
 */
export async function applyReply(sequelize: Sequelize, tx: Transaction, reply: NewReply, sent: SentEmail | null): Promise<StopFact[]> {
  const ended: StopFact[] = [];
  if (sent !== null) {
    const replied = await recordEmailFact(sequelize, tx, {
      accountId: reply.accountId,
      campaignId: sent.campaignId,
      emailId: sent.emailId,
      leadId: sent.leadId,
      type: 'replied',
      occurredAt: reply.receivedAt,
      data: { reply_id: reply.id, sentiment: reply.qualification?.sentiment ?? null, category: reply.qualification?.category ?? null },
      dedupeKey: `replied:${sent.emailId}`,
    });
    if (replied) ended.push('replied');
    await emitEvent(sequelize, tx, {
      accountId: reply.accountId,
      campaignId: sent.campaignId,
      event: 'reply.received',
      data: replyReceivedData({
        replyId: reply.id,
        fromEmail: reply.fromEmail,
        fromName: reply.fromName,
        leadEmail: sent.toEmail,
        lead: reply.lead,
        sentiment: reply.qualification?.sentiment ?? null,
        preview: reply.preview,
        receivedAt: reply.receivedAt,
      }),
      at: reply.receivedAt,
    });
  }
  if (reply.qualification?.category === 'unsubscribe') {
    // The sender asked; the lead's own address is the one the sequence writes to (usually the same).
    const addresses = new Set([normalizeEmail(reply.fromEmail), ...(sent ? [normalizeEmail(sent.toEmail)] : [])]);
    for (const address of addresses) await suppressAddress(sequelize, tx, reply.accountId, address, 'reply_unsubscribe', sent?.emailId ?? null);
    if (sent !== null) {
      const unsubscribed = await recordEmailFact(sequelize, tx, {
        accountId: reply.accountId,
        campaignId: sent.campaignId,
        emailId: sent.emailId,
        leadId: sent.leadId,
        type: 'unsubscribed',
        occurredAt: reply.receivedAt,
        data: { source: 'reply', reply_id: reply.id },
        dedupeKey: `unsubscribed:${sent.emailId}`,
      });
      if (unsubscribed) ended.push('unsubscribed');
    }
  }
  return ended;
}
