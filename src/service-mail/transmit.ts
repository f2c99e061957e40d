import type Mail from 'nodemailer/lib/mailer';
import type { Party } from '../sending/compose';
import { classifySmtpFailure, smtpErrorText } from '../sending/smtp-outcome';
import { SmtpHostRefused, type SmtpTransports } from '../sending/transports';
import type { MailRoute } from './mail-route';

/** An image the HTML shows by `cid:<cid>`, or a file attached. */
export interface ServiceMailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
  /** Set for an inline image: the HTML refers to it as `cid:<cid>`. */
  readonly cid?: string;
}

/** One message as it goes to SMTP: every attempt at a row builds the same one (Message-ID included). */
export interface OutgoingServiceMail {
  readonly from: Party;
  readonly to: string;
  readonly cc: readonly string[];
  readonly subject: string;
  readonly messageId: string;
  readonly text: string;
  readonly html: string;
  readonly inReplyTo: string | null;
  /** Message-IDs, oldest first. */
  readonly references: readonly string[];
  /** `Auto-Submitted: auto-generated` (RFC 3834): the service wrote it, not a person. */
  readonly autoSubmitted: boolean;
  readonly attachments?: readonly ServiceMailAttachment[];
}

/**
 * What the server said: accepted (with its reply), or not, and whether a later attempt may pass.
 * Not temporary: a 5xx about the message, the recipient or us (AUTH, MAIL FROM), or a mailbox host
 * the egress policy refuses; retrying would only repeat it.
 */
export type TransmitOutcome =
  | {
      readonly accepted: true;
      readonly response: string;
      /** Recipients the server refused while it took the message for the others (a Cc, or the To with a Cc taken). */
      readonly refused: readonly string[];
    }
  | { readonly accepted: false; readonly temporary: boolean; readonly error: string };

/** The nodemailer message of `m`. */
export function serviceMessage(m: OutgoingServiceMail, dkim: MailRoute['dkim']): Mail.Options {
  return {
    from: { name: m.from.name ?? '', address: m.from.address },
    to: m.to,
    cc: m.cc.length === 0 ? undefined : [...m.cc],
    subject: m.subject,
    messageId: m.messageId,
    date: new Date(),
    inReplyTo: m.inReplyTo ?? undefined,
    references: m.references.length === 0 ? undefined : [...m.references],
    text: m.text,
    html: m.html,
    headers: m.autoSubmitted ? { 'Auto-Submitted': 'auto-generated' } : undefined,
    attachments: (m.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
      ...(a.cid === undefined ? {} : { cid: a.cid, contentDisposition: 'inline' as const }),
    })),
    dkim: dkim === null ? undefined : { ...dkim },
  };
}

/** Hands `m` to the route's pooled transporter; never throws for what the server or the network said. */
export async function transmit(transports: SmtpTransports, route: MailRoute, m: OutgoingServiceMail): Promise<TransmitOutcome> {
  try {
    const transporter = await transports.get(route.smtpUrl, route.guard);
    const info = await transporter.sendMail(serviceMessage(m, route.dkim));
    const refused = [...(info.rejected ?? [])];
    return { accepted: true, response: info.response, refused };
  } catch (err) {
    const temporary = !(err instanceof SmtpHostRefused) && classifySmtpFailure(err) === 'temporary';
    return { accepted: false, temporary, error: smtpErrorText(err) };
  }
}
