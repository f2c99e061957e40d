import { brandName } from './brand-name';
import { safeHttpUrl } from './render';
import type { WriteEmailInput } from './types';

/**
 * The input's fields made safe to put in a sentence: trimmed, whitespace collapsed, control
 * characters removed, placeholders for "nothing" ("null", "n/a", "-") turned into null, long
 * values cut at a word boundary. Writers never see undefined or an empty string.
 */
export interface Facts {
  readonly firstName: string | null;
  readonly title: string | null;
  readonly leadCompany: string | null;
  readonly industry: string | null;
  readonly city: string | null;
  /** The lead's department id and seniority level (its profile), when its title told them. */
  readonly department: string | null;
  readonly seniority: string | null;
  /** The company the campaign speaks for: its scraped name, else the name its domain spells. */
  readonly brand: string | null;
  readonly brandBlurb: string | null;
  readonly keywords: readonly string[];
  readonly audience: string | null;
  readonly outcome: string | null;
  readonly value: string | null;
  /** The person writing; null when only the company is known. */
  readonly sender: string | null;
  readonly calendarLink: string | null;
}

const NOTHING = /^(null|undefined|none|n\/?a|-+|\.+|unknown)$/i;

export function clean(value: string | null | undefined, max = 120): string | null {
  if (typeof value !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const v = value.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (v === '' || NOTHING.test(v)) return null;
  if (v.length <= max) return v;
  const cut = v.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '');
}

/** Without a final full stop, exclamation or question mark, so it can end a sentence of ours. */
export function bare(value: string): string {
  return value.replace(/[\s.!?;:,]+$/, '');
}

/** "john" and "JOHN" become "John"; "McKenzie" and "de Wit" stay as typed. An address is not a name. */
function firstNameOf(value: string | null): string | null {
  const v = clean(value, 40);
  if (v === null || v.includes('@') || !/\p{L}/u.test(v)) return null;
  if (v === v.toLowerCase() || (v === v.toUpperCase() && v.length > 1)) return v.charAt(0).toUpperCase() + v.slice(1).toLowerCase();
  return v;
}

/** The first sentence of a scraped description, if it is a reasonable length for an email. */
function blurbOf(description: string | null | undefined): string | null {
  const d = clean(description, 400);
  if (d === null) return null;
  const first = d.split(/(?<=[.!?])\s/)[0] ?? d;
  const b = clean(bare(first), 160);
  return b !== null && b.length >= 12 ? b : null;
}

export function factsOf(input: WriteEmailInput): Facts {
  const { lead, company, campaign } = input;
  const brand = brandName(company?.name, company?.domain ?? campaign.targetUrl ?? null);
  return {
    firstName: firstNameOf(lead.firstName),
    title: clean(lead.title, 60),
    leadCompany: clean(lead.company, 60),
    industry: clean(lead.industry, 50),
    city: clean(lead.city, 40),
    department: clean(lead.department, 40),
    seniority: clean(lead.seniority, 20),
    brand,
    brandBlurb: blurbOf(company?.description),
    keywords: (company?.industryKeywords ?? []).map((k) => clean(k, 30)).filter((k): k is string => k !== null).slice(0, 3),
    audience: clean(campaign.targetAudience, 100),
    outcome: clean(campaign.targetOutcome, 120),
    value: clean(campaign.valueForTarget, 200),
    sender: clean(campaign.senderName, 60),
    calendarLink: safeHttpUrl(campaign.calendarLink),
  };
}
