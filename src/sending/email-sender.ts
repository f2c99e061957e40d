import type { Sequelize } from 'sequelize';
import { newId } from '../accounts/ids';
import type { Config } from '../config/config';
import { serviceSecret } from '../config/service-secret-repository';
import { defaultSmtpUrl } from './smtp-url';
import { InvalidInputError, NotFoundError } from '../errors/domain-errors';
import type { Logger } from '../log/logger';
import { TrackingLinks } from '../tracking/links';
import { composeMessage, displayName, newMessageId, type Party } from './compose';
import { randomBytes } from 'node:crypto';
import { markAbandoned, markDeferred, reserveEmailRow, type SendState } from './email-repository';
import { reserveMailboxSlot, type ReservedMailbox } from './mailbox-slots';
import { recordHardBounce, type SentEmailRef } from './send-results';
import { SendWrites } from './send-writes';
import { SendInProgress, SmtpSenderRejected, SmtpTemporaryFailure } from './send-failures';
import { classifySmtpFailure, smtpErrorText } from './smtp-outcome';
import { SmtpHostRefused, smtpTransports, type SmtpTransports } from './transports';
import type { SendEmailInput, SendEmailResult } from './types';

export interface SenderDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
}

export interface SenderHooks {
  /**
   * Tests only: runs after the server accepted the message and before the result is recorded.
   * Throwing from it leaves the row in 'sending' at 'data_sent', exactly as a worker killed at
   * that moment would.
   */
  readonly afterSmtpAccepted?: (emailId: string) => void | Promise<void>;
  /**
   * Tests only: runs when the end of data has been recorded, before the terminating dot is
   * released. Throwing from it aborts the transaction (no dot), as a crash at that moment would,
   * but leaves the row at 'data_sent'.
   */
  readonly afterDataSent?: (emailId: string) => void | Promise<void>;
  /**
   * Tests only: runs when the whole message has been handed to the connection, before its end of
   * data is recorded. Throwing from it aborts the transaction with the row still 'reserved', as a
   * crash in the middle of the data would.
   */
  readonly beforeDataEnd?: (emailId: string) => void | Promise<void>;
}

interface Sender {
  readonly mailboxId: string | null;
  readonly from: Party;
  readonly smtpUrl: string;
  /** A customer's mailbox: its SMTP host must pass the egress address policy. */
  readonly customer: boolean;
  readonly dkim: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string } | null;
}

/**
 * Sends one email of a campaign to one lead, accepted once (at least once to the relay, see docs/reliability.md), deciding everything at the moment of
 * sending (a lead may unsubscribe or bounce while its email waits in a schedule):
 *
 * 1. the row of (campaign, lead, step) decides first: 'sent' and 'bounced' return what happened;
 *    'deferred' (the server said "not now") and 'sending' (an earlier attempt stopped mid-way: a
 *    crash, a lost activity) are sent again, with the row's Message-ID. Only the server's 250 to
 *    the data makes an email 'sent'. An attempt that stopped after recording its end of data may
 *    have been accepted: its resend is marked a possible duplicate (docs/reliability.md);
 * 2. the suppression list and the lead's bounced/unsubscribed stamps;
 * 3. a slot of the account's least recently used mailbox with room under its daily cap and gap
 *    (one atomic UPDATE), or the default transport when the account has no mailbox;
 * 4. the row is reserved as 'sending' with its Message-ID and this attempt's token, the message
 *    composed and handed to the pooled transporter. Before the terminating dot of its data goes
 *    out, 'data_sent' is recorded (data-end-gate.ts), only if the row is still this attempt's;
 *    the server's answer is recorded after (see send-results.ts). With `onlyWhileRunning`
 *    the reservation happens only while the campaign's row is 'running' (see RUNNING_GATE in
 *    email-repository.ts), checked in the same statement under a share lock of that row.
 * A first attempt through the default transport does 1, 2 and 4's reservation in one statement
 * (see sendStatesPart): with the end of data and the success write, three writes per email.
 * All three go through one group commit (send-writes.ts): the writes of this process's sends that
 * are waiting at the same moment, of any kind, share one transaction and one commit, and each
 * send waits for that commit before it goes on (the reservation is durable before a byte goes to
 * SMTP, the end of data before the dot, the result before the activity returns).
 *
 * Failures are thrown as classes, for the caller to tell apart: those a retry may fix are in
 * send-failures.ts; a lead that is not the account's is NotFoundError('lead'), an unusable step
 * or empty subject an InvalidInputError.
 */
export class EmailSender {
  private links: Promise<TrackingLinks> | undefined;
  private readonly writes: SendWrites;

  constructor(
    private readonly deps: SenderDeps,
    private readonly hooks: SenderHooks = {},
    private readonly transports: SmtpTransports = smtpTransports,
  ) {
    this.writes = new SendWrites(deps.sequelize);
  }

  async send(input: SendEmailInput): Promise<SendEmailResult> {
    if (!Number.isInteger(input.step) || input.step < 0) throw new InvalidInputError(`step must be a non-negative integer, got ${input.step}`);
    if (input.content.subject.trim() === '') throw new InvalidInputError('the subject is empty');
    const fallback = this.defaultSender(input.fromName ?? null);
    const claimId = newId('em');
    // This attempt's token: whoever holds the row's token may finish its transaction.
    const token = randomBytes(9).toString('base64url');
    const content = { variant: input.variant ?? null, startsThread: input.startsThread ?? null, text: input.content.text, html: input.content.html };
    // A mailbox slot the caller took decides the sender: the default transport's fast path is not for it.
    const claim =
      input.mailbox === undefined
        ? { emailId: claimId, fromEmail: fallback.from.address, subject: input.content.subject, messageId: newMessageId(claimId, fallback.from.address), token, content }
        : null;
    const onlyWhileRunning = input.onlyWhileRunning === true;
    const state = await this.writes.reserve({ accountId: input.accountId, campaignId: input.campaignId, leadId: input.leadId, step: input.step, claim, onlyWhileRunning });
    if (state === null) throw new NotFoundError('lead');
    const key = { accountId: input.accountId, campaignId: input.campaignId, leadId: input.leadId, step: input.step };
    const ref = (emailId: string, messageId: string, possibleDuplicate = false): SentEmailRef => ({
      ...key,
      emailId,
      messageId,
      toEmail: state.lead.email,
      ...(possibleDuplicate ? { possibleDuplicate } : {}),
    });
    // The common first attempt through the default transport: the row is already ours.
    if (state.claimed && claim !== null) return this.deliver(input, state, fallback, ref(claim.emailId, claim.messageId), token);

    const settled = this.earlierOutcome(state);
    if (settled !== null) return settled;
    const existingId = state.existing?.id ?? null;
    const withId = existingId === null ? {} : { emailId: existingId };
    if (state.lead.blockedBy !== null) {
      if (existingId !== null) await markAbandoned(this.deps.sequelize, existingId, state.lead.blockedBy);
      return { outcome: 'suppressed', blockedBy: state.lead.blockedBy, ...withId };
    }
    // Checked again, atomically, by the reservation below; this spares a mailbox slot meanwhile.
    if (!state.campaignOpen) return { outcome: 'not_running', ...withId };
    let sender = fallback;
    if (input.mailbox !== undefined) sender = mailboxSender(input.mailbox, input.fromName ?? null);
    else if (state.hasMailboxes) {
      // Within the campaign's own mailboxes when it names some (its row says; campaign-mailboxes.ts).
      const slot = await reserveMailboxSlot(this.deps.sequelize, input.accountId, null, input.campaignId);
      if (!('reserved' in slot)) return { outcome: 'deferred', retryAfterSeconds: slot.retryAfterSeconds, ...withId };
      sender = mailboxSender(slot.reserved, input.fromName ?? null);
    }
    const emailId = existingId ?? claimId;
    const reservation = await reserveEmailRow(
      this.deps.sequelize,
      {
        ...key,
        emailId,
        mailboxId: sender.mailboxId,
        fromEmail: sender.from.address,
        toEmail: state.lead.email,
        subject: input.content.subject,
        messageId: newMessageId(emailId, sender.from.address),
        token,
        onlyWhileRunning,
        content,
      },
      existingId,
    );
    // The mailbox slot taken above stays used: a paused campaign's slot is one email of a cap.
    if ('refused' in reservation && reservation.refused === 'not_running') return { outcome: 'not_running', ...withId };
    // Blocked between the read above and the reservation (a blocklist entry, a removal, an invalid address): never sent.
    if ('refused' in reservation && reservation.refused === 'blocked') {
      if (existingId !== null) await markAbandoned(this.deps.sequelize, existingId, reservation.reason);
      return { outcome: 'suppressed', blockedBy: reservation.reason, ...withId };
    }
    if ('refused' in reservation) throw new SendInProgress(`another attempt settled or took email ${existingId ?? `${input.campaignId}/${input.leadId}/${input.step}`}`);
    if (state.existing?.status === 'sending') {
      this.deps.log.warn({ emailId, possibleDuplicate: reservation.possibleDuplicate }, 'email left mid-send by an earlier attempt: sending it again with its Message-ID');
    }
    return this.deliver(input, state, sender, ref(emailId, reservation.reserved, reservation.possibleDuplicate), token);
  }

  /** What an earlier attempt at this email already settled, or null when it must be (re)sent. */
  private earlierOutcome(state: SendState): SendEmailResult | null {
    const existing = state.existing;
    if (existing === null) return null;
    const done = { emailId: existing.id, messageId: existing.messageId };
    switch (existing.status) {
      case 'sent':
        return { outcome: 'already_sent', ...done };
      case 'bounced':
        return { outcome: 'bounced', ...done };
      case 'failed':
        return { outcome: 'suppressed', emailId: existing.id };
      case 'sending':
      case 'deferred':
        return null;
    }
  }

  /** Composes the reserved email, hands it to SMTP and records the answer. */
  private async deliver(input: SendEmailInput, state: SendState, sender: Sender, ref: SentEmailRef, token: string): Promise<SendEmailResult> {
    const { sequelize, config, log } = this.deps;
    const { emailId, messageId } = ref;
    const message = composeMessage(
      {
        emailId,
        messageId,
        from: sender.from,
        to: { address: ref.toEmail, name: displayName(state.lead.firstName, state.lead.lastName) },
        subject: input.content.subject,
        html: input.content.html,
        text: input.content.text,
        inReplyTo: input.inReplyTo,
        references: input.references,
        dkim: sender.dkim,
        campaignId: input.campaignId,
        ...(input.tracking === undefined ? {} : { tracking: input.tracking }),
      },
      await this.trackingLinks(),
      config.publicBaseUrl,
    );

    // Why the end of data was not released, when it was not: the row taken over, or the database down.
    let gateFailure: unknown = null;
    const release = this.transports.gates.register(messageId, async (startedAt) => {
      try {
        await this.hooks.beforeDataEnd?.(emailId);
        const owned = await this.writes.markDataSent({ emailId, token, startedAt });
        if (!owned) throw new SendInProgress(`email ${emailId} was taken over by a later attempt before its end of data: this attempt did not send it`);
        await this.hooks.afterDataSent?.(emailId);
      } catch (err) {
        gateFailure = err;
        throw err;
      }
    });
    let response: string;
    try {
      const transporter = await this.transports.get(sender.smtpUrl, sender.customer ? { allowLoopback: config.allowLoopbackEgress } : null);
      response = (await transporter.sendMail(message)).response;
    } catch (err) {
      // The transaction was aborted before its dot: nothing was accepted, and the row is either
      // another attempt's or unwritable right now. The caller's retry finds out which.
      if (gateFailure !== null) throw gateFailure;
      const kind = err instanceof SmtpHostRefused ? 'sender_rejected' : classifySmtpFailure(err);
      const text = smtpErrorText(err);
      if (kind === 'recipient_rejected') {
        await recordHardBounce(sequelize, ref, text);
        log.info({ emailId, campaignId: input.campaignId, response: text }, 'email bounced: recipient refused permanently');
        return { outcome: 'bounced', emailId, messageId };
      }
      await markDeferred(sequelize, emailId, token, text, hasSmtpReply(err));
      log.warn({ emailId, campaignId: input.campaignId, mailboxId: sender.mailboxId, kind, error: text }, 'email not sent: will retry');
      throw kind === 'temporary' ? new SmtpTemporaryFailure(text, emailId) : new SmtpSenderRejected(text, emailId);
    } finally {
      release();
    }

    await this.hooks.afterSmtpAccepted?.(emailId);
    await recordingAgain(log, emailId, () => this.writes.recordAccepted({ ref, smtpResponse: response, priceUsd: config.prices.emailUsd }));
    log.debug({ emailId, campaignId: input.campaignId, mailboxId: sender.mailboxId }, 'email sent');
    return { outcome: 'sent', emailId, messageId };
  }

  /** SMTP_URL, or the worker's local sink; from DEFAULT_FROM_EMAIL as `fromName`; no caps (the operator's relay). */
  private defaultSender(fromName: string | null): Sender {
    const { config } = this.deps;
    return {
      mailboxId: null,
      from: { address: config.defaultFromEmail, name: fromName },
      smtpUrl: defaultSmtpUrl(config),
      customer: false,
      dkim: null,
    };
  }

  /** The tracking secret is read once per process (it never changes while the service runs). */
  private trackingLinks(): Promise<TrackingLinks> {
    this.links ??= serviceSecret(this.deps.sequelize, 'tracking', this.deps.config.trackingSecret).then(
      (secret) => new TrackingLinks(secret, this.deps.config.publicBaseUrl),
      (err: unknown) => {
        this.links = undefined;
        throw err;
      },
    );
    return this.links;
  }
}

/** Sending through a customer's mailbox: its own From name, else the name the caller gives. */
function mailboxSender(m: ReservedMailbox, fromName: string | null): Sender {
  return { mailboxId: m.id, from: { address: m.fromEmail, name: m.fromName ?? fromName }, smtpUrl: m.smtpUrl, customer: true, dkim: m.dkim };
}

/** The server answered (a reply code), as opposed to a connection that dropped or timed out. */
function hasSmtpReply(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number';
}

/** How long an accepted email's record is retried (the database restarting) before the attempt gives up. */
const RECORD_RETRY_MS = 30_000;
const RECORD_RETRY_PAUSE_MS = 1_000;

/**
 * Records an accepted email, trying again for a while when the database is unreachable: giving up
 * leaves the row at 'data_sent', and its resend would be a duplicate the recipient sees. The
 * write is keyed by the email, so repeating it is harmless.
 */
async function recordingAgain(log: Logger, emailId: string, write: () => Promise<unknown>): Promise<void> {
  const until = Date.now() + RECORD_RETRY_MS;
  for (;;) {
    try {
      await write();
      return;
    } catch (err) {
      const databaseError = err instanceof Error && err.name.startsWith('Sequelize');
      if (!databaseError || Date.now() >= until) throw err;
      log.warn({ emailId, err }, 'accepted email not recorded yet: the database is unreachable; trying again');
      await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_PAUSE_MS));
    }
  }
}
