import { bare, type Facts } from '../facts';
import type { VoiceName } from '../voice';

/** One way to say something; null when the facts it needs are missing. */
export type Phrase = (f: Facts) => string | null;

/** The wording of one outreach template type. Every list ends with a phrase that needs no facts. */
export interface Voice {
  readonly subjects: readonly Phrase[];
  readonly openers: readonly Phrase[];
  /** The value line; they all need `value` (the campaign's value for the target). */
  readonly valueLines: readonly Phrase[];
  readonly asks: readonly Phrase[];
  /** What the sequence is about, as a follow-up refers back to it ("a role at Acme"). */
  readonly topic: (f: Facts) => string | null;
  readonly followUpAsks: readonly Phrase[];
}

export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const v = (f: Facts): string | null => (f.value === null ? null : bare(f.value));
const outcomeAsk: Phrase = (f) => (f.outcome === null ? null : `The next step I'd suggest: ${bare(f.outcome)}.`);

const sales: Voice = {
  subjects: [
    (f) => (f.leadCompany && f.brand ? `${f.leadCompany} + ${f.brand}` : null),
    (f) => (f.leadCompany ? `Quick question for ${f.leadCompany}` : null),
    (f) => (f.firstName ? `${f.firstName}, a quick idea` : null),
    (f) => (f.industry ? `An idea for ${f.industry} teams` : null),
    () => 'A quick idea',
  ],
  openers: [
    (f) => (f.title && f.leadCompany ? `Given your role as ${f.title} at ${f.leadCompany}, I thought this might be worth a minute.` : null),
    (f) => (f.audience && f.leadCompany ? `We work with ${f.audience}, and ${f.leadCompany} looked like a good fit.` : null),
    (f) => (f.leadCompany ? `I came across ${f.leadCompany}${f.city ? ` in ${f.city}` : ''} and wanted to reach out.` : null),
    (f) => (f.audience ? `We work with ${f.audience}, so I thought this might be relevant to you.` : null),
    () => "I'll keep this short.",
  ],
  valueLines: [
    (f) => (v(f) && f.brand ? `${f.brand} in one line: ${v(f)}.` : null),
    (f) => (v(f) && f.leadCompany ? `What it could mean for ${f.leadCompany}: ${v(f)}.` : null),
    (f) => (v(f) ? `The short version: ${v(f)}.` : null),
  ],
  asks: [outcomeAsk, () => 'Would you be open to a 15-minute call to see if it fits?', () => "Is this something you're looking at right now?"],
  topic: (f) => f.brand,
  followUpAsks: [() => 'Would a short call next week be worth it?', () => "If you're not the right person for this, who should I talk to?"],
};

const partnerships: Voice = {
  subjects: [
    (f) => (f.leadCompany && f.brand ? `${f.leadCompany} x ${f.brand}` : null),
    (f) => (f.leadCompany ? `Partnership idea for ${f.leadCompany}` : null),
    (f) => (f.firstName ? `${f.firstName}, a partnership idea` : null),
    () => 'A partnership idea',
  ],
  openers: [
    (f) => (f.leadCompany && f.brand ? `I've been following ${f.leadCompany}, and I think there's a natural fit with what we do at ${f.brand}.` : null),
    (f) => (f.title && f.leadCompany ? `As ${f.title} at ${f.leadCompany}, you're probably the right person to ask about partnerships.` : null),
    (f) => (f.audience ? `We both serve ${f.audience}, which is why I'm writing.` : null),
    () => "I'm reaching out about a possible partnership.",
  ],
  valueLines: [
    (f) => (v(f) ? `What a partnership could bring ${f.leadCompany ?? 'you'}: ${v(f)}.` : null),
    (f) => (v(f) ? `The idea in one line: ${v(f)}.` : null),
  ],
  asks: [
    outcomeAsk,
    () => 'Would you be open to a short call to explore it?',
    (f) => (f.leadCompany ? `Who at ${f.leadCompany} would be the right person to talk to about partnerships?` : null),
  ],
  topic: (f) => (f.brand ? `a partnership with ${f.brand}` : 'a possible partnership'),
  followUpAsks: [() => "Is a partnership something you'd consider this quarter?", () => 'Would a short call to explore it make sense?'],
};

const recruiting: Voice = {
  subjects: [
    (f) => (f.brand ? `A role at ${f.brand}` : null),
    (f) => (f.firstName ? `${f.firstName}, a role you might like` : null),
    (f) => (f.title && f.brand ? `${f.title}? A role at ${f.brand}` : null),
    () => 'An opportunity you might like',
  ],
  openers: [
    (f) => (f.title && f.leadCompany ? `Your work as ${f.title} at ${f.leadCompany} caught my attention.` : null),
    (f) => (f.industry && f.brand ? `Your experience in ${f.industry} is the kind we're looking for at ${f.brand}.` : null),
    (f) => (f.brand ? `We're growing the team at ${f.brand}, and your profile stood out.` : null),
    () => 'Your profile stood out, so I wanted to reach out directly.',
  ],
  valueLines: [
    (f) => (v(f) && f.brand ? `Why people join ${f.brand}: ${v(f)}.` : null),
    (f) => (v(f) ? `What's in it for you: ${v(f)}.` : null),
  ],
  asks: [
    () => 'Would you be open to a confidential chat about it?',
    () => "Even if the timing isn't right, I'd be glad to tell you more. Open to a short call?",
  ],
  topic: (f) => (f.brand ? `a role at ${f.brand}` : 'a role on our team'),
  followUpAsks: [() => 'Would you be open to a quick, no-pressure chat?', () => "If now isn't the time, is there someone you'd recommend?"],
};

const fundraising: Voice = {
  subjects: [
    (f) => (f.brand ? `Intro: ${f.brand}` : null),
    (f) => (f.firstName && f.brand ? `${f.firstName}, a quick intro to ${f.brand}` : null),
    (f) => (f.brand && f.industry ? `${f.brand}, for ${f.industry} investors` : null),
    () => 'A quick intro',
  ],
  openers: [
    (f) => (f.title && f.leadCompany ? `Given your role as ${f.title} at ${f.leadCompany}, I thought ${f.brand ?? 'what we are building'} might interest you.` : null),
    (f) => (f.industry && f.brand ? `I'm reaching out because you know ${f.industry} well, and ${f.brand} is building in that space.` : null),
    (f) => (f.brand ? `I'm reaching out to a few investors about ${f.brand}.` : null),
    () => "I'm reaching out to a small number of investors, and you were near the top of my list.",
  ],
  valueLines: [
    (f) => (v(f) ? `Why it could matter to you: ${v(f)}.` : null),
    (f) => (v(f) ? `The short version: ${v(f)}.` : null),
  ],
  asks: [
    () => 'Would you be open to a short call to see if it fits your thesis?',
    () => "Happy to share more details if it's relevant. Would a short call work?",
  ],
  topic: (f) => (f.brand ? `investing in ${f.brand}` : 'our fundraise'),
  followUpAsks: [() => 'Would you like to see more details?', () => 'Would a 20-minute call be worth it?'],
};

const generic: Voice = {
  subjects: [
    (f) => (f.leadCompany ? `Quick question for ${f.leadCompany}` : null),
    (f) => (f.firstName ? `${f.firstName}, a quick question` : null),
    (f) => (f.brand ? `Hello from ${f.brand}` : null),
    () => 'A quick question',
  ],
  openers: [
    (f) => (f.title && f.leadCompany ? `Given your role as ${f.title} at ${f.leadCompany}, I thought you'd be the right person to ask.` : null),
    (f) => (f.leadCompany ? `I came across ${f.leadCompany} and wanted to reach out.` : null),
    () => "I hope you don't mind a short note.",
  ],
  valueLines: [
    (f) => (v(f) ? `The short version: ${v(f)}.` : null),
    (f) => (v(f) ? `In one line: ${v(f)}.` : null),
  ],
  asks: [outcomeAsk, () => 'Would you be open to a short call?'],
  topic: (f) => f.brand,
  followUpAsks: [() => 'Would a short call be useful?', () => "If you're not the right person for this, who should I talk to?"],
};

export const VOICES: Readonly<Record<VoiceName, Voice>> = { sales, partnerships, recruiting, fundraising, generic };
