/**
 * An edit of a campaign in the domain's words (either surface's PATCH, once checked), and the plan
 * it makes against the campaign as it is: the columns that change, the settings the workflow acts
 * on, the new sequence, and the history's field changes (`from` and `to`, by Surface A's path).
 * Members equal to the stored value are no change. Pure.
 */
import type { AudienceFilters, AudienceSource } from '../audience/types';
import type { CampaignBudget } from '../model/status';
import type { CampaignSequence } from '../model/sequence';
import { clockOf, WEEKDAY_NAMES, type CampaignSchedule } from '../model/schedule';
import type { SendWindow } from '../model/status';
import type { FieldChange, LiveSettings } from '../../../workflows/campaign/contract';
import type { LeadControl } from '../campaign-repository';

export interface CampaignPatch {
  readonly name?: string;
  readonly targetAudience?: string | null;
  /** The audience columns, already resolved from text and filters (audienceOfCampaign). */
  readonly audience?: { readonly filters: AudienceFilters | null; readonly source: AudienceSource };
  readonly targetOutcome?: string | null;
  readonly valueForTarget?: string | null;
  readonly calendarLink?: string | null;
  /** Limits to change (null: no limit); those left out keep their value. */
  readonly budget?: { readonly dailyUsd?: number | null; readonly weeklyUsd?: number | null; readonly monthlyUsd?: number | null };
  /** The whole new schedule (merged over the stored one and checked). */
  readonly schedule?: CampaignSchedule;
  readonly trialDays?: number | null;
  readonly startDate?: string | null;
  readonly reporting?: { readonly frequency?: string | null; readonly email?: string | null; readonly webhookUrl?: string | null };
  /** The whole new sequence (checked). */
  readonly sequence?: CampaignSequence;
  readonly leadControl?: Partial<LeadControl>;
  readonly tracking?: { readonly trackOpens?: boolean; readonly trackClicks?: boolean; readonly plainTextOnly?: boolean };
  /** The mailboxes it sends from (null: every active mailbox of the account again); checked by the caller (checkCampaignMailboxes). */
  readonly mailboxIds?: readonly string[] | null;
}

/** The campaign as an edit compares against: its row's values, by the same names. */
export interface CampaignAsStored {
  readonly name: string;
  readonly targetAudience: string | null;
  readonly audienceFilters: AudienceFilters | null;
  readonly audienceSource: AudienceSource;
  readonly targetOutcome: string | null;
  readonly valueForTarget: string | null;
  readonly calendarLink: string | null;
  readonly budget: CampaignBudget;
  readonly schedule: CampaignSchedule;
  readonly trialDays: number | null;
  readonly startDate: string | null;
  readonly reporting: { readonly frequency: string | null; readonly email: string | null; readonly webhookUrl: string | null };
  readonly sequence: CampaignSequence | null;
  readonly leadControl: LeadControl;
  readonly tracking: { readonly trackOpens: boolean; readonly trackClicks: boolean; readonly plainTextOnly: boolean };
  /** The mailboxes it sends from; null (or absent: a caller that reads no mailboxes) for every active mailbox of the account. */
  readonly mailboxIds?: readonly string[] | null;
}

export interface EditPlan {
  /** Columns of the campaigns row by their names in the table. */
  readonly columns: Record<string, unknown>;
  readonly settings: LiveSettings;
  readonly sequence?: CampaignSequence;
  readonly fields: FieldChange[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
/** A window as the surfaces write it (HH:MM), for the history. */
const hours = (w: SendWindow): { start: string; end: string } => ({ start: clockOf(w.startMinute), end: clockOf(w.endMinute) });
/** Per-weekday windows as the surfaces write them ({wed: {start, end}}), for the history. */
const weekdays = (days: CampaignSchedule['days']): Record<string, { start: string; end: string }> | null => {
  if (days === null) return null;
  const out: Record<string, { start: string; end: string }> = {};
  WEEKDAY_NAMES.forEach((name, i) => {
    const w = days[`${i + 1}` as keyof typeof days];
    if (w !== undefined) out[name] = hours(w);
  });
  return out;
};
/** The usd columns are DECIMAL: written as text, never a binary float. */
const usdText = (v: number | null): string | null => (v === null ? null : String(v));

export function planEdit(current: CampaignAsStored, patch: CampaignPatch): EditPlan {
  const columns: Record<string, unknown> = {};
  const fields: FieldChange[] = [];
  const settings: { -readonly [K in keyof LiveSettings]: LiveSettings[K] } = {};
  /** Records one change when `to` differs; returns whether it did. */
  const change = (field: string, from: unknown, to: unknown, cols: Record<string, unknown>): boolean => {
    if (to === undefined || same(from, to)) return false;
    fields.push({ field, from, to });
    Object.assign(columns, cols);
    return true;
  };

  if (patch.name !== undefined) change('name', current.name, patch.name, { name: patch.name });
  if (patch.targetAudience !== undefined) change('target_audience', current.targetAudience, patch.targetAudience, { target_audience: patch.targetAudience });
  if (patch.audience !== undefined) {
    change('audience', current.audienceFilters, patch.audience.filters, { audience_filters: patch.audience.filters, audience_source: patch.audience.source });
  }
  if (patch.targetOutcome !== undefined) change('target_outcome', current.targetOutcome, patch.targetOutcome, { target_outcome: patch.targetOutcome });
  if (patch.valueForTarget !== undefined) change('value_for_target', current.valueForTarget, patch.valueForTarget, { value_for_target: patch.valueForTarget });
  if (patch.calendarLink !== undefined) change('calendar_link', current.calendarLink, patch.calendarLink, { calendar_link: patch.calendarLink });

  if (patch.budget !== undefined) {
    const b = current.budget;
    const next: CampaignBudget = {
      dailyUsd: patch.budget.dailyUsd === undefined ? b.dailyUsd : patch.budget.dailyUsd,
      weeklyUsd: patch.budget.weeklyUsd === undefined ? b.weeklyUsd : patch.budget.weeklyUsd,
      monthlyUsd: patch.budget.monthlyUsd === undefined ? b.monthlyUsd : patch.budget.monthlyUsd,
    };
    const a = change('budget.max_daily_usd', b.dailyUsd, next.dailyUsd, { budget_max_daily_usd: usdText(next.dailyUsd) });
    const w = change('budget.max_weekly_usd', b.weeklyUsd, next.weeklyUsd, { budget_max_weekly_usd: usdText(next.weeklyUsd) });
    const m = change('budget.max_monthly_usd', b.monthlyUsd, next.monthlyUsd, { budget_max_monthly_usd: usdText(next.monthlyUsd) });
    if (a || w || m) settings.budget = next.dailyUsd === null && next.weeklyUsd === null && next.monthlyUsd === null ? null : next;
  }

  if (patch.schedule !== undefined && !same(current.schedule, patch.schedule)) {
    const s = patch.schedule;
    const from = current.schedule;
    const members: Array<[string, unknown, unknown]> = [
      ['schedule.frequency', from.frequency, s.frequency],
      ['schedule.timezone', from.leadTimezones ? 'lead' : from.timezone, s.leadTimezones ? 'lead' : s.timezone],
      ['schedule.fallback_timezone', from.leadTimezones ? from.timezone : null, s.leadTimezones ? s.timezone : null],
      ['schedule.send_window', hours(from.window), hours(s.window)],
      ['schedule.days', weekdays(from.days), weekdays(s.days)],
      ['schedule.blackout_dates', from.blackoutDates, s.blackoutDates],
      ['schedule.skip_holidays', from.skipHolidays, s.skipHolidays],
    ];
    for (const [field, a, b] of members) if (!same(a, b)) fields.push({ field, from: a, to: b });
    Object.assign(columns, {
      schedule_frequency: s.frequency,
      timezone: s.timezone,
      send_window_start_minute: s.window.startMinute,
      send_window_end_minute: s.window.endMinute,
      schedule_days: s.days,
      blackout_dates: s.blackoutDates,
      skip_holidays: s.skipHolidays,
      lead_timezones: s.leadTimezones,
    });
    settings.schedule = s;
  }
  if (patch.trialDays !== undefined && change('schedule.trial_days', current.trialDays, patch.trialDays, { schedule_trial_days: patch.trialDays })) settings.trialDays = patch.trialDays;
  if (patch.startDate !== undefined && change('schedule.start_date', current.startDate, patch.startDate, { schedule_start_date: patch.startDate })) settings.startDate = patch.startDate;

  if (patch.reporting !== undefined) {
    const r = current.reporting;
    const p = patch.reporting;
    if (p.frequency !== undefined) change('reporting.frequency', r.frequency, p.frequency, { reporting_frequency: p.frequency });
    if (p.email !== undefined) change('reporting.email', r.email, p.email, { reporting_email: p.email });
    if (p.webhookUrl !== undefined) change('reporting.webhook_url', r.webhookUrl, p.webhookUrl, { reporting_webhook_url: p.webhookUrl });
  }

  let sequence: CampaignSequence | undefined;
  if (patch.sequence !== undefined && !same(current.sequence?.steps, patch.sequence.steps)) {
    fields.push({ field: 'sequence', from: { steps: current.sequence?.steps.length ?? 0 }, to: { steps: patch.sequence.steps.length } });
    sequence = patch.sequence;
  }

  const lc = patch.leadControl ?? {};
  const cur = current.leadControl;
  if (lc.leadListIds !== undefined) change('lead_list_ids', [...cur.leadListIds].sort(), [...new Set(lc.leadListIds)].sort(), { lead_list_ids: [...new Set(lc.leadListIds)] });
  if (lc.allowDuplicateLeads !== undefined) change('allow_duplicate_leads', cur.allowDuplicateLeads, lc.allowDuplicateLeads, { allow_duplicate_leads: lc.allowDuplicateLeads });
  if (lc.stopCompanyOnReply !== undefined) change('stop_company_on_reply', cur.stopCompanyOnReply, lc.stopCompanyOnReply, { stop_company_on_reply: lc.stopCompanyOnReply });
  if (lc.maxFirstEmailsPerDomainPerDay !== undefined) {
    change('max_first_emails_per_domain_per_day', cur.maxFirstEmailsPerDomainPerDay, lc.maxFirstEmailsPerDomainPerDay, { max_first_emails_per_domain_per_day: lc.maxFirstEmailsPerDomainPerDay });
  }
  if (lc.skipRiskyLeads !== undefined) change('skip_risky_leads', cur.skipRiskyLeads, lc.skipRiskyLeads, { skip_risky_leads: lc.skipRiskyLeads });

  const t = patch.tracking ?? {};
  if (t.trackOpens !== undefined) change('tracking.opens', current.tracking.trackOpens, t.trackOpens, { track_opens: t.trackOpens });
  if (t.trackClicks !== undefined) change('tracking.clicks', current.tracking.trackClicks, t.trackClicks, { track_clicks: t.trackClicks });
  if (t.plainTextOnly !== undefined) change('plain_text_only', current.tracking.plainTextOnly, t.plainTextOnly, { plain_text_only: t.plainTextOnly });

  // A set: the same ids in another order are no change (the order means nothing: new leads go to the least recently used).
  if (patch.mailboxIds !== undefined) {
    const sorted = (ids: readonly string[] | null): string[] | null => (ids === null ? null : [...ids].sort());
    const from = current.mailboxIds ?? null;
    if (!same(sorted(from), sorted(patch.mailboxIds))) {
      fields.push({ field: 'mailbox_ids', from, to: patch.mailboxIds });
      columns['mailbox_ids'] = patch.mailboxIds === null ? null : [...patch.mailboxIds];
    }
  }

  return { columns, settings, ...(sequence === undefined ? {} : { sequence }), fields };
}
