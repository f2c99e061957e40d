import type { Sequelize } from 'sequelize';
import { readAccountSender, senderIdentity } from '../campaigns/sending/batch-context';
import type { Config } from '../config/config';
import { NotFoundError } from '../errors/domain-errors';
import type { Party } from '../sending/compose';
import { defaultSmtpUrl } from '../sending/smtp-url';

/** Who service mail comes from, and over which SMTP server. */
export interface ServiceSender {
  readonly from: Party;
  /** The operator's own server (SMTP_URL) or the local sink: trusted, no egress policy. */
  readonly smtpUrl: string;
}


/**
 * The account's default sender as campaign emails without a mailbox have it (senderIdentity with no
 * mailbox and no brand): `accounts.sender_name`, else the account's name, at DEFAULT_FROM_EMAIL.
 */
export async function serviceSender(sequelize: Sequelize, config: Config, accountId: string): Promise<ServiceSender> {
  const found = await readAccountSender(sequelize, accountId);
  if (found === null) throw new NotFoundError('account');
  const identity = senderIdentity(null, found.account, null, config.defaultFromEmail);
  return { from: { address: identity.email, name: identity.name }, smtpUrl: defaultSmtpUrl(config) };
}
