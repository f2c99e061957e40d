import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../../api/http/route';
import { egressFor } from '../../../egress';
import { NotFoundError } from '../../../errors/domain-errors';
import { DELIVERY_STATUSES, type DeliveryOrder, type DeliveryStatus } from '../../../webhooks/delivery-repository';
import { resendDelivery, ResendRefused } from '../../../webhooks/resend';
import { sendTestEvent, TestEventRefused, type TestEventResult } from '../../../webhooks/test-event';
import { rotateWebhookSecret, setWebhookUrl, webhookSettings } from '../../../webhooks/webhook-settings-repository';
import { MAX_WEBHOOK_URL_LENGTH, normalizeWebhookUrl, webhookUrlProblem } from '../../../webhooks/webhook-url';
import { defineAction, definePage, safeNext, type PageContext, type PageResult } from '../../page-route';
import { renderTemplate } from '../../render';
import { deliveryLogPage } from './deliveries';
import { noticeText, shownTime } from './format';

/**
 * The webhooks page: the global URL (checked exactly as PATCH /v1/webhook-settings checks it), the
 * signing secret (hidden until "Reveal", whose POST answers with it; rotation as
 * /v1/webhook-settings/rotate-secret), a test event (as POST /v1/webhooks/test, its outcome on the
 * answer page) and the delivery log with resend (as /v1/webhook-deliveries: filtered by status and
 * campaign, newest first or oldest event first, so "failed, oldest first" shows what waits for its
 * URL in the order it is sent again). Every action calls
 * the same webhooks functions as those endpoints.
 */

const PER_PAGE = 20;
export const WEBHOOKS_PATH = '/dashboard/webhooks';

/** Notices after a redirect; exported for pages that embed the delivery table and its "Resend". */
export const DELIVERY_NOTICES: Readonly<Record<string, string>> = {
  resent: 'The delivery was resent: an attempt is made within moments, with the retry ladder again if it fails.',
  'resend-in-flight': 'That delivery is still being delivered: resend it once it is delivered or failed.',
  'resend-test': 'A test event is sent once and never resent: send a new test event instead.',
};

const NOTICES: Readonly<Record<string, string>> = {
  ...DELIVERY_NOTICES,
  'url-saved': 'The global URL was saved: events dispatched from now on go to it.',
  'url-cleared': 'The global URL was cleared. Campaigns with their own webhook URL still get their events.',
  rotated: 'The signing secret was rotated. The previous one keeps signing beside it for 24 hours; reveal the new one to copy it.',
};

const LogQuery = Type.Object(
  {
    notice: Type.Optional(Type.String({ maxLength: 40 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    status: Type.Optional(Type.Union([Type.Literal(''), ...DELIVERY_STATUSES.map((s) => Type.Literal(s))])),
    campaign: Type.Optional(Type.String({ maxLength: 100 })),
    order: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('newest'), Type.Literal('oldest')])),
  },
  { additionalProperties: false },
);

/** Longer than any acceptable URL, so the domain's own check names the problem. */
const UrlForm = Type.Object({ url: Type.String({ maxLength: MAX_WEBHOOK_URL_LENGTH * 2 }) }, { additionalProperties: false });
const TestForm = Type.Object({ url: Type.Optional(Type.String({ maxLength: MAX_WEBHOOK_URL_LENGTH * 2 })) }, { additionalProperties: false });
const ResendForm = Type.Object({ returnTo: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false });

interface LogState {
  readonly page: number;
  readonly status: DeliveryStatus | '';
  readonly campaign: string;
  readonly order: DeliveryOrder;
}

interface PageState {
  readonly notice?: string;
  readonly log?: LogState;
  readonly reveal?: boolean;
  /** A refused URL: the message and what was typed, shown again in the form. */
  readonly urlError?: { readonly message: string; readonly value: string };
  readonly test?: { readonly result: TestEventResult } | { readonly refused: string; readonly value: string };
}

function logHref(log: LogState, page: number): string {
  const params = new URLSearchParams();
  if (log.status !== '') params.set('status', log.status);
  if (log.campaign !== '') params.set('campaign', log.campaign);
  if (log.order !== 'newest') params.set('order', log.order);
  if (page > 1) params.set('page', String(page));
  const s = params.toString();
  return `${WEBHOOKS_PATH}${s === '' ? '' : `?${s}`}`;
}

/** A secret as shown before "Reveal": its kind, never a character of it. */
const MASKED = 'whsec_' + '•'.repeat(12);

async function webhooksPage(ctx: PageContext, state: PageState): Promise<string> {
  const { sequelize } = ctx.deps;
  const accountId = ctx.session.accountId;
  const log: LogState = state.log ?? { page: 1, status: '', campaign: '', order: 'newest' };
  const [settings, deliveries] = await Promise.all([
    webhookSettings(sequelize, accountId),
    deliveryLogPage(
      sequelize,
      accountId,
      { status: log.status === '' ? undefined : log.status, campaignId: log.campaign === '' ? undefined : log.campaign },
      log.page,
      PER_PAGE,
      log.order,
    ),
  ]);
  const pages = Math.max(1, Math.ceil(deliveries.total / PER_PAGE));
  const test = state.test;
  return renderTemplate('webhooks', {
    title: 'Webhooks',
    session: ctx.session,
    nav: 'webhooks',
    notice: state.notice,
    url: settings.url,
    urlInput: state.urlError?.value ?? settings.url ?? '',
    urlError: state.urlError?.message ?? null,
    urlMax: MAX_WEBHOOK_URL_LENGTH,
    secret: state.reveal === true ? settings.secret : null,
    masked: MASKED,
    previousSecret: state.reveal === true ? settings.previousSecret : null,
    previousExpires: shownTime(settings.previousSecretExpiresAt),
    rotatedAt: shownTime(settings.secretRotatedAt),
    testResult: test !== undefined && 'result' in test ? test.result : null,
    testError: test !== undefined && 'refused' in test ? test.refused : null,
    testInput: test !== undefined && 'refused' in test ? test.value : '',
    deliveries: deliveries.deliveries,
    total: deliveries.total,
    statuses: DELIVERY_STATUSES,
    log,
    // The shortcut to what waits for its URL, in the order it is sent again (within the campaign shown, if any).
    failedOldestHref: logHref({ ...log, status: 'failed', order: 'oldest' }, 1),
    returnTo: logHref(log, log.page),
    page: log.page,
    pages,
    prev: log.page > 1 ? logHref(log, log.page - 1) : null,
    next: log.page < pages ? logHref(log, log.page + 1) : null,
  });
}

const page = definePage({
  path: WEBHOOKS_PATH,
  summary: 'Webhooks',
  query: LogQuery,
  handler: async ({ query }, ctx) => {
    const log: LogState = {
      page: (query.page as number | undefined) ?? 1,
      status: (query.status as DeliveryStatus | '' | undefined) ?? '',
      campaign: ((query.campaign as string | undefined) ?? '').trim(),
      order: query.order === 'oldest' ? 'oldest' : 'newest',
    };
    return { html: await webhooksPage(ctx, { notice: noticeText(NOTICES, query.notice), log }) };
  },
});

const setUrl = defineAction({
  path: `${WEBHOOKS_PATH}/url`,
  summary: 'Set the global webhook URL',
  form: UrlForm,
  handler: async ({ form }, ctx) => {
    const raw = (form.url ?? '').trim();
    const problem = raw === '' ? 'is empty: enter the URL, or use "Clear URL" to remove it' : webhookUrlProblem(raw, ctx.deps.config.allowLoopbackEgress);
    if (problem !== null) {
      return { status: 400, html: await webhooksPage(ctx, { urlError: { message: `The URL ${problem}.`, value: raw } }) };
    }
    await setWebhookUrl(ctx.deps.sequelize, ctx.session.accountId, normalizeWebhookUrl(raw));
    return { redirect: `${WEBHOOKS_PATH}?notice=url-saved` };
  },
});

const clearUrl = defineAction({
  path: `${WEBHOOKS_PATH}/url/clear`,
  summary: 'Clear the global webhook URL',
  handler: async (_input, ctx) => {
    await setWebhookUrl(ctx.deps.sequelize, ctx.session.accountId, null);
    return { redirect: `${WEBHOOKS_PATH}?notice=url-cleared` };
  },
});

const reveal = defineAction({
  path: `${WEBHOOKS_PATH}/reveal`,
  summary: 'Show the webhook signing secret',
  // A POST, so the secret is on this answer only: not in an address, a history entry or a cache.
  handler: async (_input, ctx) => ({ html: await webhooksPage(ctx, { reveal: true }), headers: { 'Cache-Control': 'no-store' } }),
});

const rotate = defineAction({
  path: `${WEBHOOKS_PATH}/rotate`,
  summary: 'Rotate the webhook signing secret',
  handler: async (_input, ctx) => {
    await rotateWebhookSecret(ctx.deps.sequelize, ctx.session.accountId);
    return { redirect: `${WEBHOOKS_PATH}?notice=rotated` };
  },
});

const test = defineAction({
  path: `${WEBHOOKS_PATH}/test`,
  summary: 'Send a webhook test event',
  form: TestForm,
  handler: async ({ form }, ctx) => {
    const { deps } = ctx;
    const requested = (form.url ?? '').trim();
    const testDeps = { sequelize: deps.sequelize, egress: egressFor(deps.config), allowLoopback: deps.config.allowLoopbackEgress };
    try {
      const result = await sendTestEvent(testDeps, ctx.session.accountId, requested === '' ? undefined : requested);
      return { html: await webhooksPage(ctx, { test: { result } }) };
    } catch (err) {
      if (!(err instanceof TestEventRefused)) throw err;
      const message = err.reason === 'no_url' ? 'There is no global URL to send the test event to: set one, or enter a URL to test.' : `The ${err.message}.`;
      return { status: 400, html: await webhooksPage(ctx, { test: { refused: message, value: requested } }) };
    }
  },
});

/**
 * Where "Resend" comes back to (the page it was pressed on: a dashboard path, else the webhooks
 * page), with the outcome's notice replacing any notice already there.
 */
function backTo(returnTo: string | undefined, notice: string): string {
  const page = returnTo !== undefined && safeNext(returnTo) === returnTo ? returnTo : WEBHOOKS_PATH;
  const url = new URL(page, 'http://dashboard.invalid');
  url.searchParams.set('notice', notice);
  return url.pathname + url.search;
}

const resend = defineAction({
  path: `${WEBHOOKS_PATH}/deliveries/:id/resend`,
  summary: 'Resend a webhook delivery',
  form: ResendForm,
  handler: async ({ params, form }, ctx): Promise<PageResult> => {
    try {
      await resendDelivery(ctx.deps.sequelize, params.id ?? '', ctx.session.accountId);
      return { redirect: backTo(form.returnTo, 'resent') };
    } catch (err) {
      if (!(err instanceof ResendRefused)) throw err;
      if (err.reason === 'not_found') throw new NotFoundError('webhook_delivery');
      if (err.reason === 'test_event') return { redirect: backTo(form.returnTo, 'resend-test') };
      return { redirect: backTo(form.returnTo, 'resend-in-flight') };
    }
  },
});

export const webhookPageRoutes: readonly AnyRoute[] = [page, setUrl, clearUrl, reveal, rotate, test, resend];
