import { randomBytes } from 'node:crypto';
import type { CreationAttributes, Sequelize } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { Campaign, Cost, Email, EmailEvent, Lead, Reply } from '../../src/db/models';
import type { CostCategory } from '../../src/db/models/cost';
import type { EmailEventType } from '../../src/db/models/email-event';
import type { ReplyCategory, ReplyKind, Sentiment } from '../../src/db/models/reply';

/**
 * Rows of a campaign's life written straight to PostgreSQL through the models: reporting tests
 * need exact facts at exact times, not a workflow run. Every helper returns what later rows refer to.
 */

export async function seedCampaign(accountId: string, attrs: Partial<CreationAttributes<Campaign>> = {}): Promise<Campaign> {
  return Campaign.create({
    id: newId('cmp'),
    accountId,
    createdVia: 'a',
    name: 'Test campaign',
    mcp: 'sales_outreach',
    targetUrl: 'https://target.example',
    status: 'running',
    ...attrs,
  });
}

export interface LeadFields {
  readonly email?: string;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly company?: string | null;
  readonly title?: string | null;
}

export async function seedLead(accountId: string, f: LeadFields = {}): Promise<Lead> {
  return Lead.create({
    id: newId('lead'),
    accountId,
    email: f.email ?? `lead.${randomBytes(5).toString('hex')}@prospect.example`,
    firstName: f.firstName === undefined ? 'Ada' : f.firstName,
    lastName: f.lastName === undefined ? 'Lovelace' : f.lastName,
    company: f.company === undefined ? 'Analytical Engines' : f.company,
    title: f.title === undefined ? 'CTO' : f.title,
    source: 'import',
  });
}

export interface EmailFields {
  readonly step?: number;
  readonly subject?: string;
  readonly sentAt?: Date;
}

export async function seedEmail(c: Campaign, lead: Lead, f: EmailFields = {}): Promise<Email> {
  const id = newId('em');
  return Email.create({
    id,
    accountId: c.accountId,
    campaignId: c.id,
    leadId: lead.id,
    step: f.step ?? 0,
    fromEmail: 'sam@sender.example',
    toEmail: lead.email,
    subject: f.subject ?? 'Quick question',
    messageId: `<${id}@sender.example>`,
    status: 'sent',
    sentAt: f.sentAt ?? new Date(),
  });
}

export interface FactFields {
  readonly at?: Date;
  readonly data?: Record<string, unknown>;
  /** Defaults to `<type>:<emailId>:<random>`: distinct unless a test means to collide. */
  readonly dedupeKey?: string;
}

export async function seedFact(email: Email, type: EmailEventType, f: FactFields = {}): Promise<EmailEvent> {
  return EmailEvent.create({
    accountId: email.accountId,
    campaignId: email.campaignId,
    emailId: email.id,
    leadId: email.leadId,
    type,
    occurredAt: f.at ?? new Date(),
    data: f.data ?? {},
    dedupeKey: f.dedupeKey ?? `${type}:${email.id}:${randomBytes(4).toString('hex')}`,
  });
}

export interface ReplyFields {
  readonly kind?: ReplyKind;
  readonly sentiment?: Sentiment | null;
  readonly category?: ReplyCategory | null;
  readonly fromEmail?: string;
  readonly fromName?: string | null;
  readonly preview?: string;
  readonly receivedAt?: Date;
  readonly leadName?: string | null;
  readonly leadCompany?: string | null;
  /** Also record the email's `replied` fact (only real replies are facts). Default: for kind 'reply'. */
  readonly fact?: boolean;
}

/** A stored inbound message answering `email`, with the lead snapshot the ingest path copies. */
export async function seedReply(email: Email, lead: Lead, f: ReplyFields = {}): Promise<Reply> {
  const kind = f.kind ?? 'reply';
  const receivedAt = f.receivedAt ?? new Date();
  const name = [lead.firstName, lead.lastName].filter((p) => p).join(' ') || null;
  const reply = await Reply.create({
    id: newId('rpl'),
    accountId: email.accountId,
    campaignId: email.campaignId,
    emailId: email.id,
    leadId: lead.id,
    kind,
    fromEmail: f.fromEmail ?? lead.email,
    fromName: f.fromName === undefined ? name : f.fromName,
    toEmail: email.fromEmail,
    subject: `Re: ${email.subject}`,
    messageId: `<${newId('rpl')}@prospect.example>`,
    inReplyTo: email.messageId,
    bodyText: f.preview ?? 'Sounds good',
    preview: f.preview ?? 'Sounds good',
    leadName: f.leadName === undefined ? name : f.leadName,
    leadCompany: f.leadCompany === undefined ? lead.company : f.leadCompany,
    leadTitle: lead.title,
    category: f.category === undefined ? (kind === 'bounce' ? null : 'interested') : f.category,
    sentiment: f.sentiment === undefined ? (kind === 'bounce' ? null : 'positive') : f.sentiment,
    receivedAt,
  });
  if (f.fact ?? kind === 'reply') {
    await seedFact(email, 'replied', {
      at: receivedAt,
      data: { reply_id: reply.id, sentiment: reply.sentiment, category: reply.category },
      dedupeKey: `replied:${email.id}`,
    });
  }
  return reply;
}

export interface CostFields {
  readonly category?: CostCategory;
  readonly at?: Date;
  /** Null: an account-level cost with no campaign. */
  readonly campaignId?: string | null;
}

export async function seedCost(accountId: string, amountUsd: number, f: CostFields = {}): Promise<void> {
  const category = f.category ?? 'email_sending';
  await Cost.create({
    accountId,
    campaignId: f.campaignId === undefined ? null : f.campaignId,
    category,
    costName: category === 'email_sending' ? 'smtp' : category === 'ai_generation' ? 'openai:gpt-4o-mini' : 'apollo:people_match',
    featureSlug: category === 'email_sending' ? 'email-sending' : category === 'ai_generation' ? 'email-writing' : 'lead-enrichment',
    amountUsd: amountUsd.toFixed(6),
    idempotencyKey: `test:${randomBytes(8).toString('hex')}`,
    occurredAt: f.at ?? new Date(),
  });
}

/** What happened to one sent email, for seedOutcome. */
export interface Outcome {
  readonly at?: Date;
  /** Accepted by the first hop (a 'delivered' fact). Default true unless hardBounce. */
  readonly delivered?: boolean;
  /** Refused at SMTP time: a 'bounced' fact and no delivery. */
  readonly hardBounce?: boolean;
  /** Delivered, then a bounce message came back. */
  readonly bouncedLater?: boolean;
  readonly opened?: boolean;
  /** Links clicked (each a 'clicked' fact). */
  readonly clicks?: number;
  readonly replied?: boolean;
  readonly unsubscribed?: boolean;
  readonly meetings?: number;
}

/** A lead, an email sent to it and the facts of `o`, all at `o.at`. */
export async function seedOutcome(c: Campaign, o: Outcome = {}): Promise<{ lead: Lead; email: Email }> {
  const at = o.at ?? new Date();
  const lead = await seedLead(c.accountId);
  const email = await seedEmail(c, lead, { sentAt: at });
  await seedFact(email, 'sent', { at, dedupeKey: `sent:${email.id}` });
  if (o.hardBounce) await seedFact(email, 'bounced', { at, dedupeKey: `bounced:${email.id}` });
  else if (o.delivered ?? true) await seedFact(email, 'delivered', { at, dedupeKey: `delivered:${email.id}` });
  if (o.bouncedLater) await seedFact(email, 'bounced', { at, dedupeKey: `bounced:${email.id}` });
  if (o.opened || (o.clicks ?? 0) > 0) await seedFact(email, 'opened', { at, dedupeKey: `opened:${email.id}` });
  for (let n = 0; n < (o.clicks ?? 0); n++) await seedFact(email, 'clicked', { at, data: { url: `https://target.example/${n}` }, dedupeKey: `clicked:${email.id}:${n}` });
  if (o.replied) await seedReply(email, lead, { receivedAt: at });
  if (o.unsubscribed) await seedFact(email, 'unsubscribed', { at, dedupeKey: `unsubscribed:${email.id}` });
  for (let n = 0; n < (o.meetings ?? 0); n++) await seedFact(email, 'meeting_booked', { at, dedupeKey: `meeting:calcom:${email.id}:${n}` });
  return { lead, email };
}

/**
 * `emails` leads, each sent one email with facts sent, delivered, opened and clicked (4 facts per
 * email), one second apart from `start`: many rows in a few statements. Subjects are long (about
 * 300 characters) so an export of them is megabytes, more than socket buffers hold.
 */
export async function seedBulkFacts(sequelize: Sequelize, c: Campaign, emails: number, start: Date): Promise<void> {
  const bind = [c.accountId, c.id, emails, start.toISOString()];
  await sequelize.query(
    `INSERT INTO leads (id, account_id, email, first_name, last_name, company, source)
     SELECT $2 || '_l' || n, $1, 'bulk' || n || '@' || lower($2) || '.example', 'Bulk', 'Lead ' || n, 'Bulk Co', 'import'
       FROM generate_series(1, $3::int) AS n`,
    { bind: bind.slice(0, 3) },
  );
  await sequelize.query(
    `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status, sent_at)
     SELECT $2 || '_e' || n, $1, $2, $2 || '_l' || n, 0, 'sam@sender.example', 'bulk' || n || '@' || lower($2) || '.example',
            'Hello ' || n || ': ' || repeat('a long subject line ', 15), '<' || $2 || '_e' || n || '@sender.example>', 'sent', $4::timestamptz + n * interval '1 second'
       FROM generate_series(1, $3::int) AS n`,
    { bind },
  );
  await sequelize.query(
    `INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, data, dedupe_key)
     SELECT $1, $2, $2 || '_e' || n, $2 || '_l' || n, t.type, $4::timestamptz + n * interval '1 second' + t.k * interval '1 millisecond',
            CASE WHEN t.type = 'clicked' THEN jsonb_build_object('url', 'https://target.example/p' || n) ELSE '{}'::jsonb END,
            t.type || ':' || $2 || '_e' || n
       FROM generate_series(1, $3::int) AS n
      CROSS JOIN (VALUES (0, 'sent'), (1, 'delivered'), (2, 'opened'), (3, 'clicked')) AS t(k, type)`,
    { bind },
  );
}
