import { QueryTypes, type Sequelize } from 'sequelize';
import type { Config } from '../config/config';
import type { AddressPolicy } from '../egress/address-policy';
import { defaultSmtpUrl } from '../sending/smtp-url';

export interface Dkim {
  readonly domainName: string;
  readonly keySelector: string;
  readonly privateKey: string;
}

/** Which SMTP server a service email goes through, and how it is signed. */
export interface MailRoute {
  /** The mailbox whose server it is; null: the default transport. */
  readonly mailboxId: string | null;
  readonly smtpUrl: string;
  /**
   * Set for a customer's mailbox: its host must pass the egress address policy (resolved, checked
   * and pinned by SmtpTransports, as for campaign emails). Null for the operator's own SMTP_URL or
   * the local sink, which are trusted.
   */
  readonly guard: AddressPolicy | null;
  readonly dkim: Dkim | null;
}

/** SMTP_URL, or the local sink: the server of the account's default sender. */
export function defaultRoute(config: Pick<Config, 'smtpUrl' | 'smtpSinkPort'>): MailRoute {
  return { mailboxId: null, smtpUrl: defaultSmtpUrl(config), guard: null, dkim: null };
}

interface MailboxRow {
  smtp_url: string;
  dkim_domain: string | null;
  dkim_selector: string | null;
  dkim_private_key: string | null;
}

/**
 * The route through the account's mailbox `mailboxId` while it is active (its server, under the
 * egress policy, and its DKIM key when it has one); null when it was deactivated or deleted.
 */
export async function mailboxRoute(sequelize: Sequelize, config: Pick<Config, 'allowLoopbackEgress'>, accountId: string, mailboxId: string): Promise<MailRoute | null> {
  const rows = await sequelize.query<MailboxRow>(
    `SELECT smtp_url, dkim_domain, dkim_selector, dkim_private_key FROM mailboxes WHERE id = $1 AND account_id = $2 AND active`,
    { bind: [mailboxId, accountId], type: QueryTypes.SELECT },
  );
  const m = rows[0];
  if (m === undefined) return null;
  const dkim =
    m.dkim_domain !== null && m.dkim_selector !== null && m.dkim_private_key !== null
      ? { domainName: m.dkim_domain, keySelector: m.dkim_selector, privateKey: m.dkim_private_key }
      : null;
  return { mailboxId, smtpUrl: m.smtp_url, guard: { allowLoopback: config.allowLoopbackEgress }, dkim };
}
