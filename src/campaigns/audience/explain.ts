/**
 * Why one lead is in or out of an audience: filter by filter, whether the lead met it and with
 * which of its fields ("title 'Leiterin Finanzen' -> finance, head: meets 'finance leaders'").
 *
 * The verdicts are the in-memory matcher's (src/leads/criteria-match.ts, held equal to the SQL
 * statement campaigns run) over the lead's stored profile; what each field was read as comes from
 * reading the lead's raw fields again (readLeadProfile), which is how the stored profile was made.
 * A filter read from text is named by the words it was read from ('finance leaders'); a filter
 * given as such by its member and values ('departments finance').
 */
import { criteriaVerdicts, matchesCriteria, type CriteriaGroup, type MatchableLead } from '../../leads/criteria-match';
import type { LeadForMatching } from '../../leads/lead-for-matching';
import { readLeadProfile } from '../../leads/profile/lead-profile';
import { profileSourceOfRow } from '../../leads/profile-columns';
import { MATCH_NOBODY_KEYWORD, SENIORITIES, type LeadCriteria } from '../../leads/profile/types';
import type { AudienceReading } from './parse-text';
import { sizeText } from './size-phrases';
import type { AudienceFilters } from './types';

/** What a check is about: a group of the matcher, or 'role' for a function and a level read from one phrase. */
export type ExplanationFilter = CriteriaGroup | 'role';

export interface ExplanationCheck {
  readonly filter: ExplanationFilter;
  /** What the audience asks: the words it was read from, or the filter and its values. */
  readonly wanted: string;
  readonly met: boolean;
  /** What of the lead was read for it, field by field ("title 'Leiterin Finanzen' -> finance, head"). */
  readonly lead: string;
  /** The check as one sentence: `<lead>: meets '<wanted>'` or `does not meet`. */
  readonly text: string;
}

export interface LeadExplanation {
  readonly leadId: string;
  /** The audience takes this lead: it meets every filter, no exclusion applies, and it can be written to. */
  readonly inAudience: boolean;
  /** It meets every filter and no exclusion applies (whether or not it can be written to). */
  readonly matchesFilters: boolean;
  /** Why it cannot be written to (bounced, unsubscribed, suppressed), or null. */
  readonly unreachable: 'bounced' | 'unsubscribed' | 'suppressed' | null;
  readonly checks: readonly ExplanationCheck[];
  /** One line: in, or out and the first reason. */
  readonly summary: string;
}

const q = (s: string | null | undefined): string => `'${(s ?? '').trim()}'`;
const list = (xs: readonly string[]): string => xs.join(', ');

/** The levels as words: 'director or above', 'vp, director', 'c_level'. */
function levelsText(levels: readonly string[]): string {
  const sorted = SENIORITIES.filter((s) => levels.includes(s));
  if (sorted.length > 1) {
    const lowest = sorted[sorted.length - 1]!;
    if (sorted.length === SENIORITIES.indexOf(lowest) + 1) return `${lowest} or above`;
  }
  return list(sorted);
}

/** What the audience asks of one group: the phrases read into it, else its filter values. */
function wanted(group: ExplanationFilter, filters: AudienceFilters | null, criteria: LeadCriteria, readings: readonly AudienceReading[]): string {
  if (criteria.keywords.includes(MATCH_NOBODY_KEYWORD)) return 'nobody: the audience names no one';
  const member = { title: 'titles', seniority: 'seniority', department: 'departments', place: 'locations', industry: 'industries', companySize: 'companySizes', keywords: 'keywords' } as const;
  const m = member[group as keyof typeof member];
  const read = m === undefined ? [] : readings.filter((r) => r.member === m).map((r) => r.text);
  if (read.length > 0) return [...new Set(read)].join(', ');
  const f = filters ?? {};
  switch (group) {
    case 'title':
      return `titles ${list(f.titles ?? [])}`;
    case 'seniority':
      return `seniority ${levelsText(criteria.seniorities)}`;
    case 'department':
      return `departments ${list(f.departments ?? criteria.departments)}`;
    case 'place':
      return `locations ${list(f.locations ?? [])}`;
    case 'industry':
      return `industries ${list(f.industries ?? [])}`;
    case 'companySize':
      return `company size ${list(criteria.companySizes.map(sizeText))}`;
    case 'keywords':
      return `keywords ${list(f.keywords ?? [])}`;
    case 'custom':
      return `custom fields ${(criteria.custom ?? []).map((c) => `${c.field} ${list(c.values)}`).join('; ')}`;
    default:
      return 'no exclusion';
  }
}

/** Which exclusion leaves the lead out, as words, or null. */
function exclusionHit(c: LeadCriteria, lead: MatchableLead): string | null {
  const ex = c.exclude;
  const none: LeadCriteria['exclude'] = { titleKeys: [], companies: [], domains: [], emails: [] };
  const parts: [string, Partial<LeadCriteria['exclude']>][] = [
    ['excluded titles', { titleKeys: ex.titleKeys, titleRoles: ex.titleRoles }],
    ['excluded industries', { industryIds: ex.industryIds }],
    ['excluded words', { keywords: ex.keywords }],
    ['excluded companies', { companies: ex.companies }],
    ['excluded domains', { domains: ex.domains }],
    ['excluded addresses', { emails: ex.emails }],
    ['excluded custom fields', { custom: ex.custom }],
  ];
  const bare: LeadCriteria = { titleKeys: [], titleRoles: [], seniorities: [], departments: [], countryCodes: [], cities: [], industryIds: [], companySizes: [], keywords: [], exclude: none, unrecognised: [] };
  for (const [name, part] of parts) {
    if (!matchesCriteria({ ...bare, exclude: { ...none, ...part } }, lead)) return name;
  }
  return null;
}

/** What of the lead one group reads, in words. */
function leadText(group: ExplanationFilter, m: LeadForMatching, lead: MatchableLead, criteria: LeadCriteria): string {
  const p = m.profile;
  const raw = m.raw;
  const from = readLeadProfile(profileSourceOfRow(raw)).from;
  const titleRead = (parts: string[]): string => (raw.title === null || raw.title.trim() === '' ? 'no title' : `title ${q(raw.title)} -> ${parts.filter((x) => x !== '').join(', ') || 'nothing known'}`);
  const seniority = (): string =>
    from.seniority === 'seniority' ? `seniority ${q(raw.seniority_raw)} -> ${p.seniority}` : titleRead([p.seniority ?? 'no level']);
  const department = (): string =>
    from.department === 'department' ? `department ${q(raw.department_raw)} -> ${p.department}` : titleRead([p.department ?? 'no function']);
  switch (group) {
    case 'title':
      return titleRead([p.titleKeys.join(', '), [p.department, p.seniority].filter((x) => x !== null).join(', ')]);
    case 'role':
      return from.seniority === 'title' && from.department === 'title'
        ? titleRead([p.department ?? 'no function', p.seniority ?? 'no level'])
        : `${department()}; ${seniority()}`;
    case 'seniority':
      return seniority();
    case 'department':
      return department();
    case 'place': {
      const parts: string[] = [];
      if (raw.country !== null && raw.country.trim() !== '') parts.push(`country ${q(raw.country)} -> ${p.countryCode ?? 'unknown'}`);
      if (raw.state !== null && raw.state.trim() !== '') parts.push(`state ${q(raw.state)} -> ${p.stateCode ?? 'unknown'}`);
      if (raw.city !== null && raw.city.trim() !== '') {
        const said = [p.cityNorm, from.countryCode === 'city' ? p.countryCode : null, from.stateCode === 'city' ? p.stateCode : null].filter((x) => x !== null);
        parts.push(`city ${q(raw.city)} -> ${said.join(', ')}`);
      }
      return parts.length === 0 ? 'no place' : parts.join('; ');
    }
    case 'industry':
      return raw.industry === null || raw.industry.trim() === '' ? 'no industry' : `industry ${q(raw.industry)} -> ${p.industryId ?? 'unknown'}`;
    case 'companySize':
      return raw.company_size_raw === null || raw.company_size_raw.trim() === '' ? 'no company size' : `company size ${q(raw.company_size_raw)} -> ${p.companySize ?? 'unknown'}`;
    case 'keywords':
      return `title, company and industry ${q([raw.title, raw.company, raw.industry].filter((x) => x !== null && x.trim() !== '').join(' | '))}`;
    case 'custom': {
      const fields = (criteria.custom ?? []).map((c) => `${c.field} ${lead.customFields?.[c.field] === undefined ? '(none)' : q(lead.customFields[c.field])}`);
      return `custom fields ${fields.join('; ')}`;
    }
    default: {
      const hit = exclusionHit(criteria, lead);
      return hit === null ? 'no exclusion applies' : `left out by the ${hit}`;
    }
  }
}

function check(filter: ExplanationFilter, wantedText: string, met: boolean, leadText: string): ExplanationCheck {
  const text = filter === 'exclude' ? leadText : `${leadText}: ${met ? 'meets' : 'does not meet'} ${q(wantedText)}`;
  return { filter, wanted: wantedText, met, lead: leadText, text };
}

/**
 * The explanation of one lead against an audience. `filters` null is all_leads (no filter: only
 * reachability decides); `readings` are the parser's, when the filters were read from text.
 */
export function explainLead(filters: AudienceFilters | null, criteria: LeadCriteria, m: LeadForMatching, readings: readonly AudienceReading[] = []): LeadExplanation {
  const lead: MatchableLead = {
    profile: m.profile,
    keywordText: m.keywordText,
    company: m.row.company,
    companyDomain: m.row.company_domain,
    email: m.row.email,
    customFields: m.row.custom_fields,
  };
  const verdicts = filters === null ? [] : criteriaVerdicts(criteria, lead);
  const checks: ExplanationCheck[] = [];
  const seniority = verdicts.find((v) => v.group === 'seniority');
  const department = verdicts.find((v) => v.group === 'department');
  // A function and a level read from the same words ('finance leaders') are one check.
  const roleWords = seniority !== undefined && department !== undefined ? wanted('seniority', filters, criteria, readings) : null;
  const merged = roleWords !== null && roleWords === wanted('department', filters, criteria, readings);
  for (const v of verdicts) {
    if (merged && v.group === 'department') continue;
    if (merged && v.group === 'seniority') {
      const met = seniority!.met && department!.met;
      checks.push(check('role', roleWords!, met, leadText('role', m, lead, criteria)));
      continue;
    }
    checks.push(check(v.group, wanted(v.group, filters, criteria, readings), v.met, leadText(v.group, m, lead, criteria)));
  }
  const matchesFilters = verdicts.every((v) => v.met);
  const inAudience = matchesFilters && m.unreachable === null;
  const firstMiss = checks.find((c) => !c.met);
  const summary = inAudience
    ? filters === null
      ? 'in: the audience is every reachable lead'
      : 'in: meets every filter'
    : firstMiss !== undefined
      ? `out: ${firstMiss.text}`
      : `out: the lead cannot be written to (${m.unreachable})`;
  return { leadId: m.row.id, inAudience, matchesFilters, unreachable: m.unreachable, checks, summary };
}
