import { QueryTypes, type Sequelize } from 'sequelize';
import type { EmailStatus } from '../../db/models/email';
import type { StopFact } from '../model/templates';
import type { WriteEmailInput } from '../../writing/types';

/** Everything one item of a batch is decided on, read in one statement right before it. */
export interface ItemState {
  readonly campaignStatus: string;
  /** Null when the lead no longer exists in the account. */
  readonly lead: WriteEmailInput['lead'] | null;
  /** The first fact of this campaign that ended the lead's sequence, if any. */
  readonly stopFact: StopFact | null;
  /** On the account's suppression list, or marked bounced or unsubscribed (by any campaign). */
  readonly suppressed: boolean;
  /** The row of an earlier attempt at this (campaign, lead, step). */
  readonly email: { readonly id: string; readonly status: EmailStatus; readonly messageId: string; readonly subject: string } | null;
}

interface Row {
  campaign_status: string;
  lead_id: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  company: string | null;
  industry: string | null;
  city: string | null;
  suppressed: boolean | null;
  stop_fact: StopFact | null;
  email_id: string | null;
  email_status: EmailStatus | null;
  message_id: string | null;
  subject: string | null;
}

// Auto-replies record no fact (src/replies/ingest.ts), so an out-of-office never stops a sequence.
const SQL = `
SELECT c.status AS campaign_status,
  l.id AS lead_id, l.email, l.first_name, l.last_name, l.title, l.company, l.industry, l.city,
  (l.bounced_at IS NOT NULL OR l.unsubscribed_at IS NOT NULL
    OR EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email)) AS suppressed,
  (SELECT f.type FROM email_events f
    WHERE f.campaign_id = c.id AND f.lead_id = $2 AND f.type IN ('replied', 'meeting_booked', 'unsubscribed', 'bounced')
    ORDER BY f.occurred_at, f.id LIMIT 1) AS stop_fact,
  e.id AS email_id, e.status AS email_status, e.message_id, e.subject
FROM campaigns c
LEFT JOIN leads l ON l.id = $2 AND l.account_id = c.account_id
LEFT JOIN emails e ON e.campaign_id = c.id AND e.lead_id = $2 AND e.step = $3
WHERE c.id = $1 AND c.account_id = $4`;

/** The item's state, or null when the campaign is not the account's. */
export async function readItemState(sequelize: Sequelize, accountId: string, campaignId: string, leadId: string, step: number): Promise<ItemState | null> {
  const [r] = await sequelize.query<Row>(SQL, { bind: [campaignId, leadId, step, accountId], type: QueryTypes.SELECT });
  if (r === undefined) return null;
  return {
    campaignStatus: r.campaign_status,
    lead:
      r.lead_id === null || r.email === null
        ? null
        : { email: r.email, firstName: r.first_name, lastName: r.last_name, title: r.title, company: r.company, industry: r.industry, city: r.city },
    stopFact: r.stop_fact,
    suppressed: r.suppressed === true,
    email:
      r.email_id === null ? null : { id: r.email_id, status: r.email_status as EmailStatus, messageId: r.message_id as string, subject: r.subject as string },
  };
}
