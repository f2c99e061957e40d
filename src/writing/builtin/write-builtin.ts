import { factsOf, type Facts } from '../facts';
import { normalizeText, textToHtml } from '../render';
import { replySubject } from '../subject';
import type { WriteEmailInput, WrittenEmail } from '../types';
import { seededPick, type Pick } from '../variants';
import { voiceOf } from '../voice';
import { list, VOICES, type Phrase, type Voice } from './voices';

/** One of the phrases that can be said with these facts (the last phrase of each list always can). */
function say(pick: Pick, slot: string, phrases: readonly Phrase[], f: Facts): string | null {
  const usable = phrases.map((p) => p(f)).filter((s): s is string => s !== null);
  return usable.length === 0 ? null : pick(slot, usable);
}

function since(days: number): string {
  if (days <= 1) return 'yesterday';
  if (days <= 4) return 'a few days ago';
  if (days <= 10) return 'last week';
  if (days <= 20) return 'a couple of weeks ago';
  return 'a few weeks ago';
}

function brandIntro(pick: Pick, f: Facts): string | null {
  return say(pick, 'brand', [
    (x) => {
      if (x.brand === null || x.brandBlurb === null) return null;
      // "Acme is the ..." already introduces itself; anything else gets a lead-in.
      return x.brandBlurb.toLowerCase().startsWith(x.brand.toLowerCase()) ? `${x.brandBlurb}.` : `A bit about ${x.brand}: ${x.brandBlurb}.`;
    },
    (x) => (x.brand && x.keywords.length > 0 ? `At ${x.brand} we work on ${list(x.keywords)}.` : null),
  ], f);
}

function calendarLine(pick: Pick, f: Facts, kind: 'ask' | 'breakup'): string | null {
  if (f.calendarLink === null) return null;
  if (kind === 'breakup') return `And if you'd like to talk after all, here's my calendar: ${f.calendarLink}`;
  return pick('calendar', [`You can pick a time that suits you here: ${f.calendarLink}`, `If it's easier, grab a slot here: ${f.calendarLink}`]);
}

function signOff(pick: Pick, f: Facts): string {
  const closing = pick('closing', ['Best,', 'Thanks,', 'Best regards,']);
  const name = f.sender ?? (f.brand ? `The ${f.brand} team` : null);
  return name === null ? closing : `${closing}\n${name}`;
}

function firstEmail(voice: Voice, pick: Pick, f: Facts): string[] {
  const pitch = [brandIntro(pick, f), say(pick, 'value', voice.valueLines, f)].filter((s): s is string => s !== null);
  return [
    say(pick, 'opener', voice.openers, f)!,
    pitch.length > 0 ? pitch.join(' ') : 'I think what we do could be useful to you, and I would like to show you how.',
    [say(pick, 'ask', voice.asks, f)!, calendarLine(pick, f, 'ask')].filter((s) => s !== null).join('\n'),
  ];
}

function followUp(voice: Voice, pick: Pick, f: Facts, days: number): string[] {
  const topic = voice.topic(f);
  const when = since(days);
  const opener = pick('follow-opener', [
    `Just following up on my email from ${when}${topic ? ` about ${topic}` : ''}.`,
    `I wrote to you ${when}${topic ? ` about ${topic}` : ''} and wanted to make sure it didn't get buried.`,
  ]);
  const recap = f.value === null ? null : `To recap in one line: ${f.value.replace(/[\s.!?;:,]+$/, '')}.`;
  return [
    recap === null ? opener : `${opener} ${recap}`,
    [say(pick, 'follow-ask', voice.followUpAsks, f)!, calendarLine(pick, f, 'ask')].filter((s) => s !== null).join('\n'),
  ];
}

function breakup(voice: Voice, pick: Pick, f: Facts): string[] {
  const topic = voice.topic(f);
  return [
    pick('breakup-opener', [
      "I haven't heard back, so I'll assume the timing isn't right and won't write again.",
      `This will be my last note${topic ? ` about ${topic}` : ''}: I don't want to crowd your inbox.`,
    ]),
    [
      pick('breakup-door', [`If ${topic ?? 'this'} becomes relevant later, just reply to this email and I'll pick it up.`, 'If anything changes, a one-line reply is all it takes.']),
      calendarLine(pick, f, 'breakup'),
    ]
      .filter((s) => s !== null)
      .join('\n'),
  ];
}

function subjectFor(voice: Voice, pick: Pick, f: Facts, input: WriteEmailInput): string {
  if (input.step.kind === 'first') return say(pick, 'subject', voice.subjects, f)!;
  const reply = replySubject(input.previousSubject);
  if (reply !== null) return reply;
  // No previous subject to reply to (the registry did not pass one): still say what it is.
  const topic = voice.topic(f);
  if (input.step.kind === 'breakup') return topic ? `Closing the loop on ${topic}` : 'Closing the loop';
  return topic ? `Following up: ${topic}` : 'Following up';
}

/**
 * The built-in writer, used when the account has no LLM key. Deterministic (same input, same
 * email: phrasing is chosen by a hash of the lead's address and the step), no network, no cost.
 * It only says what the input says, and leaves out any sentence whose facts are missing.
 */
export function writeBuiltinEmail(input: WriteEmailInput): WrittenEmail {
  const f = factsOf(input);
  const voice = VOICES[voiceOf(input.mcp)];
  const pick = seededPick(input.lead.email, input.step.index);
  const greeting = `${pick('greeting', ['Hi', 'Hello'])} ${f.firstName ?? 'there'},`;
  const body =
    input.step.kind === 'first' ? firstEmail(voice, pick, f) : input.step.kind === 'follow_up' ? followUp(voice, pick, f, input.step.delayDays) : breakup(voice, pick, f);
  const text = normalizeText([greeting, ...body, signOff(pick, f)].join('\n\n'));
  return {
    subject: subjectFor(voice, pick, f, input),
    text,
    html: textToHtml(text, f.calendarLink === null ? [] : [f.calendarLink]),
    writer: 'builtin',
  };
}
