import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/** A sent email an inbound message refers to, with the lead it went to. */
export interface SentEmail {
  readonly emailId: string;
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  /** Our address it was sent from, and the lead's address it went to. */
  readonly fromEmail: string;
  readonly toEmail: string;
  readonly lead: LeadSnapshot;
}

/** The lead as it is when the reply arrives: copied onto the reply so it reads the same later. */
export interface LeadSnapshot {
  readonly name: string | null;
  readonly company: string | null;
  readonly title: string | null;
}

interface Row {
  email_id: string;
  account_id: string;
  campaign_id: string;
  lead_id: string;
  from_email: string;
  to_email: string;
  message_id: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  title: string | null;
}

export function leadName(firstName: string | null, lastName: string | null): string | null {
  const name = [firstName, lastName].filter((p) => p !== null && p.trim() !== '').join(' ').trim();
  return name === '' ? null : name;
}

const bare = (id: string): string => id.replace(/^<|>$/g, '');

/**
 * Finds the sent email among `ids` (bare Message-IDs, best first) in one query. Ids are looked
 * up with and without angle brackets, whichever way the sender stored them; the best-ranked id
 * that names an email wins.
 */
export async function findSentEmail(sequelize: Sequelize, ids: readonly string[], tx: Transaction | null = null): Promise<SentEmail | null> {
  if (ids.length === 0) return null;
  const rows = await sequelize.query<Row>(
    `SELECT e.id AS email_id, e.account_id, e.campaign_id, e.lead_id, e.from_email, e.to_email, e.message_id,
            l.first_name, l.last_name, l.company, l.title
       FROM emails e JOIN leads l ON l.id = e.lead_id
      WHERE e.message_id = ANY($1::text[])`,
    { bind: [ids.flatMap((id) => [id, `<${id}>`])], type: QueryTypes.SELECT, transaction: tx },
  );
  for (const id of ids) {
    const r = rows.find((row) => bare(row.message_id) === id);
    if (r) {
      return {
        emailId: r.email_id,
        accountId: r.account_id,
        campaignId: r.campaign_id,
        leadId: r.lead_id,
        fromEmail: r.from_email,
        toEmail: r.to_email,
        lead: { name: leadName(r.first_name, r.last_name), company: r.company, title: r.title },
      };
    }
  }
  return null;
}
