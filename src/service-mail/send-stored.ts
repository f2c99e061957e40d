import { recordCost } from '../costs/cost-repository';
import { smtpTransports } from '../sending/transports';
import { writtenByPerson } from './kinds';
import { defaultRoute, mailboxRoute, type MailRoute } from './mail-route';
import { ServiceMailTemporaryFailure, type ServiceMailDeps } from './send-service-email';
import {
  countServiceEmailAttempt,
  findStoredServiceEmail,
  markServiceEmailSent,
  recordServiceEmailError,
  type StoredServiceEmail,
} from './service-email-repository';
import { transmit } from './transmit';

/**
 * A check made before every attempt at a stored row: the reason it must not go out now (the row
 * becomes 'failed' with it and nothing is sent), or null. An answer to a lead who unsubscribed
 * while its SMTP server was down is not sent when the server comes back.
 */
export type StoredMailGuard = (row: StoredServiceEmail) => Promise<string | null>;

export interface StoredSendResult {
  readonly serviceEmailId: string;
  /** `already_sent`: an earlier attempt sent it; nothing went out now. `failed`: refused for good (by the server or the guard). */
  readonly outcome: 'sent' | 'already_sent' | 'failed';
  readonly error: string | null;
}

/**
 * The row is not there (yet): its transaction has not committed (the workflow starts inside it),
 * or was rolled back, or the lead it answers was deleted with it.
 */
export class ServiceEmailNotFound extends Error {
  override readonly name = 'ServiceEmailNotFound';
  constructor(readonly serviceEmailId: string) {
    super(`service email ${serviceEmailId} not found`);
  }
}

/**
 * Sends one row that carries its whole message (an answer: migration 20261201091000), by id, as
 * often as its workflow's activity is retried:
 * 1. a 'sent' row returns `already_sent`, a 'failed' one `failed`: nothing is sent again;
 * 2. the guard decides whether it may still go;
 * 3. the route: the row's mailbox while it is active (its server under the egress policy, its DKIM
 *    key), else the default transport with the row's From (as decided when it was written);
 * 4. the message the row holds goes to SMTP with the row's Message-ID, every attempt the same;
 * 5. accepted: 'sent', and for a person's email (kinds.ts) its `email_sending` cost, keyed by the
 *    row, in one transaction; refused for good (5xx, a host the policy refuses): 'failed',
 *    returned; anything a retry may fix is thrown as ServiceMailTemporaryFailure, the row left
 *    'sending' with the error.
 * A crash between 4 and 5 leaves 'sending': the next attempt sends it again, with the same
 * Message-ID (at least once; a receiver shows one message per Message-ID in a thread).
 */
export async function sendStoredServiceEmail(deps: ServiceMailDeps, id: string, guard?: StoredMailGuard): Promise<StoredSendResult> {
  const { sequelize, config, log } = deps;
  const row = await findStoredServiceEmail(sequelize, id);
  if (row === null) throw new ServiceEmailNotFound(id);
  if (row.status === 'sent') return { serviceEmailId: id, outcome: 'already_sent', error: null };
  if (row.status === 'failed') return { serviceEmailId: id, outcome: 'failed', error: row.error };
  const refused = row.bodyText === null ? 'the row holds no message to send' : ((await guard?.(row)) ?? null);
  if (refused !== null) {
    await recordServiceEmailError(sequelize, id, refused, true);
    log.info({ serviceEmailId: id, kind: row.kind, reason: refused }, 'service email not sent: refused before sending');
    return { serviceEmailId: id, outcome: 'failed', error: refused };
  }

  await countServiceEmailAttempt(sequelize, id);
  const route: MailRoute = (row.mailboxId === null ? null : await mailboxRoute(sequelize, config, row.accountId, row.mailboxId)) ?? defaultRoute(config);
  const outcome = await transmit(deps.transports ?? smtpTransports, route, {
    from: { address: row.fromEmail, name: row.fromName },
    to: row.toEmail,
    cc: row.cc,
    subject: row.subject,
    messageId: row.messageId,
    text: row.bodyText ?? '',
    html: row.bodyHtml ?? '',
    inReplyTo: row.inReplyTo,
    references: row.referencesIds,
    autoSubmitted: !writtenByPerson(row.kind),
  });
  if (!outcome.accepted) {
    const { temporary, error } = outcome;
    await recordServiceEmailError(sequelize, id, error, !temporary);
    log.warn({ serviceEmailId: id, kind: row.kind, mailboxId: route.mailboxId, temporary, error }, temporary ? 'service email not sent: will retry' : 'service email refused');
    if (temporary) throw new ServiceMailTemporaryFailure(error, id);
    return { serviceEmailId: id, outcome: 'failed', error };
  }
  // Taken for some recipients only: sent (sending again would repeat it to those who got it), the others named.
  const note = outcome.refused.length === 0 ? null : `the server refused ${outcome.refused.join(', ')}`;
  if (note !== null) log.warn({ serviceEmailId: id, kind: row.kind, refused: outcome.refused }, 'service email taken for some recipients only');
  await sequelize.transaction(async (tx) => {
    await markServiceEmailSent(sequelize, id, outcome.response, tx, note);
    if (!writtenByPerson(row.kind)) return;
    await recordCost(sequelize, tx, {
      accountId: row.accountId,
      campaignId: row.campaignId,
      category: 'email_sending',
      costName: 'smtp',
      featureSlug: 'email-sending',
      amountUsd: config.prices.emailUsd,
      details: { service_email_id: id, kind: row.kind },
      idempotencyKey: `send:${id}`,
    });
  });
  log.debug({ serviceEmailId: id, kind: row.kind, mailboxId: route.mailboxId }, 'service email sent');
  return { serviceEmailId: id, outcome: 'sent', error: null };
}
