import { checkDisposable } from './disposable-check';
import type { MailDomainChecker } from './mail-domain-check';
import { checkRole } from './role-check';
import { checkSyntax, type ParsedAddress } from './syntax-check';
import { NOT_CHECKED, type AddressVerification, type CheckResult } from './types';
import { verdictOf } from './verdict';

/** The checks that need no network, and the domain the mail-domain check must ask about (null for a malformed address). */
export function checkOffline(
  email: string,
  disposableOf: (domain: string) => CheckResult = checkDisposable,
): { readonly syntax: CheckResult; readonly role: CheckResult; readonly disposable: CheckResult; readonly address: ParsedAddress | null } {
  const { check: syntax, address } = checkSyntax(email);
  if (address === null) return { syntax, role: NOT_CHECKED, disposable: NOT_CHECKED, address };
  return { syntax, role: checkRole(address.local), disposable: disposableOf(address.domain), address };
}

/** Addresses checked between two turns of the event loop: parsing is CPU work, and an import of 50,000 must not stall other requests. */
const OFFLINE_SLICE = 500;

/** checkOffline for each address, a slice at a time, the disposable check once per domain. */
async function checkAllOffline(emails: readonly string[]): Promise<Array<ReturnType<typeof checkOffline>>> {
  const disposable = new Map<string, CheckResult>();
  const disposableOf = (domain: string): CheckResult => {
    let r = disposable.get(domain);
    if (r === undefined) disposable.set(domain, (r = checkDisposable(domain)));
    return r;
  };
  const out: Array<ReturnType<typeof checkOffline>> = [];
  for (let i = 0; i < emails.length; i += OFFLINE_SLICE) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const email of emails.slice(i, i + OFFLINE_SLICE)) out.push(checkOffline(email, disposableOf));
  }
  return out;
}

export interface VerifyOptions {
  /** Ask DNS again rather than answer from the cache. */
  readonly fresh?: boolean;
}

/**
 * Verifies many addresses: syntax, role and disposable for each, and the mail domain of each
 * distinct domain once (a disposable domain is still asked about: a dead one makes the lead
 * invalid, not merely risky). Results in input order.
 */
export async function verifyAddresses(mailDomains: MailDomainChecker, emails: readonly string[], opts: VerifyOptions = {}): Promise<AddressVerification[]> {
  const offline = await checkAllOffline(emails);
  const domains = await mailDomains.checkMany(
    offline.flatMap((o) => (o.address === null ? [] : [o.address.domain])),
    opts.fresh,
  );
  return offline.map(({ syntax, role, disposable, address }) => {
    const mailDomain = address === null ? NOT_CHECKED : domains.get(address.domain)!;
    const checks = { syntax, role, disposable, mailDomain };
    return { status: verdictOf(checks), checks };
  });
}
