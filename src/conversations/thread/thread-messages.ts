import { bareMessageId } from '../../replies/message-ids';
import { cleanHtml } from '../clean-html';
import { bounded, MAX_HTML_CHARS, MAX_TEXT_CHARS } from './thread-bounds';
import type { AnswerRow, CampaignEmailRow, EventRow, InboundRow } from './thread-queries';
import type { ThreadAnswer, ThreadCampaignEmail, ThreadEvent, ThreadInbound, ThreadMailbox } from './thread-types';

/** The rows of the thread's sources as the messages the API shows. */

const iso = (d: Date): string => new Date(d).toISOString();
const isoOrNull = (d: Date | null): string | null => (d === null ? null : iso(d));

/** The ordering time (microseconds) as an ISO string: milliseconds are what JSON readers take. */
const atOf = (atMicros: string): string => new Date(Number(BigInt(atMicros) / 1000n)).toISOString();

/** Text and sanitised HTML, each within its bound; an HTML part that cleans to nothing is null. */
function bodies(text: string | null, html: string | null): { text: string | null; html: string | null; truncated: boolean } {
  const t = bounded(text, MAX_TEXT_CHARS);
  const h = bounded(html, MAX_HTML_CHARS);
  const cleaned = h.value === null ? null : cleanHtml(h.value);
  return { text: t.value, html: cleaned === '' ? null : cleaned, truncated: t.cut || h.cut };
}

function mailboxOf(id: string | null, fromEmail: string | null, sentFrom: string): ThreadMailbox | null {
  return id === null ? null : { id, fromEmail: fromEmail ?? sentFrom };
}

export function toThreadEvent(r: EventRow): ThreadEvent {
  return { type: r.type, occurredAt: iso(r.occurred_at), url: r.type === 'clicked' ? r.url : null };
}

export function toCampaignEmail(r: CampaignEmailRow, events: readonly ThreadEvent[]): ThreadCampaignEmail {
  return {
    direction: 'out',
    type: 'campaign_email',
    id: r.id,
    at: atOf(r.at_us),
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    // Stored 0-based (the sequence's index); shown 1-based as every other step the API shows.
    step: r.step + 1,
    variant: r.variant,
    mailbox: mailboxOf(r.mailbox_id, r.mailbox_from, r.from_email),
    from: r.from_email,
    to: r.to_email,
    subject: r.subject,
    ...bodies(r.body_text, r.body_html),
    messageId: bareMessageId(r.message_id),
    status: r.status,
    sentAt: isoOrNull(r.sent_at),
    createdAt: iso(r.created_at),
    events,
  };
}

export function toInbound(r: InboundRow): ThreadInbound {
  return {
    direction: 'in',
    type: r.kind,
    id: r.id,
    at: atOf(r.at_us),
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    from: r.from_email,
    fromName: r.from_name,
    to: r.to_email,
    subject: r.subject,
    ...bodies(r.body_text, r.body_html),
    messageId: bareMessageId(r.message_id),
    inReplyTo: bareMessageId(r.in_reply_to),
    inReplyToEmailId: r.email_id,
    category: r.category,
    sentiment: r.sentiment,
    modelCategory: r.model_category,
    userCategory: r.user_category,
    read: r.read,
    receivedAt: iso(r.received_at),
  };
}

const addressList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export function toAnswer(r: AnswerRow): ThreadAnswer {
  return {
    direction: 'out',
    type: 'answer',
    id: r.id,
    at: atOf(r.at_us),
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    mailbox: mailboxOf(r.mailbox_id, r.mailbox_from, r.from_email),
    from: r.from_email,
    to: r.to_email,
    cc: addressList(r.cc),
    subject: r.subject,
    ...bodies(r.body_text, r.body_html),
    messageId: bareMessageId(r.message_id),
    inReplyTo: bareMessageId(r.in_reply_to),
    status: r.status,
    sentAt: isoOrNull(r.sent_at),
    createdAt: iso(r.created_at),
    error: r.error,
  };
}
