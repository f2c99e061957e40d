import type { Sequelize } from 'sequelize';
import { newId } from '../accounts/ids';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import { newMessageId } from '../sending/compose';
import { smtpTransports, type SmtpTransports } from '../sending/transports';
import { defaultRoute } from './mail-route';
import { markServiceEmailSent, recordServiceEmailError, reserveServiceEmail } from './service-email-repository';
import { serviceSender } from './sender';
import { transmit, type ServiceMailAttachment } from './transmit';

export type { ServiceMailAttachment } from './transmit';

export interface ServiceMailDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
  /** Tests may hand in their own; the process's pooled transports otherwise. */
  readonly transports?: SmtpTransports;
}

export interface ServiceMail {
  readonly accountId: string;
  /** What the message is, for the record: `campaign_report` (answers to leads are sent by sendStoredServiceEmail). */
  readonly kind: string;
  /** One message per key, however often the caller retries: e.g. `campaign_report:<reportId>`. */
  readonly dedupeKey: string;
  readonly to: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly attachments?: readonly ServiceMailAttachment[];
}

export interface ServiceMailResult {
  readonly serviceEmailId: string;
  /** `already_sent`: an earlier attempt sent it; nothing went out now. `failed`: the server refused it for good. */
  readonly outcome: 'sent' | 'already_sent' | 'failed';
  readonly messageId: string;
  readonly sentAt: Date | null;
  readonly error: string | null;
}

/** The SMTP server did not take the message for now (4xx, connection, timeout): the same call may succeed later. */
export class ServiceMailTemporaryFailure extends Error {
  override readonly name = 'ServiceMailTemporaryFailure';
  constructor(
    message: string,
    readonly serviceEmailId: string,
  ) {
    super(message);
  }
}

/**
 * The id of a new service email. `newId`'s alphabet and length; its prefix list names the kinds of
 * the pipeline's records, which a service email is not one of.
 */
export const serviceEmailId = (): string => newId('sml');

/**
 * Sends one message the service writes on its own behalf (not a campaign step), from the
 * account's default sender over the default transport, recorded in `service_emails`:
 * 1. the row of `dedupeKey` is reserved ('sending', with its Message-ID) or found; a 'sent' row
 *    returns `already_sent`, a 'failed' one `failed`, and nothing is sent;
 * 2. the message goes to SMTP with the row's Message-ID (the same on every attempt: a receiver
 *    that got an earlier attempt's copy after a crash sees the same message);
 * 3. the answer is recorded: 'sent'; a permanent refusal (5xx) 'failed' (returned, not thrown);
 *    anything a retry may fix is thrown as ServiceMailTemporaryFailure with the row left 'sending'.
 * A crash between 2 and 3 leaves 'sending': the next attempt sends again (at least once, like the
 * campaign path without its end-of-data gate: a report twice is better than none).
 */
export async function sendServiceEmail(deps: ServiceMailDeps, mail: ServiceMail): Promise<ServiceMailResult> {
  const { sequelize, config, log } = deps;
  const sender = await serviceSender(sequelize, config, mail.accountId);
  const id = serviceEmailId();
  const row = await reserveServiceEmail(sequelize, {
    id,
    accountId: mail.accountId,
    kind: mail.kind,
    dedupeKey: mail.dedupeKey,
    fromEmail: sender.from.address,
    fromName: sender.from.name,
    toEmail: mail.to,
    subject: mail.subject,
    messageId: newMessageId(id, sender.from.address),
  });
  const settled = { serviceEmailId: row.id, messageId: row.messageId, sentAt: row.sentAt, error: row.error };
  if (row.status === 'sent') return { ...settled, outcome: 'already_sent' };
  if (row.status === 'failed') return { ...settled, outcome: 'failed' };

  // RFC 3834: written by the service, so vacation responders do not answer it.
  const outcome = await transmit(deps.transports ?? smtpTransports, defaultRoute(config), {
    from: { name: row.fromName ?? '', address: row.fromEmail },
    to: row.toEmail,
    cc: [],
    subject: row.subject,
    messageId: row.messageId,
    text: mail.text,
    html: mail.html,
    inReplyTo: null,
    references: [],
    autoSubmitted: true,
    attachments: mail.attachments ?? [],
  });
  if (!outcome.accepted) {
    const { temporary, error: text } = outcome;
    await recordServiceEmailError(sequelize, row.id, text, !temporary);
    log.warn({ serviceEmailId: row.id, kind: mail.kind, temporary, error: text }, temporary ? 'service email not sent: will retry' : 'service email refused');
    if (temporary) throw new ServiceMailTemporaryFailure(text, row.id);
    return { ...settled, outcome: 'failed', error: text };
  }
  const response = outcome.response;
  const sentAt = await markServiceEmailSent(sequelize, row.id, response);
  log.debug({ serviceEmailId: row.id, kind: mail.kind }, 'service email sent');
  return { ...settled, outcome: 'sent', sentAt, error: null };
}
