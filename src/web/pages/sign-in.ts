import { randomBytes, timingSafeEqual } from 'node:crypto';
import { authenticateApiKey } from '../../auth/authenticate';
import { createSession, endSession, SESSION_IDLE_MINUTES, SESSION_MAX_HOURS } from '../../auth/sessions/session-repository';
import { defineRoute, type AnyRoute } from '../../api/http/route';
import { defineAction, PAGE_HEADERS, parseForm, safeNext, sessionOf } from '../page-route';
import { renderTemplate } from '../render';
import { clearCookie, readCookie, SESSION_COOKIE, setCookie, SIGN_IN_COOKIE } from '../session-cookie';

/**
 * Sign-in and sign-out. The sign-in form has no session to carry a CSRF token yet, so it uses a
 * double-submit token: a random value both in an httpOnly cookie and in the form, which another
 * site can neither read nor set (this stops a page elsewhere from signing a browser into the
 * attacker's account).
 */

const WRONG_KEY: Record<string, string> = {
  malformed: 'That is not an API key: keys look like ok_ followed by two groups of letters and digits.',
  unknown: 'No account has that API key.',
  revoked: 'That API key was revoked. Sign in with another one.',
};

function signInPage(ctx: Parameters<AnyRoute['handler']>[1]['koa'], next: string, error: string | null, status = 200) {
  const csrf = randomBytes(24).toString('base64url');
  setCookie(ctx, SIGN_IN_COOKIE, csrf);
  const html = renderTemplate('sign-in', { title: 'Sign in', session: null, nav: '', csrf, next, error, idleMinutes: SESSION_IDLE_MINUTES, maxHours: SESSION_MAX_HOURS });
  return { status, body: html, headers: PAGE_HEADERS };
}

const sameToken = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.length === b.length && a.length > 0 && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const signInForm = defineRoute({
  method: 'get',
  path: '/dashboard',
  auth: 'none',
  hidden: true,
  operationId: 'page /dashboard',
  summary: 'Dashboard sign-in',
  tags: ['dashboard'],
  responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
  handler: async (_input, { deps, koa }) => {
    const next = safeNext(koa.query.next);
    if ((await sessionOf(koa, deps)) !== null) return { status: 303, body: '', headers: { ...PAGE_HEADERS, Location: next } };
    return signInPage(koa, next, null);
  },
});

const signIn = defineRoute({
  method: 'post',
  path: '/dashboard/sign-in',
  auth: 'none',
  hidden: true,
  operationId: 'action /dashboard/sign-in',
  summary: 'Sign in with an API key',
  tags: ['dashboard'],
  rawBody: { contentTypes: ['application/x-www-form-urlencoded'], maxBytes: 4096, mode: 'buffer', description: 'The sign-in form' },
  responses: { 303: { description: 'Signed in' }, 200: { description: 'HTML page', contentType: 'text/html' } },
  handler: async ({ raw }, { deps, log, koa }) => {
    const form = parseForm(raw);
    const next = safeNext(form.next);
    if (!sameToken(readCookie(koa, SIGN_IN_COOKIE), form._csrf)) {
      return signInPage(koa, next, 'The sign-in form expired. Enter the key again.', 403);
    }
    const key = (form.key ?? '').trim();
    const auth = await authenticateApiKey(deps.sequelize, key, (err) => log.warn({ err }, 'could not record key use'));
    if (typeof auth === 'string') return signInPage(koa, next, WRONG_KEY[auth] ?? WRONG_KEY.unknown!, 401);
    const session = await createSession(deps.sequelize, auth, koa.get('User-Agent') || undefined);
    setCookie(koa, SESSION_COOKIE, session.token);
    clearCookie(koa, SIGN_IN_COOKIE);
    return { status: 303, body: '', headers: { ...PAGE_HEADERS, Location: next } };
  },
});

const signOut = defineAction({
  path: '/dashboard/sign-out',
  summary: 'Sign out',
  handler: async (_input, { deps, koa, session }) => {
    await endSession(deps.sequelize, session.sessionId);
    clearCookie(koa, SESSION_COOKIE);
    return { redirect: '/dashboard' };
  },
});

export const signInRoutes: readonly AnyRoute[] = [signInForm, signIn, signOut];
