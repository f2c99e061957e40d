/**
 * One step of a sequence for one lead, as far as the templates take it: the variant the lead
 * gets, its subject (its own, rendered, or "Re: ..." of the thread it replies in), and, for a
 * template step, its body. An ai step leaves the body (and a first step without a subject
 * template, the subject) to the writer. A step that cannot be written for this lead is `omitted`
 * with the reason: a variable the lead has no value for (and the template no default), a thread
 * to reply in that never started, a template that renders empty or past a limit. An email never
 * goes out with a blank where a value should be.
 */
import type { VariantId } from '../model/sequence';
import { replySubject } from '../../writing/subject';
import { normalizeText } from '../../writing/render';
import { chooseVariant, spinChoices } from './choose';
import { renderTemplate, type CompiledTemplate } from './compile-template';
import type { CompiledStep, CompiledVariant } from './compiled-sequence';
import { mergeScope, type MergeLead, type MergeSender } from './merge-variables';
import { MAX_RENDERED_CHARS } from './validate-sequence';

/** The thread a step without its own subject replies in. */
export interface ThreadSoFar {
  /** The subject of the thread's first email; null when no email of the thread went out. */
  readonly subject: string | null;
  /** Message-IDs of the thread's emails, oldest first (In-Reply-To is the last, References all). */
  readonly messageIds: readonly string[];
}

export interface DraftInput {
  readonly step: CompiledStep;
  readonly stepIndex: number;
  /** What the variant and spintax choices hash: the lead's id (its address for unsaved fields). */
  readonly leadKey: string;
  readonly lead: MergeLead;
  readonly sender: MergeSender;
  readonly calendarLink: string | null;
  /** The step's decided winner, which then takes every send. */
  readonly winner: VariantId | null;
  readonly thread: ThreadSoFar;
}

export type StepDraft =
  | { readonly omitted: string; readonly variant: CompiledVariant }
  | {
      readonly variant: CompiledVariant;
      /** Replies in `thread` (In-Reply-To, References) rather than opening a thread. */
      readonly inThread: boolean;
      /** Null: the writer writes it (an ai step opening a thread with no subject template). */
      readonly subject: string | null;
      /** Null: the writer writes it (an ai step). */
      readonly text: string | null;
      /** URLs written in the body template: links of the HTML part. */
      readonly links: readonly string[];
    };

type Rendered = { readonly text: string } | { readonly omitted: string };

function render(t: CompiledTemplate, scope: Record<string, unknown>, input: DraftInput, slot: string, what: string): Rendered {
  const out = renderTemplate(t, scope, spinChoices(t.spinOptions, input.leadKey, input.stepIndex, slot));
  if ('missing' in out) return { omitted: `no value for ${out.missing} in the ${what} (give the template a default: {{ ${out.missing} | default: "..." }})` };
  if ('failed' in out) return { omitted: `the ${what} could not be rendered: ${out.failed}` };
  if (out.text.length > MAX_RENDERED_CHARS) return { omitted: `the ${what} renders to more than ${MAX_RENDERED_CHARS} characters` };
  return out;
}

export function draftStep(input: DraftInput): StepDraft {
  const variant = chooseVariant(input.step.variants, input.leadKey, input.stepIndex, input.winner);
  const scope = mergeScope(input.lead, input.sender, input.calendarLink);
  const slot = (part: string): string => `${variant.id}:${part}`;

  let subject: string | null = null;
  const inThread = !variant.startsThread;
  if (inThread) {
    subject = replySubject(input.thread.subject);
    if (subject === null) return { omitted: 'it replies in the thread of an earlier step, and no email of that thread was sent to this lead', variant };
  } else if (variant.subjectTemplate !== null) {
    const r = render(variant.subjectTemplate, scope, input, slot('subject'), 'subject');
    if ('omitted' in r) return { omitted: r.omitted, variant };
    subject = r.text.replace(/\s+/g, ' ').trim();
    if (subject === '') return { omitted: 'the subject renders empty for this lead', variant };
  }

  let text: string | null = null;
  if (variant.bodyTemplate !== null) {
    const r = render(variant.bodyTemplate, scope, input, slot('body'), 'body');
    if ('omitted' in r) return { omitted: r.omitted, variant };
    text = normalizeText(r.text);
    if (text === '') return { omitted: 'the body renders empty for this lead', variant };
  }
  return { variant, inThread, subject, text, links: variant.bodyTemplate?.links ?? [] };
}
