import type { TSchema } from '@sinclair/typebox';
import type { Context } from 'koa';
import { csrfTokenMatches, findSession, type DashboardSession } from '../auth/sessions/session-repository';
import type { AppDeps } from '../api/deps';
import { toHttpError } from '../api/http/error-middleware';
import { defineRoute, type AnyRoute } from '../api/http/route';
import { compileValidator } from '../api/http/validation';
import type { Logger } from '../log/logger';
import { renderTemplate } from './render';
import { readCookie, SESSION_COOKIE } from './session-cookie';

/**
 * Dashboard pages and the forms they post, declared like API routes (the same router, so the
 * same request ids and logs) but answering HTML:
 * - a page (GET) needs a signed-in session, else it redirects to sign-in and back;
 * - an action (POST, `application/x-www-form-urlencoded`) needs the session AND the session's CSRF
 *   token in the form's `_csrf` field (or the `X-CSRF-Token` header): without it, 403;
 * - the query and the form are validated with Ajv against the route's schema; a problem, an
 *   unknown id or another account's campaign is an HTML error page with its status, never JSON or
 *   a stack trace.
 * Every answer carries a strict Content-Security-Policy: scripts only from the service's own
 * /dashboard/static, no inline script, no other origin for anything.
 */

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** The largest form a page posts (a webhook URL, a key label): anything bigger is refused. */
const MAX_FORM_BYTES = 16 * 1024;

export interface PageContext {
  readonly deps: AppDeps;
  readonly log: Logger;
  readonly koa: Context;
  readonly session: DashboardSession;
}

export type PageResult =
  | { readonly html: string; readonly status?: number; readonly headers?: Readonly<Record<string, string>> }
  | { readonly redirect: string }
  /** A file download (an export): body and headers as they are. */
  | { readonly raw: unknown; readonly headers: Readonly<Record<string, string>> };

type Input = { readonly params: Record<string, string>; readonly query: Record<string, unknown>; readonly form: Record<string, string> };

interface PageSpec {
  readonly path: string;
  readonly summary: string;
  readonly query?: TSchema;
  readonly handler: (input: Input, ctx: PageContext) => Promise<PageResult>;
}

interface ActionSpec {
  readonly path: string;
  readonly summary: string;
  /** The form's fields, `_csrf` excluded. */
  readonly form?: TSchema;
  /** The largest form taken (default 16 KB); a form that carries long texts (a sequence) needs more. */
  readonly maxBytes?: number;
  readonly handler: (input: Input, ctx: PageContext) => Promise<PageResult>;
}

/** The signed-in session of this request, or null. */
export async function sessionOf(ctx: Context, deps: AppDeps): Promise<DashboardSession | null> {
  return findSession(deps.sequelize, readCookie(ctx, SESSION_COOKIE));
}

/** An error as a page: its status and message, in the layout when someone is signed in. */
export function errorPage(status: number, message: string, session: DashboardSession | null): PageResult {
  const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status >= 500 ? 'Something went wrong' : 'That did not work';
  return { status, html: renderTemplate('error', { title, status, message, session, nav: '' }) };
}

function answer(ctx: Context, result: PageResult): { status: number; body: unknown; headers: Record<string, string> } {
  if ('redirect' in result) return { status: 303, body: '', headers: { ...PAGE_HEADERS, Location: result.redirect } };
  if ('raw' in result) return { status: 200, body: result.raw, headers: { ...result.headers } };
  return { status: result.status ?? 200, body: result.html, headers: { ...PAGE_HEADERS, ...result.headers } };
}

/** Runs a handler; what it throws becomes an error page (a 500 is logged and says nothing more). */
async function guarded(ctx: Context, log: Logger, session: DashboardSession | null, run: () => Promise<PageResult>) {
  try {
    return answer(ctx, await run());
  } catch (err) {
    const http = toHttpError(err);
    if (http !== undefined) return answer(ctx, errorPage(http.status, http.message, session));
    log.error({ err }, 'dashboard page failed');
    return answer(ctx, errorPage(500, 'The page could not be shown. Try again in a moment.', session));
  }
}

/** Where sign-in sends the browser back to: only a dashboard path of this service. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/dashboard(\/[A-Za-z0-9_\-/]*)?(\?[A-Za-z0-9_\-=&%.]*)?$/.test(next) ? next : '/dashboard/campaigns';
}

function signInRedirect(ctx: Context): PageResult {
  return { redirect: `/dashboard?next=${encodeURIComponent(ctx.originalUrl)}` };
}

/** A page that needs a signed-in user. */
export function definePage(spec: PageSpec): AnyRoute {
  const validateQuery = spec.query === undefined ? undefined : compileValidator('query', spec.query);
  return defineRoute({
    method: 'get',
    path: spec.path,
    auth: 'none',
    hidden: true,
    operationId: `page ${spec.path}`,
    summary: spec.summary,
    tags: ['dashboard'],
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handler: async (_input, { deps, log, koa }) => {
      const session = await sessionOf(koa, deps);
      return guarded(koa, log, session, async () => {
        if (session === null) return signInRedirect(koa);
        const query: Record<string, unknown> = { ...koa.query };
        validateQuery?.(query);
        return spec.handler({ params: { ...koa.params }, query, form: {} }, { deps, log, koa, session });
      });
    },
  });
}

/** The fields of a url-encoded form, one value each (the last, if a field is repeated). */
export function parseForm(raw: Buffer | undefined): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(raw?.toString('utf8') ?? ''));
}

/** A form post that changes something: session and CSRF token required. */
export function defineAction(spec: ActionSpec): AnyRoute {
  const validateForm = spec.form === undefined ? undefined : compileValidator('body', spec.form);
  return defineRoute({
    method: 'post',
    path: spec.path,
    auth: 'none',
    hidden: true,
    operationId: `action ${spec.path}`,
    summary: spec.summary,
    tags: ['dashboard'],
    rawBody: { contentTypes: ['application/x-www-form-urlencoded'], maxBytes: spec.maxBytes ?? MAX_FORM_BYTES, mode: 'buffer', description: 'An HTML form' },
    responses: { 303: { description: 'Back to the page' }, 200: { description: 'HTML page', contentType: 'text/html' } },
    handler: async ({ raw }, { deps, log, koa }) => {
      const session = await sessionOf(koa, deps);
      return guarded(koa, log, session, async () => {
        if (session === null) return errorPage(403, 'You are signed out. Sign in again and repeat the change.', null);
        const { _csrf: token, ...form } = parseForm(raw);
        if (!csrfTokenMatches(session, token ?? koa.get('X-CSRF-Token') ?? undefined)) {
          return errorPage(403, 'This form has expired or did not come from this dashboard. Reload the page and try again.', session);
        }
        validateForm?.(form);
        return spec.handler({ params: { ...koa.params }, query: {}, form }, { deps, log, koa, session });
      });
    },
  });
}
