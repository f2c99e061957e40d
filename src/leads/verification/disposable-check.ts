import { blacklist } from 'mailchecker';
import { getDomain } from 'tldts';
import type { CheckResult } from './types';

/**
 * The domains a disposable-address service hands out, from the mailchecker package (a maintained
 * list of some 55,000 domains, updated with the package). A domain counts as disposable when it, a
 * parent of it, or its registrable domain (tldts, the public suffix list: `x.mailinator.com` is
 * `mailinator.com`, `a.b.co.uk` is `b.co.uk`) is listed.
 */
export function checkDisposable(domain: string): CheckResult {
  const listed = blacklist();
  const registrable = getDomain(domain, { allowPrivateDomains: true });
  for (let d: string = domain; d.includes('.'); d = d.slice(d.indexOf('.') + 1)) {
    if (listed.has(d)) return hit(d);
    if (d === registrable) break;
  }
  if (registrable !== null && listed.has(registrable)) return hit(registrable);
  return { result: 'pass', detail: 'not a disposable domain' };
}

const hit = (listedDomain: string): CheckResult => ({ result: 'warn', detail: `disposable domain (${listedDomain})` });
