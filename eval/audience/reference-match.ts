/**
 * The in-memory reference matcher of the evaluation: the service's own in-memory matcher
 * (src/leads/criteria-match.ts, the semantics of the SQL statement, which a test holds equal to
 * it) over a pool lead's computed profile. The runner compares it with the SQL matcher on every
 * phrase; a disagreement is a bug in one of them, not in the parser.
 */
import { matchesCriteria } from '../../src/leads/criteria-match';
import { keywordText } from '../../src/leads/profile-columns';
import type { LeadCriteria, LeadProfile } from '../../src/leads/profile/types';

export interface MatchableLead {
  readonly profile: LeadProfile;
  /** The title as the pool writes it (keywords are also looked for in it as written). */
  readonly title?: string | null;
  readonly company: string | null;
  readonly industry: string | null;
  readonly email: string | null;
}

export function matches(c: LeadCriteria, lead: MatchableLead): boolean {
  return matchesCriteria(c, {
    profile: lead.profile,
    keywordText: keywordText(lead.profile, { title: lead.title ?? lead.profile.titleNorm, company: lead.company, industry: lead.industry }),
    company: lead.company,
    companyDomain: null,
    email: (lead.email ?? '').toLowerCase(),
    customFields: null,
  });
}
