import { randomBytes } from 'node:crypto';
import type Mail from 'nodemailer/lib/mailer';
import type { TrackingLinks } from '../tracking/links';
import { trackHtml, trackText } from './tracked-html';

export interface Party {
  readonly address: string;
  readonly name: string | null;
}

export interface MessageToSend {
  readonly emailId: string;
  readonly messageId: string;
  readonly from: Party;
  readonly to: Party;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly inReplyTo?: string;
  readonly references?: readonly string[];
  readonly dkim: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string } | null;
}

/**
 * nodemailer's default signed header list, plus List-Unsubscribe-Post: RFC 8058 requires both
 * List-Unsubscribe headers to be covered by the DKIM signature, or receivers ignore one-click.
 */
const DKIM_SIGNED_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:Content-ID:' +
  'Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References:' +
  'List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive';

/** `<em_….<random>@<sender's domain>>`: unique, and says which email it is when a reply quotes it. */
export function newMessageId(emailId: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1) || 'localhost';
  return `<${emailId}.${randomBytes(6).toString('hex')}@${domain}>`;
}

/**
 * The message as nodemailer sends it: From and To with names, both a plain-text and an HTML part
 * (each with a visible unsubscribe link), the HTML's links tracked and its open pixel added,
 * threading headers for follow-ups, and one-click unsubscribe (RFC 8058): List-Unsubscribe with
 * the signed HTTPS URL (no mailto: the service has no address that processes unsubscribe mail)
 * and List-Unsubscribe-Post.
 */
export function composeMessage(m: MessageToSend, links: TrackingLinks, ownBaseUrl: string): Mail.Options {
  const references = m.references !== undefined && m.references.length > 0 ? [...m.references] : m.inReplyTo !== undefined ? [m.inReplyTo] : undefined;
  const unsubscribeUrl = links.unsubscribeUrl(m.emailId);
  return {
    from: { name: m.from.name ?? '', address: m.from.address },
    to: { name: m.to.name ?? '', address: m.to.address },
    subject: m.subject,
    messageId: m.messageId,
    date: new Date(),
    inReplyTo: m.inReplyTo,
    references,
    text: trackText(m.text, unsubscribeUrl),
    html: trackHtml(m.html, m.emailId, links, ownBaseUrl, unsubscribeUrl),
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    dkim: m.dkim === null ? undefined : { ...m.dkim, headerFieldNames: DKIM_SIGNED_HEADERS },
  };
}

/** "First Last", or null when the lead has no name (the To header is then the bare address). */
export function displayName(first: string | null, last: string | null): string | null {
  const name = [first, last].filter((p): p is string => p !== null && p.trim() !== '').join(' ').trim();
  return name === '' ? null : name;
}
