import type { QueryInterface } from 'sequelize';

/**
 * The lead's thread (GET /v1/leads/:id/thread, the dashboard's thread page) reads by lead what was
 * only ever read by campaign: the lead's emails, its inbound messages, and the facts of those
 * emails. Without these, each thread scans the three tables of the whole service.
 * - `emails_lead`: a lead's emails across campaigns (the unique key starts with the campaign);
 * - `replies_lead`: a lead's inbound messages in time order;
 * - `email_events_email`: the facts of the thread's emails (the existing indexes start with the
 *   campaign or the account and the type).
 */
const UP = `
CREATE INDEX emails_lead ON emails (lead_id, sent_at);
CREATE INDEX replies_lead ON replies (lead_id, received_at) WHERE lead_id IS NOT NULL;
CREATE INDEX email_events_email ON email_events (email_id, occurred_at) WHERE email_id IS NOT NULL;
`;

const DOWN = `
DROP INDEX IF EXISTS email_events_email;
DROP INDEX IF EXISTS replies_lead;
DROP INDEX IF EXISTS emails_lead;
`;

export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(UP);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(DOWN);
}
