import { randomBytes } from 'node:crypto';

export type IdKind = 'acc' | 'key' | 'cmp' | 'lead' | 'co' | 'mbx' | 'em' | 'rpl' | 'mtg' | 'evt' | 'rpt' | 'sml' | 'ses';

/**
 * Opaque, prefixed identifiers (`acc_…`, `key_…`, `cmp_…`, `lead_…`): readable in logs and the
 * Temporal UI, and a glance tells what kind of thing an id names.
 */
export function newId(kind: IdKind): string {
  return `${kind}_${randomBytes(12).toString('base64url').replace(/[-_]/g, '').padEnd(12, '0').slice(0, 16)}`;
}
