import { randomBytes } from 'node:crypto';
import type Mail from 'nodemailer/lib/mailer';
import type { TrackingLinks } from '../tracking/links';
import { trackHtml, trackText } from './tracked-html';
import { TRACK_EVERYTHING, type TrackingChoice } from './types';

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
  /** The campaign the email belongs to: names its list (List-Id). */
  readonly campaignId: string;
  readonly tracking?: TrackingChoice;
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
 * `List-Id: <cmp_….<sender's domain>>` (RFC 2919): the campaign as a list, by its id only (its name
 * is the user's, not the recipient's business). Mail filters file a campaign's emails together,
 * and a List-Unsubscribe without a List-Id is what SpamAssassin calls partial list headers
 * (LIST_PARTIAL_SHORT_MSG, 2.5 points on a short message without DKIM).
 */
export function listId(campaignId: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1) || 'localhost';
  return `<${campaignId.toLowerCase().replace(/[^a-z0-9-]/g, '-')}.${domain}>`;
}

/**
 * The message as nodemailer sends it: From and To with names, a plain-text part and (unless the
 * campaign sends plain text only) an HTML part, each with a visible unsubscribe link; the HTML's
 * links tracked and its open beacon added when the campaign tracks them; threading headers for
 * follow-ups; List-Id; and one-click unsubscribe (RFC 8058): List-Unsubscribe with the signed
 * HTTPS URL (no mailto: the service has no address that processes unsubscribe mail) and
 * List-Unsubscribe-Post.
 */
export function composeMessage(m: MessageToSend, links: TrackingLinks, ownBaseUrl: string): Mail.Options {
  const references = m.references !== undefined && m.references.length > 0 ? [...m.references] : m.inReplyTo !== undefined ? [m.inReplyTo] : undefined;
  const unsubscribeUrl = links.unsubscribeUrl(m.emailId);
  const tracking = m.tracking ?? TRACK_EVERYTHING;
  return {
    from: { name: m.from.name ?? '', address: m.from.address },
    to: { name: m.to.name ?? '', address: m.to.address },
    subject: m.subject,
    messageId: m.messageId,
    date: new Date(),
    inReplyTo: m.inReplyTo,
    references,
    text: trackText(m.text, unsubscribeUrl),
    html: tracking.plainTextOnly ? undefined : trackHtml(m.html, m.emailId, links, ownBaseUrl, unsubscribeUrl, tracking),
    headers: {
      'List-Id': listId(m.campaignId, m.from.address),
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
