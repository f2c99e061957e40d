/**
 * A sequence as a create request gives it (either surface, already past its JSON schema) to the
 * sequence the campaign stores, or an InvalidInputError (a 400) naming the step, the field and
 * the problem: what the schema cannot say (the first step's delay, content or variants, a subject
 * on the first step, weights that sum to 0) and everything about the templates (syntax, tags,
 * unknown variables, a render that passes a limit for a lead with every value).
 */
import { InvalidInputError } from '../../errors/domain-errors';
import { AUTO_WINNER_DEFAULTS, SEQUENCE_LIMITS, VARIANT_IDS, type AutoWinner, type CampaignSequence, type SequenceStep, type StepMode, type StepVariant, type WinnerMetric } from '../model/sequence';
import { spinChoices } from './choose';
import { compileTemplate, renderTemplate, RenderTimeout, TemplateProblem, type CompiledTemplate } from './compile-template';
import { RENDER_LIMITS } from './liquid-engine';
import { mergeScope, type MergeLead } from './merge-variables';

/** Content of one way to write a step, as requested. */
export interface VariantInput {
  readonly weight?: number;
  readonly mode?: StepMode;
  readonly subject?: string | null;
  readonly body?: string;
  readonly instructions?: string;
}

export interface StepInput extends VariantInput {
  readonly delayDays: number;
  readonly variants?: readonly VariantInput[];
  readonly autoWinner?: { readonly metric: WinnerMetric; readonly minSends?: number; readonly confidence?: number };
}

/** How the request names its fields, for messages: `delay_days` on Surface A, `delayDays` on B. */
export type FieldCasing = 'snake' | 'camel';

const CAMEL: Record<string, string> = { delay_days: 'delayDays', auto_winner: 'autoWinner', min_sends: 'minSends' };

/** A lead with a value for everything, to try each template once at create. */
const SAMPLE_LEAD: MergeLead = {
  email: 'ada.lovelace@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  title: 'Head of Engineering',
  company: 'Analytical Engines Ltd',
  companyDomain: 'example.com',
  industry: 'Software',
  city: 'London',
  state: 'England',
  country: 'United Kingdom',
  linkedinUrl: 'https://www.linkedin.com/in/example',
  phone: '+44 20 7946 0000',
  customFields: null,
};

/** Longest text a template may render to, for the sample lead and for every lead at send time. */
export const MAX_RENDERED_CHARS = 100_000;

/** The steps as stored, or InvalidInputError naming the first problem. */
export function validateSequence(steps: readonly StepInput[], casing: FieldCasing): CampaignSequence {
  const name = (snake: string): string => (casing === 'camel' ? (CAMEL[snake] ?? snake) : snake);
  if (steps.length === 0) throw new InvalidInputError('sequence must have at least one step');
  if (steps.length > SEQUENCE_LIMITS.steps) throw new InvalidInputError(`sequence has ${steps.length} steps; at most ${SEQUENCE_LIMITS.steps} are allowed`);
  return { source: 'custom', preset: null, steps: steps.map((s, i) => validateStep(s, i, name)) };
}

function validateStep(s: StepInput, i: number, name: (snake: string) => string): SequenceStep {
  const at = `sequence[${i}] (step ${i + 1})`;
  if (i === 0 && s.delayDays !== 0) throw new InvalidInputError(`${at}: ${name('delay_days')} must be 0: the first step goes out when the lead is taken`);
  if (i > 0 && s.delayDays < 1) throw new InvalidInputError(`${at}: ${name('delay_days')} must be at least 1: a follow-up waits for a later sending day`);
  const inline = s.mode !== undefined || s.subject !== undefined || s.body !== undefined || s.instructions !== undefined || s.weight !== undefined;
  let variants: StepVariant[];
  if (s.variants !== undefined) {
    if (inline) throw new InvalidInputError(`${at}: give either mode with its content or variants, not both`);
    if (s.variants.length === 0 || s.variants.length > SEQUENCE_LIMITS.variants) {
      throw new InvalidInputError(`${at}: variants must have 1 to ${SEQUENCE_LIMITS.variants} entries, not ${s.variants.length}`);
    }
    variants = s.variants.map((v, k) => validateVariant(v, i, VARIANT_IDS[k]!, `${at} variants[${k}] (variant ${VARIANT_IDS[k]!})`));
    if (variants.reduce((sum, v) => sum + v.weight, 0) <= 0) throw new InvalidInputError(`${at}: the variants' weights sum to 0; give at least one a positive weight`);
  } else {
    if (!inline) throw new InvalidInputError(`${at}: needs a mode ("template" with subject and body, or "ai" with instructions) or variants`);
    variants = [validateVariant(s, i, 'A', at)];
  }
  let autoWinner: AutoWinner | null = null;
  if (s.autoWinner !== undefined) {
    if (variants.length < 2) throw new InvalidInputError(`${at}: ${name('auto_winner')} needs at least two variants to compare`);
    autoWinner = {
      metric: s.autoWinner.metric,
      minSends: s.autoWinner.minSends ?? AUTO_WINNER_DEFAULTS.minSends,
      confidence: s.autoWinner.confidence ?? AUTO_WINNER_DEFAULTS.confidence,
    };
  }
  return { delayDays: s.delayDays, variants, autoWinner };
}

const blank = (v: string | null | undefined): boolean => v === undefined || v === null || v.trim() === '';

function validateVariant(v: VariantInput, step: number, id: StepVariant['id'], at: string): StepVariant {
  if (v.mode === undefined) throw new InvalidInputError(`${at}: mode is required ("template" or "ai")`);
  const weight = v.weight ?? 1;
  if (v.mode === 'template') {
    if (v.instructions !== undefined) throw new InvalidInputError(`${at}: instructions belong to mode "ai"; a template step has subject and body`);
    if (blank(v.body)) throw new InvalidInputError(`${at}: body is required for mode "template"`);
    if (step === 0 && blank(v.subject)) throw new InvalidInputError(`${at}: subject is required on the first step (a later step without one replies in the thread)`);
  } else {
    if (v.body !== undefined) throw new InvalidInputError(`${at}: body belongs to mode "template"; an ai step has instructions`);
    if (blank(v.instructions)) throw new InvalidInputError(`${at}: instructions are required for mode "ai"`);
  }
  if (v.subject !== undefined && v.subject !== null && v.subject.trim() === '') throw new InvalidInputError(`${at}: subject must not be blank (leave it out to reply in the thread)`);
  const subject = blank(v.subject) ? null : (v.subject as string);
  const body = v.mode === 'template' ? (v.body as string) : null;
  if (subject !== null) tryTemplate(subject, `${at} subject`);
  if (body !== null) tryTemplate(body, `${at} body`);
  return { id, weight, mode: v.mode, subject, body, instructions: v.mode === 'ai' ? (v.instructions as string).trim() : null };
}

/** Compiles the template and renders it once for a lead with every value; a problem is a 400 naming `field`. */
function tryTemplate(source: string, field: string): CompiledTemplate {
  let compiled: CompiledTemplate;
  try {
    compiled = compileTemplate(source);
  } catch (err) {
    if (err instanceof TemplateProblem) throw new InvalidInputError(`${field}: ${err.message}`);
    throw err;
  }
  let outcome;
  try {
    outcome = renderTemplate(compiled, sampleScope(compiled), spinChoices(compiled.spinOptions, SAMPLE_LEAD.email, 0, 'sample'));
  } catch (err) {
    if (err instanceof RenderTimeout) throw new InvalidInputError(`${field}: the template takes more than ${RENDER_LIMITS.renderMs / 1000} s to render`);
    throw err;
  }
  if ('failed' in outcome) throw new InvalidInputError(`${field}: the template cannot be rendered within the limits (${outcome.failed})`);
  if ('text' in outcome && outcome.text.length > MAX_RENDERED_CHARS) throw new InvalidInputError(`${field}: renders to more than ${MAX_RENDERED_CHARS} characters`);
  return compiled;
}

/** The sample lead's scope, with a value for each custom field the template names. */
function sampleScope(t: CompiledTemplate): Record<string, unknown> {
  const customFields: Record<string, string> = {};
  for (const m of t.source.matchAll(/custom\s*(?:\.\s*([a-z][a-z0-9_]*)|\[\s*["']([^"']+)["']\s*\])/g)) customFields[m[1] ?? m[2]!] = 'sample';
  return mergeScope({ ...SAMPLE_LEAD, customFields }, { name: 'Grace Hopper', email: 'grace@example.com', company: 'Example' }, 'https://cal.example.com/grace');
}
