import type { Static } from '@sinclair/typebox';
import type { NewCampaign } from '../../../campaigns/campaign-repository';
import { audienceFields, brandIdOf, DEFAULT_SCHEDULE, optionalText, siteField, usd } from './create-fields';
import type { CreateCampaignBodyB } from './schemas-b';

type Body = Static<typeof CreateCampaignBodyB>;

/** Surface B has no template field: its campaigns run the general sales sequence. */
export const SURFACE_B_TEMPLATE = 'sales_outreach';

/**
 * The campaign row from a Surface B create request. brandUrl is checked exactly as Surface A's
 * target_url (it becomes the row's target_url); schedule and sending window are A's defaults.
 */
export function campaignFieldsFromB(body: Body, accountId: string): NewCampaign {
  // Not blank: the schema says so (CampaignName), as on Surface A.
  const name = body.name.trim();
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
