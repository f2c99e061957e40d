/**
 * What an SMTP failure means for the email:
 * - 'recipient_rejected': a 5xx reply to RCPT TO or to the message (DATA): the receiving server
 *   will not take mail for this address; a hard bounce;
 * - 'sender_rejected': a 5xx reply about us (AUTH, MAIL FROM, HELO): the mailbox's credentials or
 *   sender address are wrong; nothing about the lead, so it is not a bounce;
 * - 'temporary': a 4xx reply, a refused or dropped connection, a timeout, DNS: the message was not
 *   taken and the same send may succeed later.
 */
export type SmtpFailureKind = 'recipient_rejected' | 'sender_rejected' | 'temporary';

interface NodemailerError {
  code?: string;
  responseCode?: number;
  command?: string;
  response?: string;
}

const RECIPIENT_COMMANDS = new Set(['RCPT TO', 'DATA']);

export function classifySmtpFailure(err: unknown): SmtpFailureKind {
  const e = (err ?? {}) as NodemailerError;
  const code = typeof e.responseCode === 'number' ? e.responseCode : 0;
  if (code >= 400 && code < 500) return 'temporary';
  // 503 (bad sequence of commands) is the session's state, not a verdict on the message.
  if (code >= 500 && code < 600 && code !== 503) {
    return RECIPIENT_COMMANDS.has(e.command ?? '') ? 'recipient_rejected' : 'sender_rejected';
  }
  if (e.code === 'EAUTH' || e.code === 'ENOAUTH') return 'sender_rejected';
  return 'temporary';
}

/** The server's reply if there was one, else the error message: what the email row keeps. */
export function smtpErrorText(err: unknown): string {
  const e = (err ?? {}) as NodemailerError & { message?: string };
  return e.response ?? e.message ?? String(err);
}
