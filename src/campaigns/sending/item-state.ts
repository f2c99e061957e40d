import { leadBlockSql } from '../../sending/lead-block-sql';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { EmailStatus } from '../../db/models/email';
import type { VariantId } from '../model/sequence';
import type { StopFact } from '../model/templates';
import type { MergeLead } from '../sequences/merge-variables';

/** The lead as a batch writes to it: its fields, custom fields and profile. */
export interface ItemLead extends MergeLead {
  /** The profile's department id and seniority (src/leads/profile), for the built-in writer. */
  readonly department: string | null;
  readonly seniority: string | null;
}

/** An email of this campaign already sent to the lead, for threading and the sender it came from. */
export interface SentBefore {
  readonly step: number;
  readonly subject: string;
  readonly messageId: string;
  readonly startsThread: boolean;
  readonly mailboxId: string | null;
}

/** Everything one item of a batch is decided on, read in one statement right before it. */
export interface ItemState {
  readonly campaignStatus: string;
  /** Null when the lead no longer exists in the account. */
  readonly lead: ItemLead | null;
  /** The first fact of this campaign that ended the lead's sequence, if any. */
  readonly stopFact: StopFact | null;
  /** On the account's suppression list, or marked bounced or unsubscribed (by any campaign). */
  readonly suppressed: boolean;
  /** Blocklisted, removed from the campaign or an invalid address (see leadBlockSql): not written, not sent. */
  readonly blockedBy: string | null;
  /** The row of an earlier attempt at this (campaign, lead, step), with the content it kept. */
  readonly email: {
    readonly id: string;
    readonly status: EmailStatus;
    readonly messageId: string;
    readonly subject: string;
    readonly variant: VariantId | null;
    readonly startsThread: boolean | null;
    readonly text: string | null;
    readonly html: string | null;
    readonly mailboxId: string | null;
  } | null;
  /** The step was passed over for this lead earlier (a retry reports it again). */
  readonly skip: { readonly variant: VariantId | null; readonly reason: string } | null;
  /** The campaign's emails sent to the lead before this step, oldest first. */
  readonly sentBefore: readonly SentBefore[];
}

interface Row {
  campaign_status: string;
  lead_id: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  company: string | null;
  company_domain: string | null;
  industry: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  linkedin_url: string | null;
  phone: string | null;
  custom_fields: Record<string, string> | null;
  department: string | null;
  seniority: string | null;
  suppressed: boolean | null;
  blocked_by: string | null;
  stop_fact: StopFact | null;
  email_id: string | null;
  email_status: EmailStatus | null;
  message_id: string | null;
  subject: string | null;
  variant: VariantId | null;
  starts_thread: boolean | null;
  body_text: string | null;
  body_html: string | null;
  mailbox_id: string | null;
  skip_variant: VariantId | null;
  skip_reason: string | null;
  sent_before: Array<{ step: number; subject: string; message_id: string; starts_thread: boolean; mailbox_id: string | null }> | null;
}

// Auto-replies record no fact (src/replies/ingest.ts), so an out-of-office never stops a sequence.
// An email row from before threads were recorded opened one only as the first step.
const SQL = `
SELECT c.status AS campaign_status,
  l.id AS lead_id, l.email, l.first_name, l.last_name, l.title, l.company, l.company_domain, l.industry, l.city, l.state, l.country,
  l.linkedin_url, l.phone, l.custom_fields, l.department, l.seniority,
  (l.bounced_at IS NOT NULL OR l.unsubscribed_at IS NOT NULL
    OR EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email)) AS suppressed,
  ${leadBlockSql('l.account_id', 'l.email', 'c.id', 'l.id', 'l.verification')} AS blocked_by,
  (SELECT f.type FROM email_events f
    WHERE f.campaign_id = c.id AND f.lead_id = $2 AND f.type IN ('replied', 'meeting_booked', 'unsubscribed', 'bounced')
    ORDER BY f.occurred_at, f.id LIMIT 1) AS stop_fact,
  e.id AS email_id, e.status AS email_status, e.message_id, e.subject, e.variant, e.starts_thread, e.body_text, e.body_html, e.mailbox_id,
  k.variant AS skip_variant, k.reason AS skip_reason,
  (SELECT json_agg(json_build_object('step', p.step, 'subject', p.subject, 'message_id', p.message_id,
            'starts_thread', coalesce(p.starts_thread, p.step = 0), 'mailbox_id', p.mailbox_id) ORDER BY p.step)
     FROM emails p WHERE p.campaign_id = c.id AND p.lead_id = $2 AND p.step < $3 AND p.status = 'sent') AS sent_before
FROM campaigns c
LEFT JOIN leads l ON l.id = $2 AND l.account_id = c.account_id
LEFT JOIN emails e ON e.campaign_id = c.id AND e.lead_id = $2 AND e.step = $3
LEFT JOIN step_skips k ON k.campaign_id = c.id AND k.lead_id = $2 AND k.step = $3
WHERE c.id = $1 AND c.account_id = $4`;

type LeadColumns = Pick<Row, 'first_name' | 'last_name' | 'title' | 'company' | 'company_domain' | 'industry' | 'city' | 'state' | 'country' | 'linkedin_url' | 'phone' | 'custom_fields' | 'department' | 'seniority'>;

function itemLead(r: LeadColumns & { email: string }): ItemLead {
  return {
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    title: r.title,
    company: r.company,
    companyDomain: r.company_domain,
    industry: r.industry,
    city: r.city,
    state: r.state,
    country: r.country,
    linkedinUrl: r.linkedin_url,
    phone: r.phone,
    customFields: r.custom_fields,
    department: r.department,
    seniority: r.seniority,
  };
}

/** One lead of the account as a batch writes to it (a preview's lead), or null when it is not the account's. */
export async function readItemLead(sequelize: Sequelize, accountId: string, leadId: string): Promise<ItemLead | null> {
  const [r] = await sequelize.query<LeadColumns & { email: string }>(
    `SELECT l.email, l.first_name, l.last_name, l.title, l.company, l.company_domain, l.industry, l.city, l.state, l.country,
            l.linkedin_url, l.phone, l.custom_fields, l.department, l.seniority
       FROM leads l WHERE l.id = $1 AND l.account_id = $2`,
    { bind: [leadId, accountId], type: QueryTypes.SELECT },
  );
  return r === undefined ? null : itemLead(r);
}

/** The item's state, or null when the campaign is not the account's. */
export async function readItemState(sequelize: Sequelize, accountId: string, campaignId: string, leadId: string, step: number): Promise<ItemState | null> {
  const [r] = await sequelize.query<Row>(SQL, { bind: [campaignId, leadId, step, accountId], type: QueryTypes.SELECT });
  if (r === undefined) return null;
  return {
    campaignStatus: r.campaign_status,
    lead: r.lead_id === null || r.email === null ? null : itemLead(r as LeadColumns & { email: string }),
    stopFact: r.stop_fact,
    suppressed: r.suppressed === true,
    blockedBy: r.blocked_by,
    email:
      r.email_id === null
        ? null
        : {
            id: r.email_id,
            status: r.email_status as EmailStatus,
            messageId: r.message_id as string,
            subject: r.subject as string,
            variant: r.variant,
            startsThread: r.starts_thread,
            text: r.body_text,
            html: r.body_html,
            mailboxId: r.mailbox_id,
          },
    skip: r.skip_reason === null ? null : { variant: r.skip_variant, reason: r.skip_reason },
    sentBefore: (r.sent_before ?? []).map((p) => ({ step: p.step, subject: p.subject, messageId: p.message_id, startsThread: p.starts_thread, mailboxId: p.mailbox_id })),
  };
}

/** The thread a step without its own subject replies in: from the last email that opened one. */
export function threadOf(sentBefore: readonly SentBefore[]): { subject: string | null; messageIds: string[] } {
  let start = -1;
  sentBefore.forEach((e, i) => {
    if (e.startsThread) start = i;
  });
  if (start < 0) return { subject: null, messageIds: [] };
  const thread = sentBefore.slice(start);
  return { subject: thread[0]!.subject, messageIds: thread.map((e) => e.messageId) };
}
