import { simpleParser } from 'mailparser';
import { normalizeEmail } from '../suppressions/suppression-repository';
import type { InboundMessage } from './inbound-message';
import { bareMessageId } from './message-ids';

/** One recipient block of a delivery status notification (RFC 3464). */
export interface BounceRecipient {
  readonly recipient: string | null;
  /** failed, delayed, delivered, relayed, expanded; null when the bounce did not say. */
  readonly action: string | null;
  /** Enhanced status code (RFC 3463), e.g. 5.1.1; null when none could be found. */
  readonly status: string | null;
  readonly diagnostic: string | null;
}

export interface BounceReport {
  readonly recipients: readonly BounceRecipient[];
  /** Bare Message-ID of the message that bounced, from the returned original or its headers. */
  readonly originalMessageId: string | null;
}

const DSN_PARTS = new Set(['message/delivery-status', 'message/global-delivery-status']);
const ORIGINAL_PARTS = new Set(['message/rfc822', 'message/global', 'text/rfc822-headers', 'message/global-headers']);
const DAEMON_SENDER = /^(mailer-daemon|postmaster|mail-daemon|mailerdaemon)@/i;
const DAEMON_NAME = /^(mail delivery (subsystem|system)|mailer-daemon|postmaster)$/i;
const BOUNCE_SUBJECT =
  /(delivery status notification|undeliver(ed|able)|returned mail|delivery (has )?failed|failure notice|mail delivery failed|delivery failure|non remis|unzustellbar|nicht zustellbar|no se pudo entregar)/i;

/**
 * A DSN is recognised by its structure (`multipart/report; report-type=delivery-status`, or a
 * `message/delivery-status` part), or, for the many MTAs that send plain-text bounces, by a
 * mailer-daemon/postmaster sender together with a bounce subject.
 */
export function isBounce(msg: InboundMessage): boolean {
  if (msg.contentType === 'multipart/report' && /delivery-status/i.test(msg.contentTypeParams['report-type'] ?? '')) return true;
  if (msg.attachments.some((a) => DSN_PARTS.has(a.contentType.toLowerCase()))) return true;
  const fromDaemon = msg.from !== null && (DAEMON_SENDER.test(msg.from.address) || DAEMON_NAME.test(msg.from.name ?? ''));
  return fromDaemon && msg.subject !== null && BOUNCE_SUBJECT.test(msg.subject);
}

/** Splits `Name: value` blocks (folded lines joined) separated by blank lines. */
function fieldBlocks(text: string): Map<string, string>[] {
  const blocks: Map<string, string>[] = [];
  for (const chunk of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last: string | null = null;
    for (const line of chunk.split('\n')) {
      if (/^[ \t]/.test(line) && last !== null) {
        fields.set(last, `${fields.get(last) ?? ''} ${line.trim()}`);
        continue;
      }
      const m = /^([A-Za-z][A-Za-z0-9-]*)\s*:\s*(.*)$/.exec(line);
      if (m) {
        last = (m[1] as string).toLowerCase();
        if (!fields.has(last)) fields.set(last, (m[2] as string).trim());
      }
    }
    if (fields.size > 0) blocks.push(fields);
  }
  return blocks;
}

/** `rfc822; jane@acme.test` -> `jane@acme.test`. */
function addressOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  const addr = value.includes(';') ? value.slice(value.indexOf(';') + 1) : value;
  const clean = addr.trim().replace(/^<|>$/g, '');
  return clean.includes('@') ? normalizeEmail(clean) : null;
}

function enhancedStatus(text: string | undefined): string | null {
  if (text === undefined) return null;
  const m = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(text);
  return m ? `${m[1]}.${m[2]}.${m[3]}` : null;
}

function recipientsFrom(blocks: readonly Map<string, string>[]): BounceRecipient[] {
  return blocks
    .filter((b) => b.has('final-recipient') || b.has('original-recipient') || b.has('action'))
    .map((b) => ({
      recipient: addressOf(b.get('final-recipient') ?? b.get('original-recipient')),
      action: b.get('action')?.toLowerCase().split(/\s/)[0] ?? null,
      status: enhancedStatus(b.get('status')) ?? enhancedStatus(b.get('diagnostic-code')),
      diagnostic: b.get('diagnostic-code') ?? null,
    }));
}

/** For a plain-text bounce: the first enhanced status code, else an SMTP reply code mapped to its class. */
function statusInText(text: string): string | null {
  const enhanced = enhancedStatus(text);
  if (enhanced !== null) return enhanced;
  const smtp = /(?:^|\s)([45])\d\d[\s-]/m.exec(text);
  return smtp ? `${smtp[1]}.0.0` : null;
}

async function originalMessageId(msg: InboundMessage): Promise<string | null> {
  for (const part of msg.attachments) {
    if (!ORIGINAL_PARTS.has(part.contentType.toLowerCase())) continue;
    // A headers-only part parses as a message without a body: mailparser reads the header block.
    const original = await simpleParser(part.content, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
    const id = bareMessageId(original.messageId);
    if (id !== null) return id;
  }
  // Plain-text bounces often quote the original headers in the body.
  const inline = /^\s*Message-ID:\s*(<[^>\s]+>)/im.exec(msg.text);
  return inline ? bareMessageId(inline[1]) : null;
}

/** Reads a recognised bounce: its recipient blocks and the id of the original message. */
export async function readBounce(msg: InboundMessage): Promise<BounceReport> {
  let recipients: BounceRecipient[] = [];
  for (const part of msg.attachments) {
    if (DSN_PARTS.has(part.contentType.toLowerCase())) recipients.push(...recipientsFrom(fieldBlocks(part.content.toString('utf8'))));
  }
  if (recipients.length === 0) recipients = recipientsFrom(fieldBlocks(msg.text));
  if (recipients.length === 0) {
    // The failed address is usually the first one the text names that is not the daemon's own.
    const named = [...msg.text.matchAll(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g)].map((m) => normalizeEmail(m[0])).find((a) => !DAEMON_SENDER.test(a));
    recipients = [{ recipient: named ?? null, action: null, status: statusInText(msg.text), diagnostic: null }];
  }
  return { recipients, originalMessageId: await originalMessageId(msg) };
}

/**
 * The recipient block that concerns `address` (the lead the email went to), else the first
 * failure, else the first block.
 */
export function recipientFor(report: BounceReport, address: string | null): BounceRecipient | null {
  const rs = report.recipients;
  return (address !== null ? rs.find((r) => r.recipient === normalizeEmail(address)) : undefined) ?? rs.find((r) => r.action === 'failed') ?? rs[0] ?? null;
}

/**
 * Permanent means the address itself is bad: a 5.x.x status that was not delivered. A 4.x.x
 * (delayed, or given up after retries) says nothing lasting about the address.
 */
export function isPermanent(r: BounceRecipient | null): boolean {
  if (r === null || r.status === null || !r.status.startsWith('5.')) return false;
  return r.action === null || r.action === 'failed';
}
