import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { LeadFactSink } from '../campaigns/control/lead-fact-signals';
import { recordEmailFact } from '../sending/email-event-repository';
import { isSuppressed, suppressAddress } from '../suppressions/suppression-repository';

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

export interface UnsubscribeOptions {
  readonly at?: Date;
  /** Told after the commit, so the campaign's workflow drops the lead's remaining steps. */
  readonly leadFacts?: LeadFactSink;
}

/**
 * Suppresses the email's address for its account (reason `unsubscribe`) and records the
 * `unsubscribed` fact with its outbox event, in one transaction. Repeating it changes nothing.
 * False when the email does not exist (any more).
 */
export async function unsubscribeByEmail(sequelize: Sequelize, emailId: string, opts: UnsubscribeOptions = {}): Promise<boolean> {
  const at = opts.at ?? new Date();
  const done = await sequelize.transaction(async (tx) => {
    const row = await emailRow(sequelize, emailId, tx);
    if (!row) return null;
    await suppressAddress(sequelize, tx, row.account_id, row.to_email, 'unsubscribe', emailId);
    const recorded = await recordEmailFact(sequelize, tx, {
      accountId: row.account_id,
      campaignId: row.campaign_id,
      emailId,
      leadId: row.lead_id,
      type: 'unsubscribed',
      occurredAt: at,
      dedupeKey: `unsubscribed:${emailId}`,
    });
    return { row, recorded };
  });
  if (done === null) return false;
  if (done.recorded) opts.leadFacts?.notify([{ campaignId: done.row.campaign_id, leadId: done.row.lead_id, fact: 'unsubscribed' }]);
  return true;
}
