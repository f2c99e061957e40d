import { randomBytes } from 'node:crypto';

/**
 * Opaque, prefixed identifiers (`acc_…`, `key_…`, `cmp_…`): readable in logs and the Temporal UI,
 * and a glance tells what kind of thing an id names.
 */
export function newId(kind: 'acc' | 'key' | 'cmp'): string {
  return `${kind}_${randomBytes(12).toString('base64url').replace(/[-_]/g, '').padEnd(12, '0').slice(0, 16)}`;
}
