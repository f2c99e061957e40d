import type { Context } from 'koa';

/**
 * The session cookie: httpOnly (no script can read it), SameSite=Lax (not sent on another site's
 * POST), Path=/dashboard (the API never sees it), and Secure whenever the request came over HTTPS
 * (directly, or through a proxy the service trusts: TRUST_PROXY makes Koa read X-Forwarded-Proto).
 * No Max-Age: the browser drops it when it closes; the server's idle and absolute expiry decide.
 */
export const SESSION_COOKIE = 'outreach_session';
/** Sign-in's own double-submit token: no session exists yet to hold one. */
export const SIGN_IN_COOKIE = 'outreach_signin';

export function cookieOptions(ctx: Context): { httpOnly: true; sameSite: 'lax'; path: string; secure: boolean; overwrite: true } {
  return { httpOnly: true, sameSite: 'lax', path: '/dashboard', secure: ctx.secure, overwrite: true };
}

export function readCookie(ctx: Context, name: string): string | undefined {
  return ctx.cookies.get(name) ?? undefined;
}

export function setCookie(ctx: Context, name: string, value: string): void {
  ctx.cookies.set(name, value, cookieOptions(ctx));
}

export function clearCookie(ctx: Context, name: string): void {
  ctx.cookies.set(name, '', { ...cookieOptions(ctx), maxAge: 0 });
}
