import type { Verdict, VerificationChecks } from './types';

/**
 * The verdict of a lead's checks:
 * - invalid: malformed, or its domain cannot receive mail (no MX or A record, a null MX). Campaigns never send to it.
 * - risky: a role address or a disposable domain. Mail is delivered, but read by a queue or by
 *   nobody, and reported as spam more often. Disposable is risky rather than invalid because such
 *   domains do accept mail (a bounce is what harms a sender, and there is none); campaigns with
 *   `skip_risky_leads` skip both.
 * - unknown: nothing is wrong, but DNS could not say whether the domain takes mail (timeout, no
 *   network). Sent to: a resolver's bad minute must not cost a lead.
 * - valid: every check passed.
 */
export function verdictOf(checks: VerificationChecks): Verdict {
  if (checks.syntax.result === 'fail' || checks.mailDomain.result === 'fail') return 'invalid';
  if (checks.disposable.result === 'warn' || checks.role.result === 'warn') return 'risky';
  if (checks.mailDomain.result === 'unknown') return 'unknown';
  return 'valid';
}
