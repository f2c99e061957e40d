import { QueryTypes, type Sequelize } from 'sequelize';
import type { InboundMessage } from './inbound-message';
import { leadName, type LeadSnapshot } from './sent-email';

export interface Attribution {
  readonly accountId: string;
  readonly leadId: string | null;
  readonly lead: LeadSnapshot;
}

const NO_LEAD: LeadSnapshot = { name: null, company: null, title: null };

/**
 * The account a message that matches no sent email belongs to, if that is unambiguous: the one
 * account owning a mailbox the message was addressed to, else the one account that has the sender
 * as a lead. Several candidates (a shared default sender, a person who is a lead of two accounts)
 * mean "unknown": the message is not stored rather than shown to the wrong account.
 */
export async function attributeUnmatched(sequelize: Sequelize, msg: InboundMessage): Promise<Attribution | null> {
  const sender = msg.from?.address ?? null;
  const leads =
    sender === null
      ? []
      : await sequelize.query<{ id: string; account_id: string; first_name: string | null; last_name: string | null; company: string | null; title: string | null }>(
          `SELECT id, account_id, first_name, last_name, company, title FROM leads WHERE email = $1`,
          { bind: [sender], type: QueryTypes.SELECT },
        );
  const snapshotIn = (accountId: string): Pick<Attribution, 'leadId' | 'lead'> => {
    const l = leads.find((x) => x.account_id === accountId);
    return l ? { leadId: l.id, lead: { name: leadName(l.first_name, l.last_name), company: l.company, title: l.title } } : { leadId: null, lead: NO_LEAD };
  };
  if (msg.recipients.length > 0) {
    const owners = await sequelize.query<{ account_id: string }>(`SELECT DISTINCT account_id FROM mailboxes WHERE lower(from_email) = ANY($1::text[])`, {
      bind: [msg.recipients],
      type: QueryTypes.SELECT,
    });
    if (owners.length === 1) {
      const accountId = (owners[0] as { account_id: string }).account_id;
      return { accountId, ...snapshotIn(accountId) };
    }
    if (owners.length > 1) return null;
  }
  const accounts = [...new Set(leads.map((l) => l.account_id))];
  if (accounts.length !== 1) return null;
  const accountId = accounts[0] as string;
  return { accountId, ...snapshotIn(accountId) };
}
