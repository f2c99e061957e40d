/**
 * Erasing a lead for a person who asks to be forgotten (DELETE /v1/leads/:id). The person's data
 * goes from every table that holds it; what the account's figures are made of stays, anonymised:
 *
 * - `leads`: the row stays as a tombstone so the emails that refer to it stay counted. Its address
 *   becomes `erased-<hex of the id>@erased.invalid` (`.invalid` is reserved: RFC 2606, never
 *   deliverable), every other field, custom field, profile column, status and verification result
 *   is cleared, `erased_at` is set and so is `unsubscribed_at` (every send gate refuses such a lead).
 * - `lead_list_members`: removed from every list.
 * - `campaign_enrolments`: its queued and running sequences end (`erased`).
 * - `emails`: rows kept (sent, delivered, bounced ... stay counted), recipient replaced by the
 *   placeholder, subject emptied, bodies, SMTP response and error cleared.
 * - `email_events`, `outbox` (webhook events): kept; the person's members (address, name,
 *   company, title, preview, recipient, diagnostic) dropped and the address, plain or
 *   percent-encoded, replaced wherever else it appears.
 * - `replies` (the lead's, or from its address): sender address replaced, names, subject, bodies
 *   (text and HTML), preview and the lead snapshot cleared; category and sentiment kept (counted).
 * - `service_emails` of the answers written to the lead: recipient replaced, subject, bodies and
 *   Cc emptied (eraseLeadAnswers); one still being sent fails.
 * - `meetings` (the lead's, or booked by its address): address replaced, name, company and link cleared.
 * - `suppressions` and `blocklist_entries` of the address: deleted. Keeping them would keep the
 *   address; the tombstone is never sent to, and a new import of the address is a new lead.
 * - `costs`: the provider's id of the person (an enrichment's `apollo_person_id`) dropped.
 *
 * Not reached: the campaign workflows' Temporal histories (activity inputs and results, kept until
 * the namespace's retention ends) and the service's logs.
 */
import { eraseLeadAnswers } from '../conversations/answer/erase-answers';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { NotFoundError } from '../errors/domain-errors';
import { endActiveEnrolments } from '../campaigns/enrolment/enrolment-repository';
import { INPUT_COLUMNS } from './lead-repository';
import { PROFILE_COLUMNS } from './profile-columns';

/** The address an erased lead is left with: unique, lower-case, and undeliverable by definition. */
export const erasedAddress = (leadId: string): string => `erased-${Buffer.from(leadId, 'utf8').toString('hex')}@erased.invalid`;

/** JSON members that hold the person's data in event payloads (email_events.data, outbox.data). */
const PERSONAL_KEYS = ['email', 'name', 'first_name', 'last_name', 'company', 'title', 'preview', 'recipient', 'diagnostic', 'from', 'from_email', 'from_name', 'subject', 'calendar_link', 'smtp_response'];

/** A POSIX regex matching `text` literally. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);

/**
 * `data` without the personal members, and the address (plain or percent-encoded, any case)
 * replaced by the placeholder wherever it is left. $1 is the pattern, $2 the placeholder, $3 the
 * keys. The address holds no `"` or `\` (import refuses them), so it appears as itself in JSON text.
 */
const SCRUBBED = `regexp_replace((data - $3::text[])::text, $1, $2, 'gi')::jsonb`;

/** Erases the account's lead (see above) in one transaction; NotFoundError when it has none of this id, or it is already erased. */
export async function eraseLead(sequelize: Sequelize, accountId: string, leadId: string): Promise<void> {
  await sequelize.transaction(async (tx) => {
    const rows = await select<{ email: string; external_id: string | null }>(
      sequelize,
      tx,
      'SELECT email, external_id FROM leads WHERE account_id = $1 AND id = $2 AND erased_at IS NULL FOR UPDATE',
      [accountId, leadId],
    );
    const lead = rows[0];
    if (lead === undefined) throw new NotFoundError('lead');
    const placeholder = erasedAddress(leadId);
    const pattern = `${literal(lead.email)}|${literal(encodeURIComponent(lead.email))}`;

    await endActiveEnrolments(sequelize, tx, accountId, leadId, 'erased');
    await run(sequelize, tx, 'DELETE FROM lead_list_members WHERE account_id = $1 AND lead_id = $2', [accountId, leadId]);

    const emailIds = (await select<{ id: string }>(sequelize, tx, 'SELECT id FROM emails WHERE account_id = $1 AND lead_id = $2', [accountId, leadId])).map((r) => r.id);
    await run(
      sequelize,
      tx,
      `UPDATE emails SET to_email = $3, subject = '', body_text = NULL, body_html = NULL, smtp_response = NULL, error = NULL, updated_at = now()
       WHERE account_id = $1 AND lead_id = $2`,
      [accountId, leadId, placeholder],
    );
    await run(
      sequelize,
      tx,
      `UPDATE email_events SET data = ${SCRUBBED} WHERE account_id = $4 AND (lead_id = $5 OR email_id = ANY($6::text[]))`,
      [pattern, placeholder, PERSONAL_KEYS, accountId, leadId, emailIds],
    );

    const replyIds = (
      await select<{ id: string }>(
        sequelize,
        tx,
        `UPDATE replies SET from_email = $3, from_name = NULL, subject = NULL, body_text = '', body_html = NULL, preview = '', lead_name = NULL, lead_company = NULL, lead_title = NULL
         WHERE account_id = $1 AND (lead_id = $2 OR email_id = ANY($4::text[]) OR lower(from_email) = $5) RETURNING id`,
        [accountId, leadId, placeholder, emailIds, lead.email],
      )
    ).map((r) => r.id);
    await eraseLeadAnswers(sequelize, tx, accountId, leadId, placeholder);
    const meetingIds = (
      await select<{ id: string }>(
        sequelize,
        tx,
        `UPDATE meetings SET email = $3, name = NULL, company = NULL, calendar_link = NULL
         WHERE account_id = $1 AND (lead_id = $2 OR lower(email) = $4) RETURNING id`,
        [accountId, leadId, placeholder, lead.email],
      )
    ).map((r) => r.id);
    await run(
      sequelize,
      tx,
      `UPDATE outbox SET data = ${SCRUBBED}
       WHERE account_id = $4 AND (data->>'lead_id' = $5 OR data->>'email_id' = ANY($6::text[]) OR data->>'reply_id' = ANY($7::text[])
         OR data->>'meeting_id' = ANY($8::text[]) OR data::text ~* $1)`,
      [pattern, placeholder, PERSONAL_KEYS, accountId, leadId, emailIds, replyIds, meetingIds],
    );

    await run(sequelize, tx, 'DELETE FROM suppressions WHERE account_id = $1 AND email = $2', [accountId, lead.email]);
    await run(sequelize, tx, `DELETE FROM blocklist_entries WHERE account_id = $1 AND kind = 'address' AND value = $2`, [accountId, lead.email]);
    if (lead.external_id !== null) {
      await run(
        sequelize,
        tx,
        `UPDATE costs SET details = details - 'apollo_person_id' WHERE account_id = $1 AND category = 'lead_enrichment' AND details->>'apollo_person_id' = $2`,
        [accountId, lead.external_id],
      );
    }

    // Every column a lead is stored with (the address is replaced, not cleared), so a column added to
    // the import is erased too.
    const cleared = [
      ...INPUT_COLUMNS.filter((c) => c !== 'email'),
      'custom_fields',
      'external_id',
      'user_status',
      'verification',
      'verification_checks',
      'verified_at',
      ...PROFILE_COLUMNS,
    ];
    await run(
      sequelize,
      tx,
      `UPDATE leads SET email = $3, ${cleared.map((c) => `${c} = NULL`).join(', ')},
         erased_at = now(), unsubscribed_at = COALESCE(unsubscribed_at, now()), updated_at = now()
       WHERE account_id = $1 AND id = $2`,
      [accountId, leadId, placeholder],
    );
  });
}

async function select<T extends object>(sequelize: Sequelize, tx: Transaction, sql: string, bind: unknown[]): Promise<T[]> {
  return sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT, transaction: tx });
}

async function run(sequelize: Sequelize, tx: Transaction, sql: string, bind: unknown[]): Promise<void> {
  await sequelize.query(sql, { bind, transaction: tx });
}
