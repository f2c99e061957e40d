import type { Sequelize, Transaction } from 'sequelize';
import type { LeadFactNotice } from '../../campaigns/control/lead-fact-signals';
import type { StopFact } from '../../campaigns/model/templates';
import type { ReplyCategory, Sentiment } from '../../db/models/reply';
import { ConflictError } from '../../errors/domain-errors';
import { sentimentOf } from '../../qualification/categories';
import { planLabel } from './label-plan';
import type { LabelledReply } from './labelled-reply';
import { applyMeetingLabel, undoMeetingLabel } from './meeting-label-effects';
import { becomeAutoReply, becomeReply } from './replied-effects';
import { applyUnsubscribe, undoUnsubscribe } from './unsubscribe-effects';

/** Who corrected and when. */
export interface LabelAuthor {
  /** The API key the request (or the dashboard session) acted with; null when nobody can be named. */
  readonly by: string | null;
  readonly at: Date;
}

/** The label a reply takes: the user's category, or the model's when the user drops theirs. */
function effectiveLabel(reply: LabelledReply, userCategory: ReplyCategory | null): { category: ReplyCategory | null; sentiment: Sentiment | null } {
  if (userCategory !== null) return { category: userCategory, sentiment: sentimentOf(userCategory) };
  const category = reply.modelCategory;
  return { category, sentiment: category === null ? null : (reply.modelSentiment ?? sentimentOf(category)) };
}

/**
 * Sets the user's label of a locked reply (null: drops it, back to the model's) in the caller's
 * transaction, and moves what the effective category decides: the reply's kind, the email's facts
 * (replied, unsubscribed, a labelled meeting), the suppression list and the lead's state in the
 * campaign. Effects that go are taken back before those that come are applied, so the lead's state
 * ends where the new label puts it (meeting_booked -> unsubscribe: meeting_booked, replied, then
 * unsubscribed). A reply that answers no sent email only changes its label. Returns the facts that
 * end the lead's sequence, to tell the campaign's workflow once the transaction has committed.
 */
export async function correctLabel(sequelize: Sequelize, tx: Transaction, reply: LabelledReply, userCategory: ReplyCategory | null, author: LabelAuthor): Promise<LeadFactNotice[]> {
  if (reply.kind === 'bounce') throw new ConflictError('A bounce has no category: it reports a failed delivery, it is not an answer');
  const label = effectiveLabel(reply, userCategory);
  const plan = planLabel({ kind: reply.kind, category: reply.category }, label.category);
  await sequelize.query(
    `UPDATE replies SET category = $2, sentiment = $3, kind = $4, user_category = $5, labelled_at = $6, labelled_by = $7 WHERE id = $1`,
    { bind: [reply.id, label.category, label.sentiment, plan.after.kind, userCategory, author.at.toISOString(), author.by], transaction: tx },
  );
  const sent = reply.answered;
  if (sent === null || !plan.changed) return [];

  if (plan.meetingLabel === 'undo') await undoMeetingLabel(sequelize, tx, reply, sent);
  if (plan.unsubscribed === 'undo') await undoUnsubscribe(sequelize, tx, reply, sent);
  if (plan.replied === 'undo') await becomeAutoReply(sequelize, tx, reply, sent);

  const ended: StopFact[] = [];
  if (plan.replied === 'apply' && (await becomeReply(sequelize, tx, reply, sent, label))) ended.push('replied');
  if (plan.unsubscribed === 'apply' && (await applyUnsubscribe(sequelize, tx, reply, sent))) ended.push('unsubscribed');
  if (plan.meetingLabel === 'apply' && (await applyMeetingLabel(sequelize, tx, reply, sent))) ended.push('meeting_booked');
  return ended.map((fact) => ({ campaignId: sent.campaignId, leadId: sent.leadId, fact }));
}
