import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { deleteReplyFact, leadHasFact, recordEmailFact } from '../../sending/email-event-repository';
import { BACK_FROM_MEETING, moveEnrolment, TO_MEETING } from './enrolment-moves';
import type { AnsweredEmail, LabelledReply } from './labelled-reply';

/**
 * Its own key, never one of a calendar booking's (`meeting:<provider>:<id>`). Labels count one
 * meeting per lead and campaign: a lead whose meeting is counted already (booked through the
 * calendar, or another reply labelled) gets no second one from a label.
 */
const labelKey = (emailId: string): string => `meeting_booked:reply:${emailId}`;

const leadHasMeeting = (sequelize: Sequelize, tx: Transaction, sent: AnsweredEmail): Promise<boolean> =>
  leadHasFact(sequelize, tx, sent.campaignId, sent.leadId, 'meeting_booked');

/** Another reply of the lead in the campaign the user filed under meeting_booked (the model's label records no meeting). */
async function otherLabelledMeeting(sequelize: Sequelize, tx: Transaction, sent: AnsweredEmail, exceptReplyId: string): Promise<{ id: string; emailId: string; receivedAt: Date } | null> {
  const rows = await sequelize.query<{ id: string; email_id: string; received_at: Date }>(
    `SELECT r.id, r.email_id, r.received_at FROM replies r JOIN emails e ON e.id = r.email_id
      WHERE e.campaign_id = $1 AND e.lead_id = $2 AND r.id <> $3
        AND r.kind = 'reply' AND r.category = 'meeting_booked' AND r.user_category = 'meeting_booked'
      ORDER BY r.received_at, r.id LIMIT 1`,
    { bind: [sent.campaignId, sent.leadId, exceptReplyId], type: QueryTypes.SELECT, transaction: tx },
  );
  const r = rows[0];
  return r === undefined ? null : { id: r.id, emailId: r.email_id, receivedAt: r.received_at };
}

/**
 * A reply the user files under meeting_booked: a `meeting_booked` fact (source reply_label), unless
 * the lead's meeting in this campaign is already counted (a calendar booking, or another labelled
 * reply), and the lead's row says meeting_booked. True: the lead's sequence should be told.
 */
export async function applyMeetingLabel(sequelize: Sequelize, tx: Transaction, reply: LabelledReply, sent: AnsweredEmail): Promise<boolean> {
  if (!(await leadHasMeeting(sequelize, tx, sent))) {
    await recordEmailFact(sequelize, tx, {
      accountId: reply.accountId,
      campaignId: sent.campaignId,
      emailId: sent.emailId,
      leadId: sent.leadId,
      type: 'meeting_booked',
      occurredAt: reply.receivedAt,
      data: { source: 'reply_label', reply_id: reply.id },
      dedupeKey: labelKey(sent.emailId),
    });
  }
  await moveEnrolment(sequelize, tx, sent.campaignId, sent.leadId, TO_MEETING);
  return true;
}

/**
 * Takes back the meeting this reply's label recorded (never a calendar booking's): another reply
 * of the lead in the campaign the user filed under meeting_booked then holds it; with no meeting
 * left for the lead in the campaign, its row returns from meeting_booked to replied.
 */
export async function undoMeetingLabel(sequelize: Sequelize, tx: Transaction, reply: LabelledReply, sent: AnsweredEmail): Promise<void> {
  const deleted = await deleteReplyFact(sequelize, tx, labelKey(sent.emailId), reply.id);
  const other = deleted ? await otherLabelledMeeting(sequelize, tx, sent, reply.id) : null;
  if (other !== null) {
    await recordEmailFact(
      sequelize,
      tx,
      {
        accountId: reply.accountId,
        campaignId: sent.campaignId,
        emailId: other.emailId,
        leadId: sent.leadId,
        type: 'meeting_booked',
        occurredAt: other.receivedAt,
        data: { source: 'reply_label', reply_id: other.id },
        dedupeKey: labelKey(other.emailId),
      },
      { announce: false },
    );
    return;
  }
  if (!(await leadHasMeeting(sequelize, tx, sent))) await moveEnrolment(sequelize, tx, sent.campaignId, sent.leadId, BACK_FROM_MEETING);
}
