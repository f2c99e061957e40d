import type { Context } from 'koa';
import { authenticateApiKey, type AuthContext } from '../../auth/authenticate';
import type { AppDeps } from '../deps';
import { unauthorized } from './errors';
import type { RouteAuth } from './route';

const BEARER = /^Bearer[ ]+(\S+)$/i;

/** Reads the surface's credential header; each surface names its own header in the 401. */
function presentedKey(ctx: Context, surface: 'a' | 'b'): string {
  if (surface === 'a') {
    const header = ctx.get('authorization');
    if (header === '') throw unauthorized('Missing API key: send Authorization: Bearer <API_KEY>');
    const m = BEARER.exec(header);
    if (!m) throw unauthorized('Malformed Authorization header: expected Bearer <API_KEY>');
    return m[1] as string;
  }
  const key = ctx.get('x-api-key');
  if (key === '') throw unauthorized('Missing API key: send X-API-Key: <API_KEY>');
  return key.trim();
}

export async function authenticate(ctx: Context, surface: Exclude<RouteAuth, 'none'>, deps: AppDeps): Promise<AuthContext> {
  const key = presentedKey(ctx, surface);
  const result = await authenticateApiKey(deps.sequelize, key, (err) => deps.log.warn({ err }, 'could not record key use'));
  switch (result) {
    case 'malformed':
      throw unauthorized('Invalid API key');
    case 'unknown':
      throw unauthorized('Invalid API key');
    case 'revoked':
      throw unauthorized('API key has been revoked');
    default:
      return result;
  }
}
