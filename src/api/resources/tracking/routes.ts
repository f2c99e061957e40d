import { Type } from '@sinclair/typebox';
import { badRequest, serviceUnavailable } from '../../http/errors';
import { defineRoute } from '../../http/route';
import type { AppDeps } from '../../deps';
import type { Tracking } from '../../../tracking/tracking';
import { PIXEL_HEADERS, TRANSPARENT_GIF } from '../../../tracking/pixel';
import { unsubscribeByEmail, unsubscribeTarget } from '../../../tracking/unsubscribe';
import { takeOpen } from './open-pixel';
import { confirmPage, donePage, invalidLinkPage, PAGE_HEADERS } from './pages';

/**
 * The links inside sent emails (see src/tracking/links.ts for what each signature covers). Public:
 * the signature is the credential, so they work for any account without a key. Opens and clicks are
 * recorded off the request path (src/tracking/recorder.ts); unsubscribes are committed before the
 * answer. The unsubscribe answers are HTML pages for a person's browser, the one exception to JSON.
 */

function tracking(deps: AppDeps): Tracking {
  if (!deps.tracking) throw serviceUnavailable('Tracking is not configured on this process');
  return deps.tracking;
}

const openPixel = defineRoute({
  method: 'get',
  path: '/t/o/:token',
  auth: 'none',
  operationId: 'trackOpen',
  summary: 'Open pixel',
  description:
    'The 1x1 transparent GIF an email loads; `token` is `<emailId>.<signature>.gif`. Always the same GIF, whatever the token: ' +
    'only a valid one records the open, once per email, with the time of the first load. Nothing on this path waits for the database. ' +
    'Pixel loads carry no X-Request-Id and are not logged one by one.',
  tags: ['tracking'],
  params: Type.Object({ token: Type.String({ description: '`<emailId>.<signature>.gif`' }) }),
  responses: { 200: { description: 'A 43-byte transparent GIF', contentType: 'image/gif' } },
  // Normally answered by openPixelFastPath (open-pixel.ts) before the router; the same behaviour here.
  handler: async ({ params }, { deps }) => {
    takeOpen(deps, params.token);
    return { body: TRANSPARENT_GIF, headers: PIXEL_HEADERS };
  },
});

function isWebUrl(u: string): URL | undefined {
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const click = defineRoute({
  method: 'get',
  path: '/t/c/:emailId/:n',
  auth: 'none',
  operationId: 'trackClick',
  summary: 'Click redirect',
  description:
    'Redirects (302) to `u` when `s` signs exactly this email, link index and URL and the URL is http(s); anything else is a 400 ' +
    'and never a redirect. The click is recorded once per email and link, and counts as an open if none was recorded.',
  tags: ['tracking'],
  params: Type.Object({ emailId: Type.String({ maxLength: 100 }), n: Type.Integer({ minimum: 0, maximum: 100_000, description: 'Link index in the email' }) }),
  query: Type.Object({ u: Type.String({ maxLength: 8192, description: 'Target URL' }), s: Type.String({ maxLength: 100, description: 'Signature' }) }),
  errors: [503],
  responses: { 302: { description: 'Redirect to the target URL (Location)' } },
  handler: async ({ params, query }, { deps }) => {
    const t = tracking(deps);
    const target = isWebUrl(query.u);
    if (!t.links.verifyClick(params.emailId, params.n, query.u, query.s) || !target) throw badRequest('This link is not valid');
    t.recorder.recordClick(params.emailId, params.n, query.u);
    // The signed URL as it was written, unless it holds characters a header cannot carry.
    const location = /^[\x21-\x7e]+$/.test(query.u) ? query.u : target.href;
    return { status: 302, body: '', headers: { Location: location, 'Cache-Control': 'no-store' } };
  },
});

const unsubscribeParams = Type.Object({ token: Type.String({ maxLength: 200, description: '`<emailId>.<signature>`' }) });

const unsubscribePage = defineRoute({
  method: 'get',
  path: '/u/:token',
  auth: 'none',
  operationId: 'unsubscribePage',
  summary: 'Unsubscribe page',
  description:
    'An HTML page that asks the recipient to confirm; it changes nothing (mail scanners fetch links). Its button POSTs to the same URL. ' +
    'A link that is not valid gets an HTML 404 page.',
  tags: ['tracking'],
  params: unsubscribeParams,
  errors: [503],
  responses: {
    200: { description: 'Confirmation page (HTML)', contentType: 'text/html' },
    404: { description: 'The link is not valid (HTML page)', contentType: 'text/html' },
  },
  handler: async ({ params }, { deps }) => {
    const emailId = tracking(deps).links.verifyToken('unsub', params.token);
    const target = emailId === null ? undefined : await unsubscribeTarget(deps.sequelize, emailId);
    if (!target) return { status: 404, body: invalidLinkPage(), headers: PAGE_HEADERS };
    return { body: confirmPage(target.address, target.alreadyUnsubscribed), headers: PAGE_HEADERS };
  },
});

const ONE_CLICK = 'One-Click';

const unsubscribe = defineRoute({
  method: 'post',
  path: '/u/:token',
  auth: 'none',
  operationId: 'unsubscribe',
  summary: 'Unsubscribe (RFC 8058 one-click, or the page\'s button)',
  description:
    'Adds the address to the account\'s suppression list and records the unsubscribe, committed before the answer, so no later send ' +
    'reaches it. A mail client\'s one-click POST (`List-Unsubscribe=One-Click`, multipart/form-data or urlencoded) gets a plain-text 200; ' +
    'the page\'s button gets an HTML page. A link that is not valid gets an HTML 404 page and changes nothing.',
  tags: ['tracking'],
  params: unsubscribeParams,
  rawBody: {
    contentTypes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
    maxBytes: 16 * 1024,
    mode: 'buffer',
    description: '`List-Unsubscribe=One-Click` (RFC 8058), or the confirmation page\'s form (`confirm=yes`)',
  },
  errors: [503],
  responses: {
    200: { description: 'Unsubscribed: text/plain for a one-click POST, an HTML page for the form', contentType: 'text/html' },
    404: { description: 'The link is not valid (HTML page); nothing changed', contentType: 'text/html' },
  },
  handler: async ({ params, raw }, { deps, koa }) => {
    const form = await new Response(raw ?? Buffer.alloc(0), { headers: { 'content-type': koa.get('content-type') } }).formData().catch(() => undefined);
    const oneClick = form?.get('List-Unsubscribe') === ONE_CLICK;
    if (!oneClick && form?.get('confirm') !== 'yes') throw badRequest('Expected List-Unsubscribe=One-Click');
    const emailId = tracking(deps).links.verifyToken('unsub', params.token);
    if (emailId === null || !(await unsubscribeByEmail(deps.sequelize, emailId, { leadFacts: deps.leadFacts }))) {
      return { status: 404, body: invalidLinkPage(), headers: PAGE_HEADERS };
    }
    if (oneClick) return { body: 'Unsubscribed.\n', headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } };
    return { body: donePage(), headers: PAGE_HEADERS };
  },
});

export const trackingRoutes = [openPixel, click, unsubscribePage, unsubscribe];
