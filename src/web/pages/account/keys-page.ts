import { Type } from '@sinclair/typebox';
import { AccountService, KeyNotFound, type IssuedKey, type KeySummary } from '../../../accounts/account-service';
import type { AnyRoute } from '../../../api/http/route';
import type { DashboardSession } from '../../../auth/sessions/session-repository';
import { NotFoundError } from '../../../errors/domain-errors';
import { defineAction, definePage, type PageContext } from '../../page-route';
import { renderTemplate } from '../../render';
import { clearCookie, SESSION_COOKIE } from '../../session-cookie';
import { noticeText, shownTime } from './format';

/**
 * The API keys page: the account's keys, a new key (shown once, on the answer to the POST that
 * made it, never in an address or a redirect), and revocation. Keys are issued and revoked by the
 * same AccountService as /v1/api-keys; revoking a key also ends its dashboard sessions, so
 * revoking the key this session signed in with signs the user out.
 */

const NOTICES: Readonly<Record<string, string>> = {
  revoked: 'The key was revoked: requests with it are refused from now on.',
};

/** The same limit as POST /v1/api-keys. */
const LABEL_MAX = 100;

const NoticeQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) }, { additionalProperties: false });
const CreateForm = Type.Object({ label: Type.Optional(Type.String({ maxLength: LABEL_MAX })) }, { additionalProperties: false });

interface KeyRow {
  readonly id: string;
  readonly prefix: string;
  readonly label: string | null;
  readonly created: ReturnType<typeof shownTime>;
  readonly lastUsed: ReturnType<typeof shownTime> | null;
  readonly revoked: ReturnType<typeof shownTime> | null;
  /** The key this session signed in with. */
  readonly current: boolean;
}

function keyRow(k: KeySummary, session: DashboardSession): KeyRow {
  return {
    id: k.keyId,
    prefix: k.prefix,
    label: k.label,
    created: shownTime(k.createdAt),
    lastUsed: shownTime(k.lastUsedAt),
    revoked: shownTime(k.revokedAt),
    current: k.keyId === session.keyId,
  };
}

async function keysPage(ctx: PageContext, extra: { notice?: string; created?: IssuedKey & { label: string | null } }) {
  const keys = await new AccountService(ctx.deps.sequelize).listKeys(ctx.session.accountId);
  // Newest first: the key just made is at the top, beside its one showing.
  const rows = keys.map((k) => keyRow(k, ctx.session)).reverse();
  return renderTemplate('keys', {
    title: 'API keys',
    session: ctx.session,
    nav: 'keys',
    notice: extra.notice,
    keys: rows,
    active: rows.filter((k) => k.revoked === null).length,
    created: extra.created === undefined ? null : { ...extra.created, created: shownTime(extra.created.createdAt) },
    labelMax: LABEL_MAX,
  });
}

const page = definePage({
  path: '/dashboard/keys',
  summary: 'API keys',
  query: NoticeQuery,
  handler: async ({ query }, ctx) => ({ html: await keysPage(ctx, { notice: noticeText(NOTICES, query.notice) }) }),
});

const create = defineAction({
  path: '/dashboard/keys',
  summary: 'Create an API key',
  form: CreateForm,
  handler: async ({ form }, ctx) => {
    const label = (form.label ?? '').trim() || null;
    const key = await new AccountService(ctx.deps.sequelize).issueKey(ctx.session.accountId, label);
    // Rendered from the POST itself: the key is in this answer only, and no cache keeps it.
    return { html: await keysPage(ctx, { created: { ...key, label } }), headers: { 'Cache-Control': 'no-store' } };
  },
});

const revoke = defineAction({
  path: '/dashboard/keys/:keyId/revoke',
  summary: 'Revoke an API key',
  handler: async ({ params }, { deps, koa, session }) => {
    const keyId = params.keyId ?? '';
    try {
      await new AccountService(deps.sequelize).revokeKey(keyId, session.accountId);
    } catch (err) {
      if (err instanceof KeyNotFound) throw new NotFoundError('api_key');
      throw err;
    }
    // The revocation ended every session of that key, this one included when it is the same key.
    if (keyId === session.keyId) {
      clearCookie(koa, SESSION_COOKIE);
      return { redirect: '/dashboard' };
    }
    return { redirect: '/dashboard/keys?notice=revoked' };
  },
});

export const keyPageRoutes: readonly AnyRoute[] = [page, create, revoke];
