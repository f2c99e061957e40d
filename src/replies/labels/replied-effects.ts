import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Sentiment, ReplyCategory } from '../../db/models/reply';
import { deleteReplyFact, recordEmailFact } from '../../sending/email-event-repository';
import { emitEvent } from '../../webhooks/outbox-repository';
import { replyReceivedData } from '../reply-received-event';
import { moveEnrolment, TO_REPLIED } from './enrolment-moves';
import type { AnsweredEmail, LabelledReply } from './labelled-reply';
import { otherHolder } from './other-reply';

/** The reply's label after the correction, which the facts recorded now carry. */
export interface NewLabel {
  readonly category: ReplyCategory | null;
  readonly sentiment: Sentiment | null;
}

const repliedKey = (emailId: string): string => `replied:${emailId}`;

async function announced(sequelize: Sequelize, tx: Transaction, replyId: string): Promise<boolean> {
  const rows = await sequelize.query(`SELECT 1 FROM outbox WHERE event = 'reply.received' AND data->>'reply_id' = $1 LIMIT 1`, {
    bind: [replyId],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows.length > 0;
}

/**
 * An automatic answer the user says a person wrote: the email's `replied` fact (once per email, as
 * at ingest), the `reply.received` event unless this reply already had one, and the lead's
 * sequence ends as for any reply. True when the lead's sequence should be told it ended.
 */
export async function becomeReply(sequelize: Sequelize, tx: Transaction, reply: LabelledReply, sent: AnsweredEmail, label: NewLabel): Promise<boolean> {
  const recorded = await recordEmailFact(sequelize, tx, {
    accountId: reply.accountId,
    campaignId: sent.campaignId,
    emailId: sent.emailId,
    leadId: sent.leadId,
    type: 'replied',
    occurredAt: reply.receivedAt,
    data: { reply_id: reply.id, sentiment: label.sentiment, category: label.category },
    dedupeKey: repliedKey(sent.emailId),
  });
  if (!(await announced(sequelize, tx, reply.id))) {
    await emitEvent(sequelize, tx, {
      accountId: reply.accountId,
      campaignId: sent.campaignId,
      event: 'reply.received',
      data: replyReceivedData({
        replyId: reply.id,
        fromEmail: reply.fromEmail,
        fromName: reply.fromName,
        leadEmail: sent.toEmail,
        lead: { name: reply.leadName, company: reply.leadCompany, title: reply.leadTitle },
        sentiment: label.sentiment,
        preview: reply.preview,
        receivedAt: reply.receivedAt,
      }),
    });
  }
  const moved = await moveEnrolment(sequelize, tx, sent.campaignId, sent.leadId, TO_REPLIED);
  return recorded || moved;
}

/**
 * A reply the user files under out_of_office is not a reply: the `replied` fact it recorded goes
 * (another reply to the same email by a person then holds it). The lead's sequence is not
 * restarted: the lead keeps the state its answer gave it (re-enrol the lead to resume).
 */
export async function becomeAutoReply(sequelize: Sequelize, tx: Transaction, reply: LabelledReply, sent: AnsweredEmail): Promise<void> {
  if (!(await deleteReplyFact(sequelize, tx, repliedKey(sent.emailId), reply.id))) return;
  const other = await otherHolder(sequelize, tx, sent.emailId, reply.id, 'replied');
  if (other === null) return;
  await recordEmailFact(
    sequelize,
    tx,
    {
      accountId: reply.accountId,
      campaignId: sent.campaignId,
      emailId: sent.emailId,
      leadId: sent.leadId,
      type: 'replied',
      occurredAt: other.receivedAt,
      data: { reply_id: other.id, sentiment: other.sentiment, category: other.category },
      dedupeKey: repliedKey(sent.emailId),
    },
    { announce: false },
  );
}
