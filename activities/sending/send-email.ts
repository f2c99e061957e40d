import { ApplicationFailure } from '@temporalio/common';
import { EmailSender, LeadNotFound, SendInProgress, SmtpSendFailed, type SenderHooks } from '../../src/sending/email-sender';
import type { SendEmailInput, SendEmailResult } from '../../src/sending/types';
import type { ActivityDeps } from '../index';

export type { SendEmailInput, SendEmailResult, SendOutcome } from '../../src/sending/types';

/**
 * The `sendEmail` activity: one email of a sequence to one lead (see EmailSender for the order of
 * checks and why a send is at most once). Outcomes are returned; only failures that a retry can fix
 * are thrown as retryable ApplicationFailures, which Temporal retries with the workflow's policy:
 * - 'SmtpTemporary': a 4xx reply, refused connection or timeout (the email row is 'deferred');
 * - 'SmtpSenderRejected': the SMTP server refused our login or sender address (a mailbox to fix);
 * - 'SendInProgress': another attempt at the same email is running right now.
 * A lead that does not exist is 'LeadNotFound', not retryable.
 */
export function sendEmail(deps: ActivityDeps, hooks: SenderHooks = {}) {
  const sender = new EmailSender(deps, hooks);
  return async (input: SendEmailInput): Promise<SendEmailResult> => {
    if (!Number.isInteger(input.step) || input.step < 0) throw ApplicationFailure.nonRetryable(`step must be a non-negative integer, got ${input.step}`, 'InvalidInput');
    if (input.content.subject.trim() === '') throw ApplicationFailure.nonRetryable('the subject is empty', 'InvalidInput');
    try {
      return await sender.send(input);
    } catch (err) {
      if (err instanceof SmtpSendFailed) {
        const type = err.kind === 'temporary' ? 'SmtpTemporary' : 'SmtpSenderRejected';
        throw ApplicationFailure.retryable(err.message, type, { emailId: err.emailId });
      }
      if (err instanceof SendInProgress) throw ApplicationFailure.retryable(err.message, 'SendInProgress');
      if (err instanceof LeadNotFound) throw ApplicationFailure.nonRetryable(err.message, 'LeadNotFound');
      throw err;
    }
  };
}
