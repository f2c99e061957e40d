import ROLE_LIST from './roles.json';
import type { CheckResult } from './types';

const ROLES: ReadonlySet<string> = new Set(ROLE_LIST);

/**
 * A role address (info@, sales@, support@...) reaches a function, not a person: often a shared
 * inbox or a ticket queue, where cold email is read as spam and reported. It can receive mail, so
 * it is a warning (the lead is risky), not a failure. The local part is compared before any
 * `+tag` and without case: `Sales+eu@` is `sales`.
 */
export function checkRole(local: string): CheckResult {
  const base = local.toLowerCase().split('+')[0] ?? '';
  return ROLES.has(base) ? { result: 'warn', detail: `role address (${base})` } : { result: 'pass', detail: 'a personal address' };
}
