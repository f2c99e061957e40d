/**
 * Failures of one send that are not outcomes: a retry may succeed. The activity boundary maps each
 * class to a retryable ApplicationFailure; the campaign batch tells a recipient's temporary
 * refusal (defer that email) from the rest by class.
 */

/** The SMTP server did not take the message. The email's row is 'deferred', under `emailId`. */
export abstract class SmtpSendFailure extends Error {
  constructor(
    message: string,
    readonly emailId: string,
  ) {
    super(message);
  }
}

/** A 4xx reply, a refused or dropped connection, a timeout: the same send may pass later. */
export class SmtpTemporaryFailure extends SmtpSendFailure {
  override readonly name = 'SmtpTemporaryFailure';
}

/** The server refused our login or sender address (or its host is refused): a mailbox to fix. */
export class SmtpSenderRejected extends SmtpSendFailure {
  override readonly name = 'SmtpSenderRejected';
}

/** Another attempt at the same email holds its row right now; a retry will see how it ended. */
export class SendInProgress extends Error {
  override readonly name = 'SendInProgress';
}
