import type { Static } from '@sinclair/typebox';
import type { Config } from '../../../config/config';
import type { AudienceFilters } from '../../../campaigns/audience/types';
import type { CampaignAsStored, CampaignPatch } from '../../../campaigns/edit/campaign-patch';
import { validateSequence } from '../../../campaigns/sequences/validate-sequence';
import { normalizeWebhookUrl, webhookUrlProblem } from '../../../webhooks/webhook-url';
import { badRequest } from '../../http/errors';
import { audienceFields, optionalText } from './create-fields';
import { filtersOfA, stepOfA } from './create-fields-a';
import type { PatchCampaignBodyA, PatchCampaignBodyB } from './patch-schemas';
import { scheduleFromRequest } from './schedule-fields';

/**
 * A PATCH body of either surface as a CampaignPatch, over the campaign as stored: what JSON Schema
 * cannot say is checked here with the same messages a create gives (a blank name, an unknown zone,
 * a window that ends before it starts, a webhook that is not HTTPS, a step that cannot be written).
 */

type BodyA = Static<typeof PatchCampaignBodyA>;
type BodyB = Static<typeof PatchCampaignBodyB>;

/** Members of `schedule` that are the schedule's own (trial_days and start_date are the trial's). */
const SCHEDULE_MEMBERS_A = ['frequency', 'timezone', 'fallback_timezone', 'send_window', 'days', 'blackout_dates', 'skip_holidays'];
const SCHEDULE_MEMBERS_B = ['frequency', 'timezone', 'fallbackTimezone', 'sendWindow', 'days', 'blackoutDates', 'skipHolidays'];

/** The whole body is empty: nothing to change is a mistake worth saying. */
function refuseEmpty(body: object): void {
  if (Object.keys(body).length === 0) throw badRequest('nothing to change: send at least one member (name, budget, schedule, sequence, ...)');
}

/** The audience columns when the text or the filters change: as a create reads them (filters win; text alone is parsed). */
function audienceOf(
  current: CampaignAsStored,
  text: string | null | undefined,
  filters: AudienceFilters | null | undefined,
  names: { companySizes: string; seniorityMin: string; seniorityMax: string },
): CampaignPatch['audience'] {
  if (text === undefined && filters === undefined) return undefined;
  const nextText = text === undefined ? current.targetAudience : optionalText(text ?? undefined);
  // Explicit filters stay while only the text changes; null asks for the text to be read again.
  const nextFilters = filters === undefined ? (current.audienceSource === 'explicit' ? (current.audienceFilters ?? undefined) : undefined) : (filters ?? undefined);
  const columns = audienceFields(nextText, nextFilters, names);
  return { filters: columns.audienceFilters ?? null, source: columns.audienceSource ?? 'all_leads' };
}

function nameOf(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (trimmed === '') throw badRequest('name: must not be blank');
  return trimmed;
}

function calendarLinkOf(link: string | null | undefined, field: string): string | null | undefined {
  if (link !== undefined && link !== null && !/^https:\/\//i.test(link)) throw badRequest(`${field} must be an https URL`);
  return link;
}

function textOf(v: string | null | undefined): string | null | undefined {
  return v === undefined ? undefined : optionalText(v ?? undefined);
}

export function patchFromA(body: BodyA, current: CampaignAsStored, config: Pick<Config, 'allowLoopbackEgress'>): CampaignPatch {
  refuseEmpty(body);
  const webhookUrl = body.reporting?.webhook_url;
  if (webhookUrl !== undefined && webhookUrl !== null) {
    const problem = webhookUrlProblem(webhookUrl, config.allowLoopbackEgress);
    if (problem !== null) throw badRequest(`reporting.webhook_url ${problem}`);
  }
  const s = body.schedule;
  const filters = body.audience === undefined ? undefined : body.audience === null ? null : (filtersOfA(body.audience) ?? null);
  return {
    name: nameOf(body.name),
    audience: audienceOf(current, body.target_audience, filters, { companySizes: 'audience.company_sizes', seniorityMin: 'audience.seniority_min', seniorityMax: 'audience.seniority_max' }),
    targetAudience: textOf(body.target_audience),
    targetOutcome: textOf(body.target_outcome),
    valueForTarget: textOf(body.value_for_target),
    calendarLink: calendarLinkOf(body.calendar_link, 'calendar_link'),
    ...(body.budget === undefined ? {} : { budget: { dailyUsd: body.budget.max_daily_usd, weeklyUsd: body.budget.max_weekly_usd, monthlyUsd: body.budget.max_monthly_usd } }),
    ...(s !== undefined && SCHEDULE_MEMBERS_A.some((m) => Object.hasOwn(s, m)) ? { schedule: scheduleFromRequest(s, 'snake', current.schedule) } : {}),
    trialDays: s?.trial_days,
    startDate: s?.start_date,
    ...(body.reporting === undefined
      ? {}
      : { reporting: { frequency: body.reporting.frequency, email: body.reporting.email, webhookUrl: webhookUrl === undefined || webhookUrl === null ? webhookUrl : normalizeWebhookUrl(webhookUrl) } }),
    ...(body.sequence === undefined ? {} : { sequence: validateSequence(body.sequence.map(stepOfA), 'snake') }),
    leadControl: {
      leadListIds: body.lead_list_ids,
      allowDuplicateLeads: body.allow_duplicate_leads,
      stopCompanyOnReply: body.stop_company_on_reply,
      maxFirstEmailsPerDomainPerDay: body.max_first_emails_per_domain_per_day,
      skipRiskyLeads: body.skip_risky_leads,
    },
    tracking: { trackOpens: body.tracking?.opens, trackClicks: body.tracking?.clicks, plainTextOnly: body.plain_text_only },
    mailboxIds: body.mailbox_ids,
  };
}

export function patchFromB(body: BodyB, current: CampaignAsStored): CampaignPatch {
  refuseEmpty(body);
  const s = body.schedule;
  const budgetGiven = body.maxBudgetDailyUsd !== undefined || body.maxBudgetWeeklyUsd !== undefined || body.maxBudgetMonthlyUsd !== undefined;
  return {
    name: nameOf(body.name),
    audience: audienceOf(current, body.targetAudience, body.audience, { companySizes: 'audience.companySizes', seniorityMin: 'audience.seniorityMin', seniorityMax: 'audience.seniorityMax' }),
    targetAudience: textOf(body.targetAudience),
    targetOutcome: textOf(body.targetOutcome),
    valueForTarget: textOf(body.valueForTarget),
    ...(budgetGiven ? { budget: { dailyUsd: body.maxBudgetDailyUsd, weeklyUsd: body.maxBudgetWeeklyUsd, monthlyUsd: body.maxBudgetMonthlyUsd } } : {}),
    ...(s !== undefined && SCHEDULE_MEMBERS_B.some((m) => Object.hasOwn(s, m)) ? { schedule: scheduleFromRequest(s, 'camel', current.schedule) } : {}),
    trialDays: s?.trialDays,
    startDate: s?.startDate,
    ...(body.reporting === undefined ? {} : { reporting: { frequency: body.reporting.frequency, email: body.reporting.email } }),
    ...(body.sequence === undefined ? {} : { sequence: validateSequence(body.sequence, 'camel') }),
    leadControl: {
      leadListIds: body.leadListIds,
      allowDuplicateLeads: body.allowDuplicateLeads,
      stopCompanyOnReply: body.stopCompanyOnReply,
      maxFirstEmailsPerDomainPerDay: body.maxFirstEmailsPerDomainPerDay,
      skipRiskyLeads: body.skipRiskyLeads,
    },
    tracking: { trackOpens: body.tracking?.opens, trackClicks: body.tracking?.clicks, plainTextOnly: body.plainTextOnly },
    mailboxIds: body.mailboxIds,
  };
}
