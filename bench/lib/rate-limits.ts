/**
 * Rate limits far above what any scenario sends (the config's largest value, per minute): the
 * limiter still counts every request in PostgreSQL, so its cost is in the figures, but no
 * scenario measures 429s.
 */
export const UNREACHED_RATE_LIMITS: Readonly<Record<string, string>> = {
  RATE_LIMIT_FREE_PER_MINUTE: '999999999',
  RATE_LIMIT_PRO_PER_MINUTE: '999999999',
  RATE_LIMIT_B_PER_MINUTE: '999999999',
};
