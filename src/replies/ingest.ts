import { createHash } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { newId } from '../accounts/ids';
import type { LeadFactNotice, LeadFactSink } from '../campaigns/control/lead-fact-signals';
import type { ReplyKind } from '../db/models/reply';
import type { Logger } from '../log/logger';
import { isAutoReply } from './auto-reply';
import { attributeUnmatched, type Attribution } from './attribution';
import { isBounce, isPermanent, readBounce, recipientFor, type BounceReport } from './bounce';
import { applyHardBounce } from './bounce-effects';
import { parseInboundMessage, type InboundMessage } from './inbound-message';
import { candidateIds } from './message-ids';
import type { Qualification, Qualifier } from './qualifier';
import { findReply, insertReply, type NewReply } from './reply-repository';
import { applyReply } from './reply-effects';
import { findSentEmail } from './sent-email';
import { previewOf, visibleReplyText } from './visible-text';

export interface InboundDeps {
  readonly sequelize: Sequelize;
  readonly log: Logger;
  readonly qualify: Qualifier;
  /** Told, after the commit, of a reply, unsubscribe or bounce that ends a lead's sequence. */
  readonly leadFacts?: LeadFactSink;
}

export type IngestOutcome =
  | {
      readonly stored: true;
      readonly replyId: string;
      readonly kind: ReplyKind;
      /** Whether the message was matched to a sent email. */
      readonly matched: boolean;
      readonly campaignId: string | null;
      readonly emailId: string | null;
      /** The account already had this message (a repeated delivery): nothing was changed. */
      readonly duplicate: boolean;
    }
  | { readonly stored: false; readonly matched: false };

/** The message cannot be taken at all (HTTP 400, SMTP 550): retrying it would not help. */
export class UnusableMessage extends Error {
  override readonly name = 'UnusableMessage';
}

/**
 * Stored bodies are bounded; the preview and the classifier only read the start of the text anyway,
 * and the HTML is only shown (sanitised, which copes with markup cut short).
 */
const MAX_BODY_CHARS = 200_000;

/** A message without a Message-ID still needs an idempotency key: the digest of its bytes. */
function messageIdOf(msg: InboundMessage, raw: Buffer): string {
  return msg.messageId ?? `sha256-${createHash('sha256').update(raw).digest('hex').slice(0, 40)}@no-message-id.invalid`;
}

/**
 * A bounce first (DSNs often carry Auto-Submitted too), then an automatic answer, else a person.
 * An auto_reply is stored and qualified but is not a reply: no `replied` fact, no
 * `reply.received`, and the campaign's sequence must not stop for it (an out-of-office lead still
 * gets the follow-ups).
 */
function kindOf(msg: InboundMessage): ReplyKind {
  if (isBounce(msg)) return 'bounce';
  return isAutoReply(msg) ? 'auto_reply' : 'reply';
}

/**
 * Takes one inbound message (raw MIME from the HTTP endpoint or the SMTP listener): parses it,
 * decides what it is (reply, automatic answer, bounce), matches it to the sent email it answers,
 * qualifies it (not a bounce), and stores it with its facts and events in one transaction. A
 * message that matches no sent email is kept only when its account is unambiguous.
 *
 * Qualification may call the account's LLM, so it runs before the transaction opens; a repeated
 * message is recognised before that, so a relay retrying does not pay for a second classification.
 */
export async function ingestInbound(deps: InboundDeps, raw: Buffer): Promise<IngestOutcome> {
  const { sequelize } = deps;
  const msg = await parseInboundMessage(raw);
  const from = msg.from;
  if (from === null) throw new UnusableMessage('The message has no From address');
  const kind = kindOf(msg);
  const bounce: BounceReport | null = kind === 'bounce' ? await readBounce(msg) : null;

  const ids = candidateIds(msg.inReplyTo, msg.references);
  const sent = await findSentEmail(sequelize, bounce?.originalMessageId ? [bounce.originalMessageId, ...ids] : ids);
  const owner: Attribution | null = sent ?? (await attributeUnmatched(sequelize, msg));
  if (owner === null) {
    deps.log.info({ messageId: msg.messageId, kind }, 'inbound message matches no sent email and no account: dropped');
    return { stored: false, matched: false };
  }

  const messageId = messageIdOf(msg, raw);
  const known = await findReply(sequelize, owner.accountId, messageId);
  if (known !== null) return { stored: true, ...known, matched: known.emailId !== null, duplicate: true };

  const visible = kind === 'bounce' ? msg.text.trim() : visibleReplyText(msg.text);
  const toEmail = msg.recipients[0] ?? sent?.fromEmail ?? null;
  const replyId = newId('rpl');
  const receivedAt = new Date();
  // An automatic answer is qualified too (normally out_of_office, and the classifier reads a
  // return date from it); only its kind keeps it from counting as a reply.
  const qualification: Qualification | null =
    kind === 'bounce'
      ? null
      : await deps.qualify(
          owner.accountId,
          { fromEmail: from.address, toEmail: toEmail ?? '', subject: msg.subject ?? '', bodyText: visible },
          { campaignId: sent?.campaignId ?? null, replyId, receivedAt },
        );

  const reply: NewReply = {
    id: replyId,
    accountId: owner.accountId,
    campaignId: sent?.campaignId ?? null,
    emailId: sent?.emailId ?? null,
    leadId: owner.leadId,
    kind,
    fromEmail: from.address,
    fromName: from.name,
    toEmail,
    subject: msg.subject,
    messageId,
    inReplyTo: msg.inReplyTo[0] ?? bounce?.originalMessageId ?? null,
    bodyText: msg.text.slice(0, MAX_BODY_CHARS),
    bodyHtml: msg.html?.slice(0, MAX_BODY_CHARS) ?? null,
    preview: previewOf(visible),
    lead: owner.lead,
    qualification,
    receivedAt,
  };

  const stored = await sequelize.transaction(async (tx) => {
    const ended: LeadFactNotice[] = [];
    const { reply: row, created } = await insertReply(sequelize, tx, reply);
    if (!created) return { row, created, ended };
    if (kind === 'reply') {
      const facts = await applyReply(sequelize, tx, reply, sent);
      if (sent !== null) ended.push(...facts.map((fact) => ({ campaignId: sent.campaignId, leadId: sent.leadId, fact })));
    }
    if (bounce !== null && sent !== null) {
      const failure = recipientFor(bounce, sent.toEmail);
      if (failure !== null && isPermanent(failure) && (await applyHardBounce(sequelize, tx, sent, failure, reply.id, reply.receivedAt))) {
        ended.push({ campaignId: sent.campaignId, leadId: sent.leadId, fact: 'bounced' });
      }
    }
    return { row, created, ended };
  });
  if (stored.ended.length > 0) deps.leadFacts?.notify(stored.ended);
  return { stored: true, ...stored.row, matched: stored.row.emailId !== null, duplicate: !stored.created };
}
