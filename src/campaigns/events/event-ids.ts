import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal values always serialize (and hash) the same way. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * An outbox event id derived from what the workflow asked for (not from a random draw), in the
 * shape of every other id (`evt_` and up to 16 letters or digits; these always 16): an activity retried with the same
 * input computes the same ids, and the outbox's primary key turns the second insert into a no-op.
 * `parts` must name the request completely (campaign, instant, which call, position, event, data).
 */
export function deterministicEventId(parts: readonly unknown[]): string {
  const digest = createHash('sha256').update(canonicalJson(parts)).digest('base64url');
  return `evt_${digest.replace(/[-_]/g, '').slice(0, 16)}`;
}
