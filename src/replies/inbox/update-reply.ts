import type { Sequelize } from 'sequelize';
import type { LeadFactNotice, LeadFactSink } from '../../campaigns/control/lead-fact-signals';
import type { ReplyCategory } from '../../db/models/reply';
import { InvalidInputError } from '../../errors/domain-errors';
import { correctLabel } from '../labels/correct-label';
import { lockReply } from '../labels/labelled-reply';
import { getReply } from './get-reply';
import type { InboxReplyDetail } from './inbox-item';
import { setRead } from './read-state';

export interface ReplyUpdateDeps {
  readonly sequelize: Sequelize;
  /** Told, after the commit, of the facts a correction recorded that end a lead's sequence. */
  readonly leadFacts?: LeadFactSink;
}

/** What a user changes on a reply; at least one of the two. */
export interface ReplyChange {
  /** The user's label; null drops it (the model's label applies again). */
  readonly category?: ReplyCategory | null;
  readonly read?: boolean;
}

/**
 * Changes a reply of the account (PATCH /v1/replies/:id, the dashboard's inbox): its label, with
 * everything the label decides (correctLabel), and its read state, in one transaction; the
 * campaign's workflow is told after the commit. `by` names who did it (the API key id). Null: the
 * account has no such reply. A bounce cannot be labelled (ConflictError).
 */
export async function updateReply(deps: ReplyUpdateDeps, accountId: string, replyId: string, change: ReplyChange, by: string | null): Promise<InboxReplyDetail | null> {
  if (change.category === undefined && change.read === undefined) throw new InvalidInputError('Nothing to change: give category, read or both');
  const { sequelize } = deps;
  const at = new Date();
  const done = await sequelize.transaction(async (tx): Promise<{ notices: LeadFactNotice[] } | null> => {
    const reply = await lockReply(sequelize, tx, accountId, replyId);
    if (reply === null) return null;
    const notices = change.category === undefined ? [] : await correctLabel(sequelize, tx, reply, change.category, { by, at });
    if (change.read !== undefined) await setRead(sequelize, tx, replyId, change.read, at);
    return { notices };
  });
  if (done === null) return null;
  if (done.notices.length > 0) deps.leadFacts?.notify(done.notices);
  return getReply(sequelize, accountId, replyId);
}
