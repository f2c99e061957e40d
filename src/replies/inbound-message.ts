import { simpleParser, type AddressObject, type Attachment, type HeaderValue, type ParsedMail } from 'mailparser';
import { normalizeEmail } from '../suppressions/suppression-repository';
import { bareMessageId, messageIdsIn } from './message-ids';

/** An inbound email reduced to what reply handling reads. Addresses are normalised (lower case). */
export interface InboundMessage {
  readonly from: { readonly address: string; readonly name: string | null } | null;
  /** To and Cc addresses. */
  readonly recipients: readonly string[];
  readonly subject: string | null;
  /** Bare ids (no angle brackets). */
  readonly messageId: string | null;
  readonly inReplyTo: readonly string[];
  /** Oldest first, as in the header. */
  readonly references: readonly string[];
  readonly date: Date | null;
  /** The plain text body, or the text mailparser derived from the HTML when there is no plain part. */
  readonly text: string;
  /** The HTML part as received (not sanitised), or null when the message has none. */
  readonly html: string | null;
  readonly contentType: string;
  readonly contentTypeParams: Readonly<Record<string, string>>;
  /** Lower-cased header name to its first raw value (as text). */
  header(name: string): string | null;
  readonly attachments: readonly Attachment[];
}

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  const walk = (entries: AddressObject['value']): void => {
    for (const e of entries) {
      if (e.address) out.push(normalizeEmail(e.address));
      if (e.group) walk(e.group);
    }
  };
  for (const obj of list) walk(obj.value);
  return out;
}

function headerText(value: HeaderValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (typeof value === 'object' && 'value' in value && typeof value.value === 'string') return value.value;
  if (typeof value === 'object' && 'text' in value && typeof value.text === 'string') return value.text;
  return String(value);
}

/**
 * Parses raw MIME. Delivery-status parts are kept as attachments (not folded into the text) so a
 * bounce can be read field by field; an attached original message stays an attachment too.
 */
export async function parseInboundMessage(raw: Buffer): Promise<InboundMessage> {
  const mail: ParsedMail = await simpleParser(raw, { keepDeliveryStatus: true, skipTextToHtml: true, skipImageLinks: true });
  return fromParsed(mail);
}

export function fromParsed(mail: ParsedMail): InboundMessage {
  const sender = addresses(mail.from)[0];
  const fromName = mail.from?.value[0]?.name?.trim();
  const ct = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  return {
    from: sender === undefined ? null : { address: sender, name: fromName ? fromName : null },
    recipients: [...new Set([...addresses(mail.to), ...addresses(mail.cc)])],
    subject: mail.subject?.trim() || null,
    messageId: bareMessageId(mail.messageId),
    inReplyTo: messageIdsIn(mail.inReplyTo),
    references: messageIdsIn(mail.references),
    date: mail.date instanceof Date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    text: mail.text ?? '',
    // skipTextToHtml: `html` is the message's own HTML part, never one derived from the text.
    html: typeof mail.html === 'string' && mail.html !== '' ? mail.html : null,
    contentType: (ct?.value ?? 'text/plain').toLowerCase(),
    contentTypeParams: ct?.params ?? {},
    header: (name) => headerText(mail.headers.get(name.toLowerCase())),
    attachments: mail.attachments,
  };
}
