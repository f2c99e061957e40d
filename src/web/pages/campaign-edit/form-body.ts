/**
 * The edit form's fields as a Surface A PATCH body (`PatchCampaignBodyA`), so the dashboard changes
 * a campaign through exactly the request the API takes. What only a form can get wrong (an amount
 * that is not a number, a time that is not HH:MM, a blank step delay) is a 400 naming the body's
 * member, worded like the API's own; everything else is left to the API's schema and patchFromA.
 *
 * The form posts every field; `changedMembers` keeps only what differs from the campaign's own
 * fields read the same way, so an untouched field is never sent, and text a browser sends back
 * with other line endings (CR LF) is no change.
 */
import type { Static } from '@sinclair/typebox';
import { badRequest } from '../../../api/http/errors';
import type { PatchCampaignBodyA } from '../../../api/resources/campaigns/patch-schemas';
import { WEEKDAY_NAMES } from '../../../campaigns/model/schedule';
import { SEQUENCE_LIMITS, STEP_MODES, type CampaignSequence, type SequenceStep, type StepMode } from '../../../campaigns/model/sequence';
import type { SendFrequency } from '../../../campaigns/model/status';
import { EVERY_MAILBOX, ONLY_MAILBOXES, stepField, tickedMailboxes, TICKED, variantField, type FormValues } from './form-values';

export type PatchBody = Static<typeof PatchCampaignBodyA>;
type ScheduleBody = NonNullable<PatchBody['schedule']>;
type StepBody = NonNullable<PatchBody['sequence']>[number];
type VariantBody = NonNullable<StepBody['variants']>[number];
type Window = { start: string; end: string };

/** Browsers post a textarea's line breaks as CR LF: the campaign's text is compared and stored with LF. */
const lines = (text: string): string => text.replace(/\r\n?/g, '\n');
const field = (v: FormValues, name: string): string => lines(v[name] ?? '');
const isTicked = (v: FormValues, name: string): boolean => v[name] === TICKED;
const shown = (raw: string, max: number): string => JSON.stringify(raw.trim().slice(0, max));

function usd(raw: string, member: string): number | null {
  const t = raw.trim().replace(/^\$\s*/, '');
  if (t === '') return null;
  if (!/^\d+(\.\d+)?$/.test(t)) throw badRequest(`${member}: ${shown(raw, 40)} is not an amount in USD (such as 25 or 12.50); leave it empty for no limit`);
  return Number(t);
}

function wholeNumber(raw: string, member: string, empty: string): number | null {
  const t = raw.trim();
  if (t === '') return null;
  if (!/^\d{1,9}$/.test(t)) throw badRequest(`${member}: ${shown(raw, 40)} is not a whole number${empty}`);
  return Number(t);
}

/** HH:MM on the 24-hour clock ("9:30" is 09:30); 24:00 ends the day. */
function clock(raw: string, member: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(raw.trim());
  const [h, min] = m === null ? [NaN, NaN] : [Number(m[1]), Number(m[2])];
  if (!((h <= 23 && min <= 59) || (h === 24 && min === 0))) throw badRequest(`${member}: ${shown(raw, 20)} is not a time (HH:MM, 24-hour clock; 24:00 ends the day)`);
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}

const windowOf = (v: FormValues, prefix: string, member: string): Window => ({
  start: clock(field(v, `${prefix}_start`), `${member}.start`),
  end: clock(field(v, `${prefix}_end`), `${member}.end`),
});

/** The dates of the blackout field: one per line, or separated by commas or spaces. */
const datesOf = (raw: string): string[] => raw.split(/[\s,;]+/).filter((d) => d !== '');

function scheduleOf(v: FormValues): ScheduleBody {
  const timezone = field(v, 'timezone').trim();
  if (timezone === '') throw badRequest('schedule.timezone: enter an IANA time zone (such as Europe/Berlin), or "lead" to write each lead in their own zone');
  const fallback = field(v, 'fallback_timezone').trim();
  const days: Partial<Record<(typeof WEEKDAY_NAMES)[number], Window>> = {};
  for (const name of WEEKDAY_NAMES) if (isTicked(v, `day_${name}`)) days[name] = windowOf(v, `day_${name}`, `schedule.days.${name}`);
  const someDay = Object.keys(days).length > 0;
  return {
    // Ticked weekdays choose the sending days themselves: frequency then says nothing (the API takes daily).
    ...(someDay ? {} : { frequency: field(v, 'frequency') as SendFrequency }),
    timezone,
    ...(timezone === 'lead' && fallback !== '' ? { fallback_timezone: fallback } : {}),
    send_window: windowOf(v, 'window', 'schedule.send_window'),
    days: someDay ? days : null,
    blackout_dates: datesOf(field(v, 'blackout_dates')),
    skip_holidays: isTicked(v, 'skip_holidays'),
  };
}

const blank = (text: string): boolean => text.trim() === '';

function variantOf(v: FormValues, step: number, k: number, stored: SequenceStep['variants'][number] | undefined): VariantBody {
  const mode = field(v, variantField(step, k, 'mode')) as StepMode;
  const at = `sequence[${step - 1}] (step ${step})${k === 0 ? '' : ` variant ${String.fromCharCode(65 + k)}`}`;
  if (!STEP_MODES.includes(mode)) throw badRequest(`${at}: mode must be "template" or "ai"`);
  const subject = field(v, variantField(step, k, 'subject'));
  return {
    // The form does not show weights: a variant keeps its own.
    ...(stored === undefined ? {} : { weight: stored.weight }),
    mode,
    subject: blank(subject) ? null : subject,
    ...(mode === 'template' ? { body: field(v, variantField(step, k, 'body')) } : { instructions: field(v, variantField(step, k, 'instructions')) }),
  };
}

/** A step of the form, or null for the "add a step" left blank. */
function stepOf(v: FormValues, step: number, extra: boolean, stored: SequenceStep | undefined): StepBody | null {
  // A variant is on the form when its mode is (a hidden field, or the new step's select).
  let variantCount = 0;
  while (variantCount < SEQUENCE_LIMITS.variants && v[variantField(step, variantCount, 'mode')] !== undefined) variantCount++;
  const contents = (['subject', 'body', 'instructions'] as const).flatMap((name) => Array.from({ length: variantCount }, (_, k) => field(v, variantField(step, k, name))));
  const delay = field(v, stepField(step, 'delay'));
  if (extra && blank(delay) && contents.every(blank)) return null;
  if (variantCount === 0) throw badRequest(`sequence[${step - 1}] (step ${step}): the form sent no content for this step; reload the page and try again`);
  const delayDays = wholeNumber(delay, `sequence[${step - 1}] (step ${step}) delay_days`, '');
  if (delayDays === null) throw badRequest(`sequence[${step - 1}] (step ${step}) delay_days: enter the days after the step before (0 for the first step)`);
  const auto = stored?.autoWinner ?? null;
  return {
    delay_days: delayDays,
    variants: Array.from({ length: variantCount }, (_, k) => variantOf(v, step, k, stored?.variants[k])),
    // The form does not show the variant test either: a step keeps its own.
    ...(auto === null ? {} : { auto_winner: { metric: auto.metric, min_sends: auto.minSends, confidence: auto.confidence } }),
  };
}

function sequenceOf(v: FormValues, stored: CampaignSequence | null): StepBody[] {
  const shownSteps = Math.min(Math.max(Number.parseInt(v.steps ?? '0', 10) || 0, 0), SEQUENCE_LIMITS.steps);
  const steps: StepBody[] = [];
  for (let step = 1; step <= shownSteps + 1; step++) {
    const s = stepOf(v, step, step === shownSteps + 1, stored?.steps[step - 1]);
    if (s !== null) steps.push(s);
  }
  return steps;
}

/**
 * The mailboxes chosen: null for every active mailbox, else the ticked ids, sorted (a set: the
 * order the boxes are posted in is no change). Undefined when the form offered no choice (an
 * account without mailboxes), so nothing is sent. "Only these" with nothing ticked is refused here.
 */
function mailboxIdsOf(v: FormValues): string[] | null | undefined {
  const choice = v.mailboxes;
  if (choice === undefined) return undefined;
  if (choice === EVERY_MAILBOX) return null;
  if (choice !== ONLY_MAILBOXES) throw badRequest('mailbox_ids: choose "Every active mailbox of the account" or "Only these"');
  const ids = tickedMailboxes(v).sort();
  if (ids.length === 0) throw badRequest('mailbox_ids: tick at least one mailbox under "Only these", or choose "Every active mailbox of the account"');
  return ids;
}

/**
 * Every member the form shows, as a PATCH body. `stored` is the sequence the form was filled from
 * (weights and variant tests are taken from it, by position).
 */
export function bodyOfForm(v: FormValues, stored: CampaignSequence | null): PatchBody {
  const audience = field(v, 'target_audience');
  const reportingEmail = field(v, 'reporting_email').trim();
  const reportingFrequency = field(v, 'reporting_frequency');
  const mailboxIds = mailboxIdsOf(v);
  return {
    name: field(v, 'name'),
    target_audience: blank(audience) ? null : audience,
    budget: {
      max_daily_usd: usd(field(v, 'budget_daily'), 'budget.max_daily_usd'),
      max_weekly_usd: usd(field(v, 'budget_weekly'), 'budget.max_weekly_usd'),
      max_monthly_usd: usd(field(v, 'budget_monthly'), 'budget.max_monthly_usd'),
    },
    schedule: scheduleOf(v),
    reporting: {
      frequency: reportingFrequency === '' ? null : (reportingFrequency as 'daily' | 'weekly' | 'monthly'),
      email: reportingEmail === '' ? null : reportingEmail,
    },
    allow_duplicate_leads: isTicked(v, 'allow_duplicate_leads'),
    stop_company_on_reply: isTicked(v, 'stop_company_on_reply'),
    skip_risky_leads: isTicked(v, 'skip_risky_leads'),
    max_first_emails_per_domain_per_day: wholeNumber(field(v, 'max_first_per_domain'), 'max_first_emails_per_domain_per_day', '; leave it empty for no cap'),
    sequence: sequenceOf(v, stored),
    ...(mailboxIds === undefined ? {} : { mailbox_ids: mailboxIds }),
  };
}

/** Members whose own members are compared one by one (the API merges them over the stored ones). */
const NESTED = new Set(['budget', 'schedule', 'reporting']);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The members of `next` that differ from `base` (both from bodyOfForm): the PATCH the form asks for. */
export function changedMembers(next: PatchBody, base: PatchBody): PatchBody {
  const was = base as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) continue;
    const before = was[key];
    if (NESTED.has(key) && isObject(value) && isObject(before)) {
      const inner = Object.fromEntries(Object.entries(value).filter(([k, x]) => x !== undefined && !same(x, before[k])));
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else if (!same(value, before)) {
      out[key] = value;
    }
  }
  return out as PatchBody;
}
