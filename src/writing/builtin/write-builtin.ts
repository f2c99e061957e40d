import { factsOf, type Facts } from '../facts';
import { normalizeText, textToHtml } from '../render';
import { replySubject } from '../subject';
import type { WriteEmailInput, WrittenEmail } from '../types';
import { seededPick, type Pick } from '../variants';
import { voiceOf } from '../voice';
import { companyLabel } from './lead-lines';
import { VOICES, type Phrase, type Voice } from './voices';

/** One of the phrases that can be said with these facts, or null when none can. */
function say(pick: Pick, slot: string, phrases: readonly Phrase[], f: Facts): string | null {
  const usable = phrases.map((p) => p(f)).filter((s): s is string => s !== null);
  return usable.length === 0 ? null : pick(slot, usable);
}

/** The first usable phrase (the lists are ordered from the most specific). */
function first(phrases: readonly Phrase[], f: Facts): string | null {
  for (const p of phrases) {
    const s = p(f);
    if (s !== null) return s;
  }
  return null;
}

function since(days: number): string {
  if (days <= 1) return 'yesterday';
  if (days <= 4) return 'a few days ago';
  if (days <= 10) return 'last week';
  if (days <= 20) return 'a couple of weeks ago';
  return 'a few weeks ago';
}

/** The writer's first name when a person writes, else null. */
function senderFirstName(f: Facts): string | null {
  return f.sender === null ? null : (f.sender.split(/\s+/)[0] ?? null);
}

/** "I'm Grace from Stripe." / "I'm Grace." / "We're the team at Stripe."; null when neither is known. */
function introduction(f: Facts): string | null {
  const me = senderFirstName(f);
  if (me !== null && f.brand !== null) return `I'm ${me} from ${f.brand}.`;
  if (me !== null) return `I'm ${me}.`;
  return f.brand === null ? null : `We're the team at ${f.brand}.`;
}

function calendarLine(f: Facts, kind: 'ask' | 'breakup'): string | null {
  if (f.calendarLink === null) return null;
  return kind === 'breakup' ? `If you'd like to talk after all, here's my calendar: ${f.calendarLink}` : `If so, you can pick a time here: ${f.calendarLink}`;
}

function signOff(pick: Pick, f: Facts): string {
  const closing = pick('closing', ['Best,', 'Thanks,', 'Best regards,']);
  const name = senderFirstName(f) ?? (f.brand === null ? null : `The ${f.brand} team`);
  return name === null ? closing : `${closing}\n${name}`;
}

const joinLines = (...lines: Array<string | null>): string => lines.filter((l): l is string => l !== null).join('\n');

/** The first email: why this lead, who writes and what they offer, one question. */
function firstEmail(voice: Voice, pick: Pick, f: Facts): string[] {
  const why = first(voice.why, f);
  const offer = [introduction(f), first(voice.what, f), first(voice.value, f)].filter((s): s is string => s !== null).join(' ');
  return [...(why === null ? [] : [why]), ...(offer === '' ? [] : [offer]), joinLines(say(pick, 'ask', voice.ask, f), calendarLine(f, 'ask'))];
}

/** A follow-up: what the first email was about, one more reason, one easy question. */
function followUp(voice: Voice, pick: Pick, f: Facts, days: number, number: number): string[] {
  const topic = voice.topic(f);
  if (number >= 2) {
    return [
      `If a call is too much, I can send a short written summary of ${topic} instead, so you can judge it in two minutes.`,
      pick('offer-ask', ['Would that be useful?', 'Shall I send it over?']),
    ];
  }
  const opener = `I wrote to you ${since(days)} about ${topic}.`;
  const again = first(voice.value, f) ?? first(voice.what, f);
  return [again === null ? opener : `${opener} ${again}`, joinLines(say(pick, 'follow-ask', voice.followUpAsk, f), calendarLine(f, 'ask'))];
}

/** The last email: no pressure, the door left open. */
function breakup(voice: Voice, pick: Pick, f: Facts): string[] {
  return [
    `I haven't heard back, so I'll assume the timing isn't right for ${voice.timingOf?.(f) ?? companyLabel(f)}, and I won't write again.`,
    joinLines(pick('door', ['If that changes, a one-line reply is all it takes.', 'If the timing changes, just reply to this email and I will pick it up.']), calendarLine(f, 'breakup')),
  ];
}

function subjectFor(voice: Voice, pick: Pick, f: Facts, input: WriteEmailInput): string {
  if (input.subject !== undefined && input.subject !== null && input.subject.trim() !== '') return input.subject.trim();
  if (input.step.kind === 'first') return say(pick, 'subject', voice.subjects, f) ?? `A note from ${f.brand ?? 'us'}`;
  return replySubject(input.previousSubject) ?? voice.topic(f).replace(/^./, (c) => c.toUpperCase());
}

/**
 * The built-in writer, used when the account has no LLM key. Deterministic (same input, same
 * email: phrasing is chosen by a hash of the lead's address and the step), no network, no cost.
 * It says only what the input says, and leaves out any sentence whose facts are missing: the first
 * email says why this lead (role, company, place), who writes and what they offer (the scraped
 * site, the campaign's value, or at least the company's name), and asks one question; follow-ups
 * refer back to it and ask one easy question; the last email closes without pressure.
 */
export function writeBuiltinEmail(input: WriteEmailInput): WrittenEmail {
  const f = factsOf(input);
  const voice = VOICES[voiceOf(input.mcp)];
  const pick = seededPick(input.lead.email, input.step.index);
  const greeting = `${pick('greeting', ['Hi', 'Hello'])} ${f.firstName ?? 'there'},`;
  const { kind, delayDays, index } = input.step;
  const body = kind === 'first' ? firstEmail(voice, pick, f) : kind === 'follow_up' ? followUp(voice, pick, f, delayDays, Math.max(1, index)) : breakup(voice, pick, f);
  const text = normalizeText([greeting, ...body, signOff(pick, f)].join('\n\n'));
  return {
    subject: subjectFor(voice, pick, f, input),
    text,
    html: textToHtml(text, f.calendarLink === null ? [] : [f.calendarLink]),
    writer: 'builtin',
  };
}
