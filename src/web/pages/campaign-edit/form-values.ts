/**
 * The edit form's fields, flat as a url-encoded form posts them, and the campaign as those fields
 * (what the form shows first). The same values are rendered again, as typed, when a change is
 * refused, so the form is built from these strings and never from the campaign directly.
 *
 * Names: `name`, `target_audience`, `budget_daily|weekly|monthly`, `timezone`, `fallback_timezone`,
 * `frequency`, `window_start|end`, `day_<mon..sun>` (a ticked box is "on") with `day_<d>_start|end`,
 * `blackout_dates`, `skip_holidays`, `reporting_frequency`, `reporting_email`, the lead-control
 * boxes and `max_first_per_domain`; the sequence as `steps` (how many the campaign had) and
 * `s<step>_delay`, `s<step>_<variant>_mode|subject|body|instructions` (variant a..e), step
 * `steps + 1` being the blank "add a step"; the mailboxes as `mailboxes` ("all": every active
 * mailbox of the account, "only": the ticked ones) and `mailbox_<id>` per ticked mailbox.
 */
import { clockOf, WEEKDAY_NAMES, type IsoWeekday } from '../../../campaigns/model/schedule';
import { SEQUENCE_LIMITS, type CampaignSequence } from '../../../campaigns/model/sequence';
import type { CampaignAsStored } from '../../../campaigns/edit/campaign-patch';

export type FormValues = Readonly<Record<string, string>>;

/** A ticked checkbox's value; an unticked one is not posted at all. */
export const TICKED = 'on';

export const LEAD_CONTROL_BOXES = ['allow_duplicate_leads', 'stop_company_on_reply', 'skip_risky_leads'] as const;

/** The mailboxes radio's values: every active mailbox of the account, or only the ticked ones. */
export const EVERY_MAILBOX = 'all';
export const ONLY_MAILBOXES = 'only';
/** A mailbox's checkbox (mailbox ids are letters, digits and `_`, so they make a field name and an element id). */
const MAILBOX_FIELD = 'mailbox_';
export const mailboxField = (id: string): string => `${MAILBOX_FIELD}${id}`;
/** The ids of the ticked mailbox boxes, in the order posted. */
export const tickedMailboxes = (v: FormValues): string[] =>
  Object.keys(v).filter((k) => k.startsWith(MAILBOX_FIELD) && v[k] === TICKED).map((k) => k.slice(MAILBOX_FIELD.length));

/** The field of a step (1-based) or of one of its variants (index 0..4: a..e). */
export const stepField = (step: number, name: 'delay'): string => `s${step}_${name}`;
export const variantField = (step: number, variant: number, name: 'mode' | 'subject' | 'body' | 'instructions'): string =>
  `s${step}_${String.fromCharCode(97 + variant)}_${name}`;

const amount = (usd: number | null): string => (usd === null ? '' : String(usd));
const ticked = (name: string, on: boolean): Record<string, string> => (on ? { [name]: TICKED } : {});

/** The sequence as fields; `shown` is the stored one, or the preset a campaign without one sends. */
function sequenceValues(shown: CampaignSequence | null): Record<string, string> {
  const steps = shown?.steps ?? [];
  const out: Record<string, string> = { steps: String(steps.length) };
  steps.forEach((step, i) => {
    out[stepField(i + 1, 'delay')] = String(step.delayDays);
    step.variants.forEach((v, k) => {
      out[variantField(i + 1, k, 'mode')] = v.mode;
      out[variantField(i + 1, k, 'subject')] = v.subject ?? '';
      if (v.mode === 'template') out[variantField(i + 1, k, 'body')] = v.body ?? '';
      else out[variantField(i + 1, k, 'instructions')] = v.instructions ?? '';
    });
  });
  // The blank step the user may fill in ("add a step"); left blank, it is not added.
  const extra = steps.length + 1;
  if (extra > SEQUENCE_LIMITS.steps) return out;
  Object.assign(out, { [stepField(extra, 'delay')]: '', [variantField(extra, 0, 'mode')]: 'template', [variantField(extra, 0, 'subject')]: '', [variantField(extra, 0, 'body')]: '', [variantField(extra, 0, 'instructions')]: '' });
  return out;
}

/** The campaign as the form's fields: what the edit page shows first, and what a post is compared with. */
export function formOfCampaign(c: CampaignAsStored, shownSequence: CampaignSequence | null): FormValues {
  const s = c.schedule;
  const days: Record<string, string> = {};
  WEEKDAY_NAMES.forEach((name, i) => {
    const w = s.days?.[`${i + 1}` as `${IsoWeekday}`];
    if (w !== undefined) days[`day_${name}`] = TICKED;
    // An unticked day offers the send window, ready to be ticked.
    days[`day_${name}_start`] = clockOf((w ?? s.window).startMinute);
    days[`day_${name}_end`] = clockOf((w ?? s.window).endMinute);
  });
  return {
    name: c.name,
    target_audience: c.targetAudience ?? '',
    budget_daily: amount(c.budget.dailyUsd),
    budget_weekly: amount(c.budget.weeklyUsd),
    budget_monthly: amount(c.budget.monthlyUsd),
    timezone: s.leadTimezones ? 'lead' : s.timezone,
    fallback_timezone: s.leadTimezones ? s.timezone : '',
    frequency: s.frequency,
    window_start: clockOf(s.window.startMinute),
    window_end: clockOf(s.window.endMinute),
    ...days,
    blackout_dates: s.blackoutDates.join('\n'),
    ...ticked('skip_holidays', s.skipHolidays),
    reporting_frequency: c.reporting.frequency ?? '',
    reporting_email: c.reporting.email ?? '',
    ...ticked('allow_duplicate_leads', c.leadControl.allowDuplicateLeads),
    ...ticked('stop_company_on_reply', c.leadControl.stopCompanyOnReply),
    ...ticked('skip_risky_leads', c.leadControl.skipRiskyLeads),
    max_first_per_domain: c.leadControl.maxFirstEmailsPerDomainPerDay === null ? '' : String(c.leadControl.maxFirstEmailsPerDomainPerDay),
    ...sequenceValues(shownSequence),
    mailboxes: c.mailboxIds === undefined || c.mailboxIds === null ? EVERY_MAILBOX : ONLY_MAILBOXES,
    ...Object.fromEntries((c.mailboxIds ?? []).map((id) => [mailboxField(id), TICKED])),
  };
}
