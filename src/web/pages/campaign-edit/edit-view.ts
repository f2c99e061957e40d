/**
 * The edit form's fields (as the campaign has them, or as the user typed them before a refusal)
 * arranged as the template draws them: the weekday rows, and the sequence's steps with their
 * variants. Every value stays the text it was; the template escapes it.
 */
import { WEEKDAY_NAMES } from '../../../campaigns/model/schedule';
import { SEQUENCE_LIMITS } from '../../../campaigns/model/sequence';
import { SEND_FREQUENCIES } from '../../../campaigns/model/status';
import { EVERY_MAILBOX, LEAD_CONTROL_BOXES, mailboxField, ONLY_MAILBOXES, stepField, TICKED, variantField, type FormValues } from './form-values';
import type { MailboxChoice } from './mailbox-choices';

const WEEKDAY_LABELS: Readonly<Record<(typeof WEEKDAY_NAMES)[number], string>> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const LEAD_CONTROL_LABELS: Readonly<Record<(typeof LEAD_CONTROL_BOXES)[number], string>> = {
  allow_duplicate_leads: 'Take leads already in an active sequence of another campaign',
  stop_company_on_reply: 'Stop the other leads of a company when one replies positively or books a meeting',
  skip_risky_leads: 'Skip leads whose address verification is risky',
};

const FREQUENCY_LABELS: Readonly<Record<string, string>> = { daily: 'Every day', weekdays: 'Monday to Friday', weekly: 'Once a week' };

export interface VariantView {
  readonly letter: string;
  readonly mode: string;
  /** Field names, also the inputs' ids. */
  readonly names: { readonly mode: string; readonly subject: string; readonly body: string; readonly instructions: string };
  readonly subject: string;
  readonly body: string;
  readonly instructions: string;
}

export interface StepView {
  readonly step: number;
  /** The blank "add a step". */
  readonly extra: boolean;
  readonly delayName: string;
  readonly delay: string;
  readonly variants: readonly VariantView[];
}

function stepsOf(v: FormValues): StepView[] {
  const shown = Math.min(Math.max(Number.parseInt(v.steps ?? '0', 10) || 0, 0), SEQUENCE_LIMITS.steps);
  const last = Math.min(shown + 1, SEQUENCE_LIMITS.steps);
  const steps: StepView[] = [];
  for (let step = 1; step <= last; step++) {
    const variants: VariantView[] = [];
    for (let k = 0; k < SEQUENCE_LIMITS.variants && v[variantField(step, k, 'mode')] !== undefined; k++) {
      const names = { mode: variantField(step, k, 'mode'), subject: variantField(step, k, 'subject'), body: variantField(step, k, 'body'), instructions: variantField(step, k, 'instructions') };
      variants.push({ letter: String.fromCharCode(65 + k), mode: v[names.mode] ?? 'template', names, subject: v[names.subject] ?? '', body: v[names.body] ?? '', instructions: v[names.instructions] ?? '' });
    }
    if (variants.length > 0) steps.push({ step, extra: step > shown, delayName: stepField(step, 'delay'), delay: v[stepField(step, 'delay')] ?? '', variants });
  }
  return steps;
}

/**
 * The mailboxes fieldset: a box per choice (ticked as the values say), the radio's two values, and
 * whether there is anything to offer at all. A deactivated member of the set is one of the choices
 * (mailboxChoices), drawn ticked and marked, so a form saved untouched keeps it.
 */
function mailboxesOf(v: FormValues, choices: readonly MailboxChoice[]) {
  return {
    offered: choices.length > 0,
    every: v.mailboxes !== ONLY_MAILBOXES,
    values: { every: EVERY_MAILBOX, only: ONLY_MAILBOXES },
    someActive: choices.some((c) => c.active),
    boxes: choices.map((c) => ({ field: mailboxField(c.id), address: c.address, name: c.name, active: c.active, ticked: v[mailboxField(c.id)] === TICKED })),
  };
}

/** The form as the template draws it; `mailboxes` are the choices it offers (mailboxChoices). */
export function editFormView(v: FormValues, mailboxes: readonly MailboxChoice[]) {
  const text = (name: string): string => v[name] ?? '';
  return {
    values: v,
    ticked: (name: string): boolean => v[name] === TICKED,
    text,
    frequencies: SEND_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] ?? f })),
    days: WEEKDAY_NAMES.map((name) => ({ name, label: WEEKDAY_LABELS[name], ticked: v[`day_${name}`] === TICKED, start: text(`day_${name}_start`), end: text(`day_${name}_end`) })),
    leadControl: LEAD_CONTROL_BOXES.map((name) => ({ name, label: LEAD_CONTROL_LABELS[name], ticked: v[name] === TICKED })),
    steps: stepsOf(v),
    stepCount: text('steps'),
    mailboxes: mailboxesOf(v, mailboxes),
  };
}
