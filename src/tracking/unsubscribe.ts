import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { recordEmailFact } from '../records/email-events';
import { isSuppressed, suppressAddress } from '../records/suppressions';

/**
 * Unsubscribing from an email's link. Unlike opens and clicks this is committed to PostgreSQL
 * before the response: the address is on the suppression list before the next send can look.
 */
interface EmailRow {
  readonly account_id: string;
  readonly campaign_id: string;
  readonly lead_id: string;
  readonly to_email: string;
}

async function emailRow(sequelize: Sequelize, emailId: string, tx: Transaction | null = null): Promise<EmailRow | undefined> {
  const rows = await sequelize.query<EmailRow>(`SELECT account_id, campaign_id, lead_id, to_email FROM emails WHERE id = $1`, {
    bind: [emailId],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows[0];
}

export interface UnsubscribeTarget {
  readonly address: string;
  readonly alreadyUnsubscribed: boolean;
}

/** What the confirmation page shows: the address the email went to, and whether it is already off the list. */
export async function unsubscribeTarget(sequelize: Sequelize, emailId: string): Promise<UnsubscribeTarget | undefined> {
  const row = await emailRow(sequelize, emailId);
  if (!row) return undefined;
  return { address: row.to_email, alreadyUnsubscribed: await isSuppressed(sequelize, null, row.account_id, row.to_email) };
}

/**
 * Suppresses the email's address for its account (reason `unsubscribe`) and records the
 * `unsubscribed` fact with its outbox event, in one transaction. Repeating it changes nothing.
 * False when the email does not exist (any more).
 */
export async function unsubscribeByEmail(sequelize: Sequelize, emailId: string, at: Date = new Date()): Promise<boolean> {
  return sequelize.transaction(async (tx) => {
    const row = await emailRow(sequelize, emailId, tx);
    if (!row) return false;
    await suppressAddress(sequelize, tx, row.account_id, row.to_email, 'unsubscribe', emailId);
    await recordEmailFact(sequelize, tx, {
      accountId: row.account_id,
      campaignId: row.campaign_id,
      emailId,
      leadId: row.lead_id,
      type: 'unsubscribed',
      occurredAt: at,
      dedupeKey: `unsubscribed:${emailId}`,
    });
    return true;
  });
}
