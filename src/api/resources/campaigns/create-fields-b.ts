import type { Static } from '@sinclair/typebox';
import type { LeadControl, NewCampaign } from '../../../campaigns/campaign-repository';
import type { CampaignSequence } from '../../../campaigns/model/sequence';
import { audienceFields, brandIdOf, leadControlFields, optionalText, sequenceField, siteField, templateField, trackingFields, usd } from './create-fields';
import { scheduleColumns, scheduleFromRequest, trialColumns } from './schedule-fields';
import type { CreateCampaignBodyB } from './schemas-b';

type Body = Static<typeof CreateCampaignBodyB>;

/** Without `mcp`, a Surface B campaign takes the general sales template's pace and steps. */
export const SURFACE_B_TEMPLATE = 'sales_outreach';

/**
 * The campaign row from a Surface B create request. brandUrl is checked exactly as Surface A's
 * target_url (it becomes the row's target_url); `schedule` is A's in camelCase, checked alike
 * (scheduleFromRequest), with A's defaults when left out.
 */
export function campaignFieldsFromB(body: Body, accountId: string): { fields: NewCampaign; sequence: CampaignSequence; control: LeadControl } {
  // Not blank: the schema says so (CampaignName), as on Surface A.
  const name = body.name.trim();
  const site = siteField(body.brandUrl, 'brandUrl');
  const template = templateField(body.mcp ?? SURFACE_B_TEMPLATE);
  // Surface B's steps are already the domain's casing.
  const sequence = sequenceField(body.sequence, template, 'camel');
  const schedule = scheduleFromRequest(body.schedule, 'camel');
  const fields: NewCampaign = {
    accountId,
    createdVia: 'b',
    name,
    mcp: template.name,
    targetUrl: body.brandUrl.trim(),
    brandId: brandIdOf(site),
    targetAudience: optionalText(body.targetAudience),
    ...audienceFields(optionalText(body.targetAudience), body.audience, { companySizes: 'audience.companySizes', seniorityMin: 'audience.seniorityMin', seniorityMax: 'audience.seniorityMax' }),
    targetOutcome: optionalText(body.targetOutcome),
    valueForTarget: optionalText(body.valueForTarget),
    budgetMaxDailyUsd: usd(body.maxBudgetDailyUsd),
    ...trackingFields(body.tracking, body.plainTextOnly),
    ...scheduleColumns(schedule),
    ...trialColumns(body.schedule, 'camel'),
    mailboxIds: body.mailboxIds ?? null,
  };
  // Surface B's members are already the domain's casing.
  return { fields, sequence, control: leadControlFields(body) };
}
