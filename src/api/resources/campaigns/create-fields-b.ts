import type { Static } from '@sinclair/typebox';
import type { NewCampaign } from '../../../campaigns/campaign-repository';
import { badRequest } from '../../http/errors';
import { audienceFields, brandIdOf, DEFAULT_SCHEDULE, siteField, usd } from './create-fields';
import type { CreateCampaignBodyB } from './schemas-b';

type Body = Static<typeof CreateCampaignBodyB>;

/** Surface B has no template field: its campaigns run the general sales sequence. */
export const SURFACE_B_TEMPLATE = 'sales_outreach';

/** Trimmed text, or null when there is none: a blank optional field says nothing. */
function optionalText(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/**
 * The campaign row from a Surface B create request. brandUrl is checked exactly as Surface A's
 * target_url (it becomes the row's target_url); schedule and sending window are A's defaults.
 */
export function campaignFieldsFromB(body: Body, accountId: string): NewCampaign {
  const name = body.name.trim();
  if (name === '') throw badRequest('body.name must not be blank');
  const site = siteField(body.brandUrl, 'brandUrl');
  return {
    accountId,
    createdVia: 'b',
    name,
    mcp: SURFACE_B_TEMPLATE,
    targetUrl: body.brandUrl.trim(),
    brandId: brandIdOf(site),
    targetAudience: optionalText(body.targetAudience),
    ...audienceFields(optionalText(body.targetAudience), body.audience, 'audience.companySizes'),
    targetOutcome: optionalText(body.targetOutcome),
    valueForTarget: optionalText(body.valueForTarget),
    budgetMaxDailyUsd: usd(body.maxBudgetDailyUsd),
    ...DEFAULT_SCHEDULE,
  };
}
