import { Type } from '@sinclair/typebox';
import { SEQUENCE_LIMITS, STEP_MODES, VARIANT_IDS, WINNER_METRICS } from '../../../campaigns/model/sequence';
import { StringEnum } from '../string-enum';
import { CasedObject, type Casing } from './casing';
import { Count, Nullable } from './schemas';

/**
 * A campaign's sequence in both surfaces' casings: what a create request may give (`sequence`, an
 * array of steps) and what a campaign shows (`sequence`, the steps in use with where they came
 * from), plus the tracking choice. What JSON Schema cannot say (the first step's delay and subject,
 * the templates themselves) is checked by src/campaigns/sequences/validate-sequence.ts.
 */

const Mode = StringEnum(STEP_MODES, { description: 'template: the subject and body you write, with merge variables; ai: the writer writes it following `instructions`.' });
const Subject = Type.String({
  maxLength: SEQUENCE_LIMITS.subject,
  description:
    'A template (merge variables, spintax). Required on the first step of mode template; left out (or null) on a later step, the email replies in the thread of the step before ("Re: ...").',
});
const Body = Type.String({
  maxLength: SEQUENCE_LIMITS.body,
  description:
    'Plain text with Liquid merge variables ({{ first_name }}, {{ company }}, {{ custom.<field> }}, {{ sender.name }}, fallbacks {{ first_name | default: "there" }}, conditions) and spintax ({Hi|Hello}). Blank lines separate paragraphs; URLs you write become links of the HTML part.',
});
const Instructions = Type.String({ maxLength: SEQUENCE_LIMITS.instructions, description: 'What the writer should write in this step (mode ai).' });
const Weight = Type.Number({ minimum: 0, maximum: SEQUENCE_LIMITS.weight, description: 'Share of the leads that get this variant, relative to the others (default 1; 0 never sends it).' });

function VariantBody<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    { weight: Type.Optional(Weight), mode: Mode, subject: Type.Optional(Nullable(Subject)), body: Type.Optional(Body), instructions: Type.Optional(Instructions) },
    { additionalProperties: false },
  );
}

function AutoWinnerBody<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      metric: StringEnum(WINNER_METRICS, { description: 'reply_rate: replies per delivered email; positive_reply_rate: replies qualified interested, meeting_booked or closed.' }),
      min_sends: Type.Optional(Type.Integer({ minimum: 10, maximum: 1_000_000, description: 'Emails sent per variant before any comparison (default 100).' })),
      confidence: Type.Optional(Type.Number({ minimum: 0.5, maximum: 0.999, description: 'Confidence of the two-proportion test (default 0.95).' })),
    },
    {
      additionalProperties: false,
      description: 'Once reached, the best variant takes every later send of the step; the decision is shown by GET and sent as campaign.variant_winner.',
    },
  );
}

function StepBody<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      delay_days: Type.Integer({ minimum: 0, maximum: SEQUENCE_LIMITS.delayDays, description: 'Days after the previous step went out: 0 for the first step, at least 1 after.' }),
      mode: Type.Optional(Mode),
      subject: Type.Optional(Nullable(Subject)),
      body: Type.Optional(Body),
      instructions: Type.Optional(Instructions),
      variants: Type.Optional(
        Type.Array(VariantBody(casing), {
          minItems: 1,
          maxItems: SEQUENCE_LIMITS.variants,
          description: 'Instead of mode and its content: up to 5 weighted ways to write the step (A, B, C, D, E in order); a lead always gets the same one.',
        }),
      ),
      auto_winner: Type.Optional(AutoWinnerBody(casing)),
    },
    { additionalProperties: false },
  );
}

/** A create request's `sequence`: the steps, in order. */
export function SequenceBody<C extends Casing>(casing: C) {
  return Type.Array(StepBody(casing), {
    minItems: 1,
    maxItems: SEQUENCE_LIMITS.steps,
    description: 'The emails each lead gets, up to 10 steps. Without it, the template (`mcp`) supplies its steps, written by the writer.',
  });
}

/** A create request's `tracking`. */
export function TrackingBody<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      opens: Type.Optional(Type.Boolean({ description: 'An open beacon in the HTML part (default true).' })),
      clicks: Type.Optional(Type.Boolean({ description: 'Links of the HTML part through signed click redirects (default true).' })),
    },
    { additionalProperties: false },
  );
}

// --- the campaign's sequence as shown ---

function VariantView<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      id: StringEnum(VARIANT_IDS),
      weight: Type.Number({ minimum: 0 }),
      mode: Mode,
      subject: Nullable(Type.String(), 'Null: the writer writes it (first step, mode ai) or the email replies in the thread before.'),
      body: Nullable(Type.String(), 'Mode template; null for mode ai.'),
      instructions: Nullable(Type.String(), 'Mode ai; null for mode template.'),
    },
    { additionalProperties: false },
  );
}

function WinnerView<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      variant: StringEnum(VARIANT_IDS),
      metric: StringEnum(WINNER_METRICS),
      decided_at: Type.String({ format: 'date-time' }),
      p_value: Type.Number({ minimum: 0, maximum: 1 }),
      confidence: Type.Number(),
      variants: Type.Array(
        CasedObject(
          casing,
          { variant: StringEnum(VARIANT_IDS), sent: Count(), delivered: Count(), successes: Count('Replies, or positive replies, as the metric counts them.'), rate: Type.Number({ minimum: 0, maximum: 1 }) },
          { additionalProperties: false },
        ),
        { description: 'The figures the decision was made on.' },
      ),
    },
    { additionalProperties: false },
  );
}

function StepView<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      step: Type.Integer({ minimum: 1 }),
      delay_days: Type.Integer({ minimum: 0 }),
      variants: Type.Array(VariantView(casing)),
      auto_winner: Nullable(
        CasedObject(casing, { metric: StringEnum(WINNER_METRICS), min_sends: Count(), confidence: Type.Number() }, { additionalProperties: false }),
      ),
      winner: Nullable(WinnerView(casing), 'The decided variant test; null while it runs or without one.'),
    },
    { additionalProperties: false },
  );
}

/** The sequence a campaign sends, as GET shows it (the preset's steps too). */
export function SequenceView<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      source: StringEnum(['preset', 'custom'] as const, { description: 'preset: the steps of the template (`mcp`); custom: the steps given at create.' }),
      preset: Nullable(Type.String(), 'The template whose steps these are; null for custom.'),
      version: Type.Integer({ minimum: 1 }),
      steps: Type.Array(StepView(casing)),
    },
    { additionalProperties: false },
  );
}

export function TrackingView<C extends Casing>(casing: C) {
  return CasedObject(casing, { opens: Type.Boolean(), clicks: Type.Boolean() }, { additionalProperties: false });
}
