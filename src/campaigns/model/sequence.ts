/**
 * A campaign's sequence: the steps its leads receive, each with one or more weighted variants
 * written by the user (a template with merge variables) or by the writer (AI, following
 * instructions). Pure types and rules, shared by the API (which validates and stores a sequence),
 * the sending batch (which renders it) and the workflow (which only needs the timing: SequencePlan).
 *
 * A sequence is stored with the campaign when it is created (`campaign_sequences`, by version) and
 * the workflow's input carries its plan: a preset changed later, or a preset removed, never changes
 * a campaign that is already running.
 */
import type { OutreachTemplate, StepKind } from './templates';

export const SEQUENCE_LIMITS = {
  steps: 10,
  variants: 5,
  /** Characters of a subject template. */
  subject: 300,
  /** Characters of a body template: a long email is 3,000; the rest is room for conditions. */
  body: 20_000,
  /** Characters of an AI step's instructions. */
  instructions: 4_000,
  delayDays: 365,
  /** A variant's weight: relative to the step's other variants. */
  weight: 1_000,
} as const;

export type StepMode = 'template' | 'ai';
export const STEP_MODES: readonly StepMode[] = ['template', 'ai'];

/** Variants are named by their position: A, B, C, D, E. */
export const VARIANT_IDS = ['A', 'B', 'C', 'D', 'E'] as const;
export type VariantId = (typeof VARIANT_IDS)[number];

/**
 * One way to write a step. `template`: `subject` (null on a later step: the email replies in the
 * thread of the step before, "Re: ...") and `body`, with merge variables. `ai`: `instructions` the
 * writer follows; `subject`, when given, is a template like a template step's (otherwise the writer
 * writes the first step's subject and later steps reply in the thread).
 */
export interface StepVariant {
  readonly id: VariantId;
  readonly weight: number;
  readonly mode: StepMode;
  readonly subject: string | null;
  readonly body: string | null;
  readonly instructions: string | null;
}

export const WINNER_METRICS = ['reply_rate', 'positive_reply_rate'] as const;
export type WinnerMetric = (typeof WINNER_METRICS)[number];

/** When a step's best variant takes all later sends (see src/campaigns/sequences/auto-winner.ts). */
export interface AutoWinner {
  readonly metric: WinnerMetric;
  /** Emails sent per variant before any comparison. */
  readonly minSends: number;
  /** 1 - the chance of declaring a winner between variants that perform the same. */
  readonly confidence: number;
}

export const AUTO_WINNER_DEFAULTS = { minSends: 100, confidence: 0.95 } as const;

export interface SequenceStep {
  /** Calendar days after the previous step went out (0 for the first step). */
  readonly delayDays: number;
  readonly variants: readonly StepVariant[];
  readonly autoWinner: AutoWinner | null;
}

/** `preset`: the steps of the campaign's template (`mcp`); `custom`: the steps the user wrote. */
export type SequenceSource = 'preset' | 'custom';

export interface CampaignSequence {
  readonly source: SequenceSource;
  /** The template whose steps these are (source preset), else null. */
  readonly preset: string | null;
  readonly steps: readonly SequenceStep[];
}

/**
 * What the workflow needs of a sequence: when each step is due and which steps have a variant test
 * to decide. The content stays in the database under `version`, read by the sending batch.
 */
export interface SequencePlan {
  readonly version: number;
  readonly steps: ReadonlyArray<{ readonly delayDays: number; readonly kind: StepKind }>;
  /** Indexes of steps with an auto-winner test. */
  readonly autoWinnerSteps: readonly number[];
}

/** A variant's subject decides its threading: none on a later step replies in the thread before it. */
export function startsThread(stepIndex: number, variant: Pick<StepVariant, 'subject'>): boolean {
  return stepIndex === 0 || variant.subject !== null;
}

/**
 * The role a step plays, for the built-in writer and the workflow's record of it: the first email;
 * the last one when its instructions say so (a break-up: "last", "final", "break-up", "close the
 * loop"); otherwise a follow-up.
 */
export function stepKind(stepIndex: number, variant: Pick<StepVariant, 'instructions'>): StepKind {
  if (stepIndex === 0) return 'first';
  const text = variant.instructions ?? '';
  return /\b(last|final|break-?up|close the loop|closing the loop)\b/i.test(text) ? 'breakup' : 'follow_up';
}

export function planOf(sequence: CampaignSequence, version: number): SequencePlan {
  return {
    version,
    steps: sequence.steps.map((s, i) => ({ delayDays: s.delayDays, kind: stepKind(i, s.variants[0]!) })),
    autoWinnerSteps: sequence.steps.flatMap((s, i) => (s.autoWinner !== null && s.variants.length > 1 ? [i] : [])),
  };
}

const aiVariant = (instructions: string): StepVariant => ({ id: 'A', weight: 1, mode: 'ai', subject: null, body: null, instructions });

/** The sequence a template supplies: its steps, each written by the writer from the step's instructions. */
export function presetSequence(template: OutreachTemplate): CampaignSequence {
  return {
    source: 'preset',
    preset: template.name,
    steps: template.steps.map((s) => ({ delayDays: s.delayDays, variants: [aiVariant(s.instructions)], autoWinner: null })),
  };
}
