import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { readAccountSender, senderIdentity } from '../../campaigns/sending/batch-context';
import type { Config } from '../../config/config';
import { NotFoundError } from '../../errors/domain-errors';
import type { Party } from '../../sending/compose';
import { brandName } from '../../writing/brand-name';
import type { ConversationMessage } from './conversation';

/** Who an answer comes from. */
export interface AnswerSender {
  /**
   * The mailbox the lead knows (sticky sender): it sends the answer through its own server while
   * it is active. Null: the lead was written by the default sender (or the mailbox was deleted).
   */
  readonly mailboxId: string | null;
  readonly from: Party;
  /** Added under the answer, as under campaign emails; null for none. */
  readonly signature: string | null;
}

interface MailboxRow {
  id: string;
  from_email: string;
  from_name: string | null;
  signature: string | null;
  active: boolean;
}

/**
 * The sender of an answer whose conversation was last written by `last` (the latest campaign
 * email or answer to the lead):
 * - its mailbox, while active: that address, with the name and signature campaign emails from it
 *   have (senderIdentity);
 * - its mailbox, deactivated: the same From address and name (the lead knows them), over the
 *   default transport, as the send decides (send-stored.ts);
 * - the default sender (no mailbox, or it was deleted): the same From address as the last email,
 *   with the account's sender name and signature.
 * The name falls back, as for campaign emails, to the company the conversation's campaign speaks
 * for, then to the account's name.
 */
export async function answerSender(sequelize: Sequelize, tx: Transaction, config: Pick<Config, 'defaultFromEmail'>, accountId: string, last: ConversationMessage | null): Promise<AnswerSender> {
  const found = await readAccountSender(sequelize, accountId);
  if (found === null) throw new NotFoundError('account');
  const mailbox = last?.mailboxId == null ? null : await readMailbox(sequelize, tx, accountId, last.mailboxId);
  const brand = last?.campaignId == null ? null : await campaignBrand(sequelize, tx, accountId, last.campaignId);
  const address = mailbox?.active === true ? mailbox.from_email : (last?.fromEmail ?? config.defaultFromEmail);
  const identity = senderIdentity(
    mailbox === null ? null : { fromEmail: mailbox.from_email, fromName: mailbox.from_name, signature: mailbox.signature },
    found.account,
    brand,
    address,
  );
  return { mailboxId: mailbox?.id ?? null, from: { address, name: identity.name }, signature: identity.signature };
}

async function readMailbox(sequelize: Sequelize, tx: Transaction, accountId: string, id: string): Promise<MailboxRow | null> {
  const rows = await sequelize.query<MailboxRow>(`SELECT id, from_email, from_name, signature, active FROM mailboxes WHERE id = $1 AND account_id = $2`, {
    bind: [id, accountId],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows[0] ?? null;
}

/** The company the campaign speaks for, as its emails name it (brandName over its scrape and target). */
async function campaignBrand(sequelize: Sequelize, tx: Transaction, accountId: string, campaignId: string): Promise<string | null> {
  const rows = await sequelize.query<{ target_url: string; company_name: string | null }>(
    `SELECT c.target_url, co.name AS company_name FROM campaigns c LEFT JOIN companies co ON co.id = c.company_id AND co.account_id = c.account_id
      WHERE c.id = $1 AND c.account_id = $2`,
    { bind: [campaignId, accountId], type: QueryTypes.SELECT, transaction: tx },
  );
  const row = rows[0];
  return row === undefined ? null : brandName(row.company_name, row.target_url);
}

/**
 * Counts the answer against the mailbox it goes through, while active: today's count and the last
 * send move, so the campaigns' caps and minimum gaps see the mailbox used. The cap does not refuse
 * it (docs/decisions.md, "Answers in the thread"). False when the mailbox is not active.
 */
export async function countMailboxSend(sequelize: Sequelize, tx: Transaction, accountId: string, mailboxId: string): Promise<boolean> {
  const rows = await sequelize.query<{ id: string }>(
    `UPDATE mailboxes SET
       sent_today = CASE WHEN sent_day = (now() AT TIME ZONE 'UTC')::date THEN sent_today + 1 ELSE 1 END,
       sent_day = (now() AT TIME ZONE 'UTC')::date,
       last_sent_at = now(),
       updated_at = now()
     WHERE id = $1 AND account_id = $2 AND active
     RETURNING id`,
    { bind: [mailboxId, accountId], type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.length > 0;
}
