import { upsertSearchAttributes } from '@temporalio/workflow';
import { AccountIdKey, CampaignIdKey, CampaignStatusKey, McpKey, type KeywordSearchAttribute } from '../search-attributes';
import type { CampaignWorkflowInput } from './contract';
import type { CampaignStatus } from '../../src/campaigns/model/status';

type SearchAttributeUpdate = { key: KeywordSearchAttribute; value: string };
function setSearchAttributes(pairs: SearchAttributeUpdate[]): void {
  upsertSearchAttributes(pairs as unknown as Parameters<typeof upsertSearchAttributes>[0]);
}

/** What makes the campaign findable in the Web UI, set at the start of every run. */
export function setCampaignSearchAttributes(input: CampaignWorkflowInput, status: CampaignStatus): void {
  setSearchAttributes([
    { key: CampaignIdKey, value: input.campaignId },
    { key: AccountIdKey, value: input.accountId },
    { key: McpKey, value: input.mcp },
    { key: CampaignStatusKey, value: status },
  ]);
}

/** The status, at every transition. */
export function setStatusSearchAttribute(status: CampaignStatus): void {
  setSearchAttributes([{ key: CampaignStatusKey, value: status }]);
}
