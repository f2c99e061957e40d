import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { EmailEventType } from '../db/models/email-event';
import { emitEvent } from '../webhooks/outbox-repository';

export interface EmailFact {
  readonly accountId: string;
  readonly campaignId: string | null;
  readonly emailId: string | null;
  readonly leadId: string | null;
  readonly type: EmailEventType;
  readonly occurredAt: Date;
  readonly data?: Record<string, unknown>;
  /**
   * Names the fact so that recording it twice records it once: e.g. `opened:<emailId>`,
   * `clicked:<emailId>:<linkIndex>`, `sent:<emailId>`.
   */
  readonly dedupeKey: string;
}

export interface RecordOptions {
  /**
   * Also write the `email.<type>` outbox event (default). False for a fact that moves from one
   * reply to another of the same email (a corrected label): receivers were told of it already.
   */
  readonly announce?: boolean;
}

/**
 * Records a fact about an email (sent, opened, replied, ...) and its `email.<type>` outbox event in
 * the caller's transaction. Returns false when the fact was already recorded (nothing is written).
 */
export async function recordEmailFact(sequelize: Sequelize, tx: Transaction, f: EmailFact, opts: RecordOptions = {}): Promise<boolean> {
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, data, dedupe_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
     ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
    {
      bind: [f.accountId, f.campaignId, f.emailId, f.leadId, f.type, f.occurredAt.toISOString(), JSON.stringify(f.data ?? {}), f.dedupeKey],
      type: QueryTypes.SELECT,
      transaction: tx,
    },
  );
  if (rows.length === 0) return false;
  if (opts.announce === false) return true;
  await emitEvent(sequelize, tx, {
    accountId: f.accountId,
    campaignId: f.campaignId,
    event: `email.${f.type}`,
    data: { email_id: f.emailId, lead_id: f.leadId, occurred_at: f.occurredAt.toISOString(), ...f.data },
    at: f.occurredAt,
  });
  return true;
}

/**
 * Deletes the fact named `dedupeKey` when the reply `replyId` caused it (its `data.reply_id`), in
 * the caller's transaction: a reply's label corrected away from what recorded it. A fact another
 * reply (or a link, a calendar) recorded under that key stays. True when a fact was deleted.
 * Receivers are not told: there is no event for a fact taken back.
 */
export async function deleteReplyFact(sequelize: Sequelize, tx: Transaction, dedupeKey: string, replyId: string): Promise<boolean> {
  const rows = await sequelize.query<{ id: string }>(`DELETE FROM email_events WHERE dedupe_key = $1 AND data->>'reply_id' = $2 RETURNING id`, {
    bind: [dedupeKey, replyId],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows.length > 0;
}

/** Whether the lead has a fact of `type` in the campaign (any email of it, any source). */
export async function leadHasFact(sequelize: Sequelize, tx: Transaction, campaignId: string, leadId: string, type: EmailEventType): Promise<boolean> {
  const rows = await sequelize.query(`SELECT 1 FROM email_events WHERE campaign_id = $1 AND type = $3 AND lead_id = $2 LIMIT 1`, {
    bind: [campaignId, leadId, type],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows.length > 0;
}
