import { bare, type Facts } from '../facts';
import type { VoiceName } from '../voice';
import { area, companyLabel, possessive } from './lead-lines';

/** One way to say something; null when the facts it needs are missing. */
export type Phrase = (f: Facts) => string | null;

/**
 * No subject starts with the lead's company: a subject that opens with the name of the
 * recipient's domain is what phishing looks like to mail filters when the To has no name
 * (SpamAssassin's PDS_BRAND_SUBJ_NAKED_TO), and a lead without a name gets a bare To.
 *
 * The wording of one kind of campaign. Each list is tried in order of what it needs: the
 * writer uses the phrases whose facts are there, and picks among them by the lead's seed. Every
 * list ends with a phrase that needs only the sender's company (always known for a campaign with a
 * domain), so no email is left without a subject or an ask.
 */
export interface Voice {
  readonly subjects: readonly Phrase[];
  /** Why this lead: their role, company and place. */
  readonly why: readonly Phrase[];
  /** What the sender's company is or does (after the "I'm ..." introduction): the first that can be said. */
  readonly what: readonly Phrase[];
  /** What it means for the lead (the campaign's value): the first that can be said. */
  readonly value: readonly Phrase[];
  /** The one question of the first email. */
  readonly ask: readonly Phrase[];
  /** What the sequence is about, as a follow-up refers back to it ("Stripe for Finlytics"). */
  readonly topic: (f: Facts) => string;
  /** The question of the first follow-up. */
  readonly followUpAsk: readonly Phrase[];
  /** Whose timing the last email leaves alone: the lead's company, or the lead (a candidate, a customer). */
  readonly timingOf?: (f: Facts) => string;
}

export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The campaign's value for the lead, as a clause: no final stop, and none that is a question. */
const value = (f: Facts): string | null => (f.value === null || /\?\s*$/.test(f.value) ? null : bare(f.value));
const brandOf = (f: Facts): string => f.brand ?? 'our company';

/**
 * A title as a sentence says it: a title that names one post stands alone ("Head of Engineering",
 * "CTO", "VP Sales"); a job that many hold takes an article ("a Data Engineer", "an Account Executive").
 */
export function asTitle(title: string, seniority: string | null): string {
  const alone = /^(head|chief|vp|svp|evp|vice|director|founder|co-?founder|ceo|cto|cfo|coo|cmo|cio|cro|cpo|partner|owner|president|managing|general|gesch|directeur|directrice|director|jefe|leiter)/i;
  if (alone.test(title) || seniority === 'c_level' || seniority === 'vp' || seniority === 'head') return title;
  return `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title}`;
}

/** The lead's role as a clause ("you lead engineering", "you're VP Sales", "you're a Data Engineer"), or null. */
export function roleClause(f: Facts): string | null {
  const a = area(f.department);
  const leads = f.seniority === 'c_level' || f.seniority === 'vp' || f.seniority === 'head' || f.seniority === 'director';
  if (a !== null && leads) return `you lead ${a}`;
  if (f.title !== null) return `you're ${asTitle(f.title, f.seniority)}`;
  if (a !== null) return `you work in ${a}`;
  return null;
}

/** " at Finlytics in Berlin", from what is known. */
const place = (f: Facts): string => `${f.leadCompany === null ? '' : ` at ${f.leadCompany}`}${f.city === null ? '' : ` in ${f.city}`}`;

/** The campaign's desired outcome as the first email's question, when it reads as one. */
const outcomeAsk: Phrase = (f) => {
  if (f.outcome === null) return null;
  const o = bare(f.outcome).replace(/^(to|a request for)\s+/i, '');
  if (o === '' || o.includes('?')) return null;
  const when = /\b(today|tomorrow|week|month|quarter|monday|tuesday|wednesday|thursday|friday)\b/i.test(o) ? '' : ' next week';
  const first = o.charAt(0).toLowerCase() + o.slice(1);
  if (/^(a|an|the|one|two|three|\d+)\b/i.test(o)) return `Would you be open to ${first}${when}?`;
  if (/^(book|schedule|set up|have|get|try|join|see|talk|chat|meet|hop on|jump on|run|start|take|explore)\b/i.test(o)) return `Could we ${first}${when}?`;
  return null;
};

/** The scraped description as a sentence introducing the company, when it is one. */
const blurb: Phrase = (f) => {
  if (f.brandBlurb === null || f.brandBlurb.includes('?')) return null;
  return f.brand !== null && f.brandBlurb.toLowerCase().startsWith(f.brand.toLowerCase()) ? `${f.brandBlurb}.` : `${brandOf(f)} in one line: ${f.brandBlurb}.`;
};
const keywordLine: Phrase = (f) => (f.keywords.length > 0 ? `We work on ${list(f.keywords)}.` : null);
/** The campaign's audience when it reads as who "we work with" ("engineering leaders at fintechs in Europe"). */
const audienceLine: Phrase = (f) => {
  const a = f.audience === null ? null : bare(f.audience);
  if (a === null || a.length > 90 || /[,;:()/|?!"]/.test(a) || !/^\p{L}/u.test(a)) return null;
  return `We work with ${/^\p{Lu}\p{Ll}/u.test(a) ? a.charAt(0).toLowerCase() + a.slice(1) : a}.`;
};

const sales: Voice = {
  subjects: [
    (f) => (f.leadCompany && f.brand ? `${f.brand} for ${f.leadCompany}` : null),
    (f) => (f.leadCompany && area(f.department) ? `${area(f.department)!.replace(/^./, (c) => c.toUpperCase())} at ${f.leadCompany}` : null),
    (f) => (f.leadCompany && f.brand ? `${f.brand} and ${f.leadCompany}` : null),
    (f) => (f.industry && f.brand ? `${f.brand} for ${f.industry} teams` : null),
    (f) => (f.firstName ? `${f.firstName}, a note from ${brandOf(f)}` : null),
    (f) => `A note from ${brandOf(f)}`,
  ],
  why: [
    (f) => (roleClause(f) ? `I'm writing to you because ${roleClause(f)!}${place(f)}.` : null),
    (f) => (f.leadCompany ? `I'm writing to you about ${possessive(f.leadCompany)} ${area(f.department) ?? 'team'}${f.city ? ` in ${f.city}` : ''}.` : null),
  ],
  what: [blurb, audienceLine, keywordLine],
  value: [(f) => (value(f) ? `What it could mean for ${companyLabel(f)}: ${lowerFirst(value(f)!)}.` : null)],
  ask: [outcomeAsk, (f) => `Would a 15-minute call next week be worth it to see whether ${brandOf(f)} fits ${companyLabel(f)}?`],
  topic: (f) => (f.leadCompany ? `${brandOf(f)} for ${f.leadCompany}` : brandOf(f)),
  followUpAsk: [(f) => `Is this something ${companyLabel(f)} is looking at this quarter?`, (f) => `Would a short call next week be useful for ${companyLabel(f)}?`],
};

const partnerships: Voice = {
  subjects: [
    (f) => (f.leadCompany && f.brand ? `${f.brand} x ${f.leadCompany}` : null),
    (f) => (f.leadCompany && f.brand ? `${f.brand} and ${f.leadCompany}: a partnership` : null),
    (f) => (f.firstName ? `${f.firstName}, a partnership with ${brandOf(f)}` : null),
    (f) => `A partnership with ${brandOf(f)}`,
  ],
  why: [
    (f) => (roleClause(f) && f.leadCompany ? `I'm writing to you because ${roleClause(f)!}${place(f)}, and I think ${f.leadCompany} and ${brandOf(f)} could do more together.` : null),
    (f) => (f.leadCompany ? `I'm writing because I think ${f.leadCompany} and ${brandOf(f)} could do more together.` : null),
  ],
  what: [blurb, keywordLine, audienceLine],
  value: [(f) => (value(f) ? `What a partnership could bring ${companyLabel(f)}: ${value(f)}.` : null)],
  ask: [outcomeAsk, () => `Would you be open to a 20-minute call to see whether there's a fit?`],
  topic: (f) => (f.leadCompany ? `a partnership between ${f.leadCompany} and ${brandOf(f)}` : `a partnership with ${brandOf(f)}`),
  followUpAsk: [() => `Is a partnership something you'd consider this quarter?`, (f) => `Who at ${companyLabel(f)} would be the right person to talk to about it?`],
};

const recruiting: Voice = {
  subjects: [
    (f) => (f.leadCompany ? `Your work at ${f.leadCompany}` : null),
    (f) => (f.firstName ? `${f.firstName}, a role at ${brandOf(f)}` : null),
    (f) => (f.title ? `${f.title}? A role at ${brandOf(f)}` : null),
    (f) => `A role at ${brandOf(f)}`,
  ],
  why: [
    (f) => (f.title ? `I'm writing because of your work as ${asTitle(f.title, f.seniority)}${place(f)}.` : null),
    (f) => (f.leadCompany ? `I'm writing because of your work at ${f.leadCompany}${f.city ? ` in ${f.city}` : ''}.` : null),
    (f) => (f.industry ? `I'm writing because your experience in ${f.industry} is what we're looking for.` : null),
  ],
  what: [
    (f) => (blurb(f) ? `${blurb(f)!} We're hiring.` : null),
    (f) => (f.title ? `We're hiring, and someone with your experience as ${asTitle(f.title, f.seniority)} is who we hope to find.` : null),
    () => `We're hiring.`,
  ],
  value: [(f) => (value(f) ? `What's in it for you: ${value(f)}.` : null)],
  ask: [() => 'Would you be open to a short, confidential chat next week?'],
  topic: (f) => `a role at ${brandOf(f)}`,
  timingOf: () => 'you',
  followUpAsk: [() => 'Would a short, no-pressure chat work for you?', () => 'If the timing is wrong for you, is there someone you would recommend?'],
};

const fundraising: Voice = {
  subjects: [
    (f) => (f.leadCompany && f.brand ? `${f.brand}, for ${f.leadCompany}` : null),
    (f) => (f.firstName ? `${f.firstName}, an introduction to ${brandOf(f)}` : null),
    (f) => (f.industry ? `${brandOf(f)}: for ${f.industry} investors` : null),
    (f) => `Introducing ${brandOf(f)}`,
  ],
  why: [
    (f) => (f.title && f.leadCompany ? `I'm writing because of your work as ${asTitle(f.title, f.seniority)} at ${f.leadCompany}${f.city ? ` in ${f.city}` : ''}.` : null),
    (f) => (f.leadCompany ? `I'm writing to you at ${f.leadCompany} because ${brandOf(f)} may fit what you invest in.` : null),
  ],
  what: [blurb, keywordLine],
  value: [(f) => (value(f) ? `Why it could matter to ${companyLabel(f)}: ${value(f)}.` : null)],
  ask: [outcomeAsk, () => 'Would you be open to a 20-minute call to see whether it fits your thesis?'],
  topic: (f) => `investing in ${brandOf(f)}`,
  followUpAsk: [() => 'Would it help if I sent our deck?', () => 'Would a 20-minute call in the next two weeks work?'],
};

const feedback: Voice = {
  subjects: [
    (f) => (f.leadCompany ? `How ${brandOf(f)} works for ${f.leadCompany}` : null),
    (f) => (f.firstName ? `${f.firstName}, how is ${brandOf(f)} working for you?` : null),
    (f) => `Your experience with ${brandOf(f)}`,
  ],
  why: [
    (f) => (f.leadCompany && roleClause(f) ? `I'm writing because ${roleClause(f)!}${place(f)}, and your view of ${brandOf(f)} would help us a lot.` : null),
    (f) => (f.leadCompany ? `I'm writing because your team at ${f.leadCompany} uses ${brandOf(f)}, and your view would help us a lot.` : null),
    (f) => `I'm writing because your view of ${brandOf(f)} would help us a lot.`,
  ],
  what: [],
  value: [(f) => (value(f) ? `What we're working on: ${value(f)}.` : null)],
  ask: [() => 'Would you have 15 minutes next week to tell us what works and what does not?'],
  topic: (f) => `your experience with ${brandOf(f)}`,
  timingOf: () => 'you',
  followUpAsk: [() => 'If a call is hard to fit in, could you reply with the one thing you would change?'],
};

export const VOICES: Readonly<Record<VoiceName, Voice>> = { sales, partnerships, recruiting, fundraising, feedback, generic: sales };

function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}
