import { ConnectionError, DatabaseError, TimeoutError } from 'sequelize';

// PostgreSQL's "connection exception" class and the shutdown codes of "operator intervention".
const UNAVAILABLE_CODES = /^(08|57P0[1-3])/;

/**
 * True when storing failed because PostgreSQL is unreachable, shutting down or saturated, not
 * because of the message: HTTP answers 503 and SMTP a 4xx, and the relay delivers again later.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof ConnectionError || err instanceof TimeoutError) return true;
  if (err instanceof DatabaseError) {
    const code = (err.parent as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' && UNAVAILABLE_CODES.test(code);
  }
  const message = (err as Error | undefined)?.message ?? '';
  return /Connection terminated|ECONNREFUSED|ECONNRESET/.test(message);
}
