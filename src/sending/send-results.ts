import type { Sequelize } from 'sequelize';
import { newId } from '../accounts/ids';
import { runBatchParts, type BatchPart } from '../db/prepared-query';
import { recordEmailFact } from './email-event-repository';
import { suppressAddress } from '../suppressions/suppression-repository';

/** The email and lead a result is recorded for. */
export interface SentEmailRef {
  readonly emailId: string;
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  readonly step: number;
  readonly messageId: string;
  readonly toEmail: string;
  /** A resend after an attempt that reached the end of its data unanswered (see email-repository.ts). */
  readonly possibleDuplicate?: boolean;
}

/**
 * Servers accepted these messages. In ONE transaction and one round trip (on the hottest path of
 * the worker, for every email of the batch, see runBatchParts): each row becomes 'sent'; the facts
 * 'sent' and 'delivered' (delivered means accepted by the first SMTP hop; a later bounce arrives as
 * a reply) and the sending cost are recorded, each with its outbox event written only if the fact
 * itself was new. Every write is keyed by the email, so recording it again (a retry after a crash
 * right here) changes nothing.
 *
 * It writes exactly the rows recordEmailFact and recordCost write (test/sending/send-results.test.ts
 * holds the two side by side): those take nine statements per email, and on this path they were
 * most of the worker's CPU and PostgreSQL's per email.
 *
 * The rows become 'sent' one execution each, by primary key: a plan that stays right however
 * small the table was when the connection planned it (an UPDATE ... FROM the items' JSON was
 * planned as a hash join over a sequential scan of emails when the table was small, and kept).
 */
const ACCEPTED_UPDATE_SQL = `
UPDATE emails SET status = 'sent', smtp_phase = 'accepted', smtp_response = $2::text, sent_at = COALESCE(sent_at, $3::timestamptz), error = NULL, updated_at = now()
WHERE id = $1::text AND status IN ('sending', 'sent')`;

/**
 * The facts, costs and outbox events of the accepted emails, all in one statement: only inserts,
 * whose conflicts and foreign keys are index probes, so no plan choice can make it scan a table.
 */
const ACCEPTED_RECORDS_SQL = `
WITH i AS (
  -- An email twice in one batch is recorded once (its second item would only meet the conflicts).
  SELECT DISTINCT ON (email_id) * FROM jsonb_to_recordset($1::jsonb) AS i(email_id text, at timestamptz, account_id text,
    campaign_id text, lead_id text, data jsonb, amount_usd numeric, sent_event_id text, delivered_event_id text,
    cost_event_id text, fact_event jsonb, cost_event jsonb)
), facts AS (
  INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, data, dedupe_key)
  SELECT i.account_id, i.campaign_id, i.email_id, i.lead_id, t.type, i.at, i.data, t.type || ':' || i.email_id
  FROM i CROSS JOIN (VALUES ('sent'), ('delivered')) AS t(type)
  ON CONFLICT (dedupe_key) DO NOTHING
  RETURNING email_id, type
), cost AS (
  INSERT INTO costs (account_id, campaign_id, category, cost_name, feature_slug, brand_id, amount_usd, quantity, details, idempotency_key, occurred_at)
  SELECT i.account_id, i.campaign_id, 'email_sending', 'smtp', 'email-sending', NULL, i.amount_usd, 1, jsonb_build_object('email_id', i.email_id),
    'send:' || i.email_id, i.at
  FROM i
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING idempotency_key
), events AS (
  INSERT INTO outbox (id, account_id, campaign_id, event, data, created_at)
  SELECT CASE f.type WHEN 'sent' THEN i.sent_event_id ELSE i.delivered_event_id END, i.account_id, i.campaign_id, 'email.' || f.type, i.fact_event, i.at
  FROM facts f JOIN i ON i.email_id = f.email_id
  UNION ALL
  SELECT i.cost_event_id, i.account_id, i.campaign_id, 'cost.recorded', i.cost_event, now()
  FROM cost c JOIN i ON c.idempotency_key = 'send:' || i.email_id
  RETURNING id
)
SELECT (SELECT count(*) FROM events)::int AS events`;

export interface AcceptedEmail {
  readonly ref: SentEmailRef;
  readonly smtpResponse: string;
  readonly priceUsd: number;
}

/** The accepted emails as a part of a batch (see runBatchParts and ACCEPTED_RECORDS_SQL); nothing to read back. */
export function acceptedPart(accepted: readonly AcceptedEmail[]): BatchPart<undefined[]> {
  const items = accepted.map(({ ref, smtpResponse, priceUsd }) => {
    if (!Number.isFinite(priceUsd) || priceUsd < 0) throw new RangeError(`price must be a non-negative number, got ${priceUsd}`);
    const at = new Date().toISOString();
    const data = { step: ref.step, message_id: ref.messageId, ...(ref.possibleDuplicate === true ? { possible_duplicate: true } : {}) };
    return {
      email_id: ref.emailId,
      smtp_response: smtpResponse.slice(0, 2000),
      at,
      account_id: ref.accountId,
      campaign_id: ref.campaignId,
      lead_id: ref.leadId,
      data,
      amount_usd: priceUsd.toFixed(6),
      sent_event_id: newId('evt'),
      delivered_event_id: newId('evt'),
      cost_event_id: newId('evt'),
      // The outbox payloads in the recorders' shapes (see records/email-events.ts and records/costs.ts).
      fact_event: { email_id: ref.emailId, lead_id: ref.leadId, occurred_at: at, ...data },
      cost_event: { category: 'email_sending', cost_name: 'smtp', feature_slug: 'email-sending', amount_usd: priceUsd, quantity: 1 },
    };
  });
  // One update per email (an email twice in a batch is recorded once, as in ACCEPTED_RECORDS_SQL).
  const firstOfEach = new Map<string, (typeof items)[number]>();
  for (const i of items) if (!firstOfEach.has(i.email_id)) firstOfEach.set(i.email_id, i);
  return {
    steps: [
      ...[...firstOfEach.values()].map((i) => ({ name: 'sending_accepted_row', text: ACCEPTED_UPDATE_SQL, values: [i.email_id, i.smtp_response, i.at] })),
      { name: 'sending_accepted_records', text: ACCEPTED_RECORDS_SQL, values: [JSON.stringify(items.map(({ smtp_response: _response, ...rest }) => rest))] },
    ],
    read: () => accepted.map(() => undefined),
  };
}

/** Records several accepted emails in one transaction (see acceptedPart); all or none are written. */
export async function recordAcceptedBatch(sequelize: Sequelize, accepted: readonly AcceptedEmail[]): Promise<void> {
  await runBatchParts(sequelize, [acceptedPart(accepted)]);
}

/** One accepted email (see recordAcceptedBatch). */
export async function recordAccepted(sequelize: Sequelize, ref: SentEmailRef, smtpResponse: string, priceUsd: number): Promise<void> {
  await recordAcceptedBatch(sequelize, [{ ref, smtpResponse, priceUsd }]);
}

/**
 * The server refused the recipient for good: the row becomes 'bounced', the address goes on the
 * account's suppression list (which also stamps the lead's bounced_at) and the fact is recorded.
 */
export async function recordHardBounce(sequelize: Sequelize, ref: SentEmailRef, smtpResponse: string): Promise<void> {
  const at = new Date();
  await sequelize.transaction(async (tx) => {
    await sequelize.query(
      `UPDATE emails SET status = 'bounced', smtp_phase = 'refused', bounced_at = $3, smtp_response = $2, error = $2, updated_at = now()
       WHERE id = $1 AND status IN ('sending', 'sent')`,
      { bind: [ref.emailId, smtpResponse.slice(0, 2000), at.toISOString()], transaction: tx },
    );
    await suppressAddress(sequelize, tx, ref.accountId, ref.toEmail, 'hard_bounce', ref.emailId);
    await recordEmailFact(sequelize, tx, {
      accountId: ref.accountId,
      campaignId: ref.campaignId,
      emailId: ref.emailId,
      leadId: ref.leadId,
      type: 'bounced',
      occurredAt: at,
      data: { step: ref.step, message_id: ref.messageId, smtp_response: smtpResponse.slice(0, 500), kind: 'hard' },
      dedupeKey: `bounced:${ref.emailId}`,
    });
  });
}
