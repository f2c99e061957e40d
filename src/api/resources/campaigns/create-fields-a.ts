import type { Static } from '@sinclair/typebox';
import type { Config } from '../../../config/config';
import type { LeadControl, NewCampaign } from '../../../campaigns/campaign-repository';
import { normalizeWebhookUrl, webhookUrlProblem } from '../../../webhooks/webhook-url';
import { badRequest } from '../../http/errors';
import type { AudienceFilters } from '../../../campaigns/audience/types';
import type { CampaignSequence } from '../../../campaigns/model/sequence';
import type { StepInput } from '../../../campaigns/sequences/validate-sequence';
import { audienceFields, brandIdOf, leadControlFields, optionalText, sequenceField, siteField, templateField, trackingFields, usd } from './create-fields';
import { scheduleColumns, scheduleFromRequest, trialColumns } from './schedule-fields';
import type { CreateCampaignBodyA } from './schemas-a';

type Body = Static<typeof CreateCampaignBodyA>;

/**
 * The campaign row from a Surface A create request: what JSON Schema cannot say is checked here
 * (a known template, a usable target, a schedule that can be kept: scheduleFromRequest, a
 * webhook over HTTPS), each with a message that says what to send instead.
 */
export function campaignFieldsFromA(body: Body, accountId: string, config: Pick<Config, 'allowLoopbackEgress'>): { fields: NewCampaign; sequence: CampaignSequence; control: LeadControl } {
  const template = templateField(body.mcp);
  const target = siteField(body.target_url, 'target_url');
  const schedule = scheduleFromRequest(body.schedule, 'snake');
  if (body.calendar_link !== undefined && !/^https:\/\//i.test(body.calendar_link)) throw badRequest('calendar_link must be an https URL');
  const webhookUrl = body.reporting?.webhook_url;
  if (webhookUrl !== undefined) {
    const problem = webhookUrlProblem(webhookUrl, config.allowLoopbackEgress);
    if (problem !== null) throw badRequest(`reporting.webhook_url ${problem}`);
  }
  const budget = body.budget ?? {};
  const sequence = sequenceField(body.sequence?.map(stepOfA), template, 'snake');
  const fields: NewCampaign = {
    accountId,
    createdVia: 'a',
    name: body.name?.trim() ?? `${template.title} for ${target.hostname.replace(/^www\./, '')}`,
    mcp: template.name,
    targetUrl: body.target_url.trim(),
    brandId: brandIdOf(target),
    targetAudience: optionalText(body.target_audience),
    ...audienceFields(optionalText(body.target_audience), filtersOfA(body.audience), { companySizes: 'audience.company_sizes', seniorityMin: 'audience.seniority_min', seniorityMax: 'audience.seniority_max' }),
    budgetMaxDailyUsd: usd(budget.max_daily_usd),
    budgetMaxWeeklyUsd: usd(budget.max_weekly_usd),
    budgetMaxMonthlyUsd: usd(budget.max_monthly_usd),
    ...scheduleColumns(schedule),
    ...trialColumns(body.schedule, 'snake'),
    reportingFrequency: body.reporting?.frequency ?? null,
    reportingEmail: body.reporting?.email ?? null,
    reportingWebhookUrl: webhookUrl === undefined ? null : normalizeWebhookUrl(webhookUrl),
    calendarLink: body.calendar_link ?? null,
    targetOutcome: optionalText(body.target_outcome),
    valueForTarget: optionalText(body.value_for_target),
    ...trackingFields(body.tracking, body.plain_text_only),
    mailboxIds: body.mailbox_ids ?? null,
  };
  const control = leadControlFields({
    leadListIds: body.lead_list_ids,
    allowDuplicateLeads: body.allow_duplicate_leads,
    stopCompanyOnReply: body.stop_company_on_reply,
    maxFirstEmailsPerDomainPerDay: body.max_first_emails_per_domain_per_day,
    skipRiskyLeads: body.skip_risky_leads,
  });
  return { fields, sequence, control };
}

type StepA = NonNullable<Body['sequence']>[number];

/** A Surface A step (snake_case) as the domain takes it. */
export function stepOfA(s: StepA): StepInput {
  const { delay_days: delayDays, auto_winner: autoWinner, ...rest } = s;
  return {
    ...rest,
    delayDays,
    ...(autoWinner === undefined ? {} : { autoWinner: { metric: autoWinner.metric, minSends: autoWinner.min_sends, confidence: autoWinner.confidence } }),
  };
}

/** Surface A's audience (snake_case) as AudienceFilters: company_sizes and the seniority range are named differently. */
export function filtersOfA(audience: Body['audience']): AudienceFilters | undefined {
  if (audience === undefined) return undefined;
  const { company_sizes: companySizes, seniority_min: seniorityMin, seniority_max: seniorityMax, ...rest } = audience;
  return {
    ...rest,
    ...(companySizes === undefined ? {} : { companySizes }),
    ...(seniorityMin === undefined ? {} : { seniorityMin }),
    ...(seniorityMax === undefined ? {} : { seniorityMax }),
  };
}
