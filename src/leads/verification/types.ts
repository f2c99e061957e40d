/**
 * What address verification produces: one result per check, and a verdict drawn from them
 * (verdict.ts). Stored on the lead (`verification`, `verification_checks`, `verified_at`) and shown
 * as it is in the lead views, so a user sees which check made a lead risky or invalid.
 */

/** pass: fine; fail: the address cannot receive mail; warn: it can, but is risky; unknown: could not tell. */
export type CheckOutcome = 'pass' | 'fail' | 'warn' | 'unknown';

export interface CheckResult {
  readonly result: CheckOutcome;
  /** Why, in a few words a user can act on ("no MX or A record", "role address (info)"). */
  readonly detail: string;
}

export const VERDICTS = ['valid', 'risky', 'invalid', 'unknown'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The four checks, under the names the API shows them by. */
export interface VerificationChecks {
  readonly syntax: CheckResult;
  readonly role: CheckResult;
  readonly disposable: CheckResult;
  readonly mailDomain: CheckResult;
}

export interface AddressVerification {
  readonly status: Verdict;
  readonly checks: VerificationChecks;
}

/** For checks that did not run because an earlier one already decided (a malformed address has no domain to ask about). */
export const NOT_CHECKED: CheckResult = { result: 'unknown', detail: 'not checked: the address is malformed' };
