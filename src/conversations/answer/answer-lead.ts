/**
 * Answering a lead in its thread (POST /v1/leads/:id/reply; the dashboard's answer box calls the
 * same function): docs/decisions.md, "Answers in the thread".
 */
import { ServiceError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { serviceEmailWorkflowId, type ServiceEmailInput } from '../../../workflows/service-mail/contract';
import type { serviceEmailWorkflow } from '../../../workflows/service-mail/workflow';
import { TEMPORAL_CALL_MS } from '../../campaigns/control/temporal-deadline';
import type { Config } from '../../config/config';
import { InvalidInputError, NotFoundError, UnavailableError } from '../../errors/domain-errors';
import type { Logger } from '../../log/logger';
import { newMessageId } from '../../sending/compose';
import { REPLY_ANSWER_KIND } from '../../service-mail/kinds';
import { serviceEmailId } from '../../service-mail/send-service-email';
import { findLeadServiceEmail, findStoredServiceEmail, insertStoredServiceEmail, type StoredServiceEmail } from '../../service-mail/service-email-repository';
import { normalizeEmail } from '../../suppressions/suppression-repository';
import { answerRefusal } from '../answerability';
import { answerBody } from './answer-body';
import { answerSender, countMailboxSend } from './answer-sender';
import { toLeadAnswer, type LeadAnswer } from './answer-view';
import { readConversation } from './conversation';
import { finishSequencesForAnswer } from './finish-sequences';
import { AnswerRefusedError } from './refused';
import { MAX_SUBJECT, referencesOf, replySubject } from './threading';

export interface AnswerDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
  /** The process's Temporal client: the answer's workflow is started with it. */
  readonly temporal: Client;
  readonly taskQueue: string;
}

export interface AnswerInput {
  /** Plain text, 1 to MAX_BODY characters. */
  readonly body: string;
  /** Default: "Re: " and the subject of the conversation's last message. */
  readonly subject?: string;
  /** Up to MAX_CC addresses. */
  readonly cc?: readonly string[];
}

export interface AnswerOutcome {
  readonly answer: LeadAnswer;
  /** Its workflow settled it (sent, or refused for good) within the wait; false: still being sent. */
  readonly settled: boolean;
}

export const MAX_BODY = 100_000;
export const MAX_CC = 10;
/** How long the caller waits for the SMTP server's answer before being told the answer is on its way. */
export const ANSWER_WAIT_MS = 5_000;

/**
 * Answers the lead in its conversation, from the mailbox that wrote to it:
 * 1. in one transaction, the lead's row locked (two answers to one lead thread one under the
 *    other): refused with the reason (AnswerRefusedError, a 409) when the lead unsubscribed,
 *    bounced, is blocklisted or was never written to; the conversation read; the sender
 *    (answer-sender.ts), threading headers (threading.ts) and body (answer-body.ts) decided; the
 *    answer stored whole as a `service_emails` row ('sending'); the mailbox's count moved; every
 *    sequence of the lead still under way finished; and the workflow `service-email-<id>` started.
 *    Temporal unreachable: the transaction rolls back, nothing is stored or ended, and the error
 *    is an UnavailableError (503) the caller may retry;
 * 2. after the commit, up to `waitMs` for the workflow to settle the row: SMTP took it ('sent') or
 *    refused it for good ('failed'); otherwise it is returned 'sending' and the workflow keeps
 *    trying for up to a day (getLeadAnswer shows how it ended).
 * Another account's lead, an erased one or an unknown id: NotFoundError('lead').
 */
export async function answerLead(deps: AnswerDeps, accountId: string, leadId: string, input: AnswerInput, waitMs = ANSWER_WAIT_MS): Promise<AnswerOutcome> {
  const { sequelize, config, log } = deps;
  const request = checkedInput(input);
  const stored = await sequelize.transaction(async (tx) => {
    const lead = await lockLead(sequelize, tx, accountId, leadId);
    const refusal = await answerRefusal(sequelize, accountId, lead, tx);
    if (refusal !== null) throw new AnswerRefusedError(refusal);
    const conversation = await readConversation(sequelize, tx, accountId, lead.id);
    const sender = await answerSender(sequelize, tx, config, accountId, conversation.lastOutbound);
    const ids = conversation.messages.map((m) => m.messageId).filter((m): m is string => m !== null);
    const lastSubject = [...conversation.messages].reverse().find((m) => m.subject !== null && m.subject.trim() !== '')?.subject ?? '';
    const campaignId = [...conversation.messages].reverse().find((m) => m.campaignId !== null)?.campaignId ?? null;
    const { text, html } = answerBody(request.body, sender.signature);
    const id = serviceEmailId();
    const row = await insertStoredServiceEmail(sequelize, tx, {
      id,
      accountId,
      kind: REPLY_ANSWER_KIND,
      dedupeKey: `${REPLY_ANSWER_KIND}:${id}`,
      fromEmail: sender.from.address,
      fromName: sender.from.name,
      toEmail: lead.email,
      subject: request.subject ?? replySubject(lastSubject),
      messageId: newMessageId(id, sender.from.address),
      leadId: lead.id,
      campaignId,
      mailboxId: sender.mailboxId,
      cc: request.cc.filter((c) => c !== normalizeEmail(lead.email)),
      inReplyTo: ids[ids.length - 1] ?? null,
      referencesIds: referencesOf(ids),
      bodyText: text,
      bodyHtml: html,
    });
    if (sender.mailboxId !== null) await countMailboxSend(sequelize, tx, accountId, sender.mailboxId);
    const ended = await finishSequencesForAnswer(sequelize, tx, accountId, lead.id);
    await startSending(deps, row.id);
    log.info({ serviceEmailId: row.id, leadId: lead.id, mailboxId: sender.mailboxId, sequencesEnded: ended.length }, 'answer to a lead stored; its workflow sends it');
    return row;
  });
  const answer = await settledWithin(deps, stored.id, waitMs);
  return { answer: toLeadAnswer(answer), settled: answer.status !== 'sending' };
}

/** One answer of the lead, as it stands; null when the account's lead has no answer of this id. */
export async function getLeadAnswer(sequelize: Sequelize, accountId: string, leadId: string, answerId: string): Promise<LeadAnswer | null> {
  const row = await findLeadServiceEmail(sequelize, accountId, leadId, REPLY_ANSWER_KIND, answerId);
  return row === null ? null : toLeadAnswer(row);
}

interface CheckedInput {
  readonly body: string;
  readonly subject: string | undefined;
  readonly cc: readonly string[];
}

/**
 * What the API's schema checks too, for callers without one (the dashboard's form): a body that is
 * not blank, a subject on one line, addresses that cannot carry a header. Cc addresses are
 * compared in lower case, each kept once.
 */
function checkedInput(input: AnswerInput): CheckedInput {
  if (input.body.trim() === '') throw new InvalidInputError('body must not be blank');
  if ([...input.body].length > MAX_BODY) throw new InvalidInputError(`body must be at most ${MAX_BODY} characters`);
  const subject = input.subject?.trim();
  if (subject !== undefined && (subject === '' || /[\r\n]/.test(subject) || [...subject].length > MAX_SUBJECT)) {
    throw new InvalidInputError(`subject must be one line of 1 to ${MAX_SUBJECT} characters`);
  }
  const cc = [...new Set((input.cc ?? []).map((c) => normalizeEmail(c)))];
  if (cc.length > MAX_CC) throw new InvalidInputError(`cc takes at most ${MAX_CC} addresses`);
  for (const c of cc) if (!/^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(c)) throw new InvalidInputError(`cc ${JSON.stringify(c)} is not an email address`);
  return { body: input.body, subject, cc };
}

async function lockLead(sequelize: Sequelize, tx: Transaction, accountId: string, leadId: string): Promise<{ id: string; email: string }> {
  const rows = await sequelize.query<{ id: string; email: string }>(
    'SELECT id, email FROM leads WHERE account_id = $1 AND id = $2 AND erased_at IS NULL FOR UPDATE',
    { bind: [accountId, leadId], type: QueryTypes.SELECT, transaction: tx },
  );
  if (rows[0] === undefined) throw new NotFoundError('lead');
  return rows[0];
}

/**
 * Starts the answer's workflow, inside the transaction that stores it (so a refusal stores
 * nothing). Its id is the row's: a second start of the same answer is refused by Temporal.
 */
async function startSending(deps: AnswerDeps, id: string): Promise<void> {
  const input: ServiceEmailInput = { serviceEmailId: id };
  try {
    await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, () =>
      deps.temporal.workflow.start<typeof serviceEmailWorkflow>('serviceEmailWorkflow', {
        taskQueue: deps.taskQueue,
        workflowId: serviceEmailWorkflowId(id),
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args: [input],
        staticSummary: 'Sends one answer to a lead, retrying temporary SMTP trouble for up to a day',
      }),
    );
  } catch (err) {
    if (err instanceof ServiceError || err instanceof WorkflowNotFoundError) {
      throw new UnavailableError('the answer was not sent: the workflow service is unavailable, try again shortly');
    }
    throw err;
  }
}

/**
 * The row once its workflow has settled it, or as it is when `waitMs` is over. The workflow's
 * result is awaited (it ends right after its activity wrote the row), so the caller hears as soon
 * as the SMTP server answered; the deadline cancels that call when the server is slow or down, and
 * the row then still says `sending`. Any other failure to hear the result also falls back to the
 * row, which is the record either way.
 */
async function settledWithin(deps: AnswerDeps, id: string, waitMs: number): Promise<StoredServiceEmail> {
  const handle = deps.temporal.workflow.getHandle(serviceEmailWorkflowId(id));
  await deps.temporal.withDeadline(Date.now() + waitMs, () => handle.result()).catch(() => undefined);
  const row = await findStoredServiceEmail(deps.sequelize, id);
  // Gone since the commit: the lead was deleted, and its answers with it.
  if (row === null) throw new NotFoundError('lead');
  return row;
}
