import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../../api/http/route';
import { answerLead, MAX_BODY } from '../../../conversations/answer/answer-lead';
import { AnswerRefusedError } from '../../../conversations/answer/refused';
import { MAX_SUBJECT } from '../../../conversations/answer/threading';
import { getLeadThread } from '../../../conversations/thread/lead-thread';
import { InvalidInputError } from '../../../errors/domain-errors';
import { markRead } from '../../../replies/inbox/read-state';
import { defineAction, definePage, type PageContext, type PageResult } from '../../page-route';
import { renderTemplate } from '../../render';
import { noticeText } from '../account/format';
import { LABEL_NOTICES } from '../inbox';
import { CATEGORY_CHOICES } from '../inbox/label-view';
import { threadHref } from '../inbox/links';
import { threadView } from './thread-view';

/**
 * The thread with one lead (`/dashboard/leads/:id/thread`): every email of every campaign sent to
 * them with its events, every message they sent back, and your answers, oldest first; the
 * category correction on each reply; and the answer box, which sends from the mailbox that wrote to
 * the lead, in the thread (answerLead, as POST /v1/leads/:id/reply). Opening the thread marks its
 * replies read, as a mail client does; "Mark unread" in the inbox undoes it.
 */

const NOTICES: Readonly<Record<string, string>> = {
  ...LABEL_NOTICES,
  sent: 'Your answer was sent, in the thread, from the mailbox the lead knows. The lead\'s automatic steps are stopped.',
  sending: 'Your answer is stored and being sent: the mail server has not taken it yet, and it is retried until it does. The lead\'s automatic steps are stopped.',
  failed: 'The mail server refused your answer: see its status below.',
};

const PageQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) }, { additionalProperties: false });

/** A 100,000-character answer of multi-byte text, url-encoded, fits. */
const ANSWER_FORM_BYTES = 1024 * 1024;
const AnswerForm = Type.Object(
  {
    body: Type.String({ maxLength: MAX_BODY * 2 }),
    subject: Type.Optional(Type.String({ maxLength: MAX_SUBJECT * 2 })),
    cc: Type.Optional(Type.String({ maxLength: 4000 })),
  },
  { additionalProperties: false },
);

interface AnswerDraft {
  readonly body: string;
  readonly subject: string;
  readonly cc: string;
  readonly error: string;
}

async function threadPage(ctx: PageContext, leadId: string, notice?: string, draft?: AnswerDraft): Promise<string> {
  const { sequelize } = ctx.deps;
  const accountId = ctx.session.accountId;
  const thread = await getLeadThread(sequelize, accountId, leadId);
  const view = threadView(thread);
  // Read now: the page still shows which were new to this view.
  await markRead(sequelize, accountId, view.messages.filter((m) => m.direction === 'in' && m.unread).map((m) => m.id), new Date());
  const self = threadHref(thread.lead.id);
  return renderTemplate('lead-thread', {
    title: `Thread · ${view.lead.display}`,
    session: ctx.session,
    nav: 'inbox',
    notice,
    ...view,
    self,
    categories: CATEGORY_CHOICES,
    draft: draft ?? { body: '', subject: '', cc: '', error: '' },
    maxBody: MAX_BODY,
    maxSubject: MAX_SUBJECT,
  });
}

const page = definePage({
  path: '/dashboard/leads/:id/thread',
  summary: 'The thread with one lead',
  query: PageQuery,
  handler: async ({ params, query }, ctx) => ({ html: await threadPage(ctx, params.id ?? '', noticeText(NOTICES, query.notice)) }),
});

/** The cc box: addresses separated by commas, semicolons, spaces or lines. */
const ccOf = (text: string): string[] => text.split(/[\s,;]+/).filter((c) => c !== '');

const answer = defineAction({
  path: '/dashboard/leads/:id/reply',
  summary: 'Answer the lead in the thread',
  form: AnswerForm,
  maxBytes: ANSWER_FORM_BYTES,
  handler: async ({ params, form }, ctx): Promise<PageResult> => {
    const leadId = params.id ?? '';
    const body = form.body ?? '';
    const subject = (form.subject ?? '').trim();
    const cc = form.cc ?? '';
    const refuse = async (status: number, error: string): Promise<PageResult> => ({
      status,
      html: await threadPage(ctx, leadId, undefined, { body, subject, cc, error }),
    });
    const { deps } = ctx;
    try {
      const { answer: sent, settled } = await answerLead(
        { sequelize: deps.sequelize, config: deps.config, log: ctx.log, temporal: deps.temporal.get(), taskQueue: deps.config.temporalTaskQueue },
        ctx.session.accountId,
        leadId,
        { body, ...(subject === '' ? {} : { subject }), cc: ccOf(cc) },
      );
      const notice = !settled ? 'sending' : sent.status === 'sent' ? 'sent' : 'failed';
      return { redirect: `${threadHref(leadId)}?notice=${notice}#message-${encodeURIComponent(sent.id)}` };
    } catch (err) {
      if (err instanceof AnswerRefusedError) return refuse(409, err.message);
      if (err instanceof InvalidInputError) return refuse(400, err.message);
      throw err;
    }
  },
});

export const leadThreadRoutes: readonly AnyRoute[] = [page, answer];
