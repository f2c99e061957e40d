/**
 * Search attributes that make a campaign findable in the Temporal Web UI, e.g.
 * `AccountId = "acc_…" AND CampaignStatus = "running"`. The dev server is started with exactly
 * these; a production namespace must have them registered (see README).
 *
 * Plain data (the shape of the SDK's SearchAttributeKey) so both the workflow bundle and the
 * launcher can import it without pulling in anything else.
 */
export interface KeywordSearchAttribute {
  readonly name: string;
  readonly type: 'KEYWORD';
}

const keyword = (name: string): KeywordSearchAttribute => ({ name, type: 'KEYWORD' });

export const CampaignIdKey = keyword('CampaignId');
export const AccountIdKey = keyword('AccountId');
export const CampaignStatusKey = keyword('CampaignStatus');
export const McpKey = keyword('Mcp');

export const CAMPAIGN_SEARCH_ATTRIBUTES: readonly KeywordSearchAttribute[] = [CampaignIdKey, AccountIdKey, CampaignStatusKey, McpKey];
