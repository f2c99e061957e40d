import type { Client } from '@temporalio/client';
import type { Sequelize } from 'sequelize';
import type { Campaign } from '../../db/models';
import type { campaignWorkflow } from '../../../workflows/campaign/workflow';
import { campaignWorkflowId } from '../../../workflows/campaign/contract';
import { insertCampaign, type NewCampaign } from '../campaign-repository';
import { countAudience, storedAudience } from '../planning/audience-match';
import { TEMPORAL_CALL_MS } from './temporal-deadline';
import { workflowInputOf } from './workflow-input';

export interface StartDeps {
  readonly sequelize: Sequelize;
  readonly temporal: Client;
  readonly taskQueue: string;
}

/**
 * Stores the campaign (status starting) and starts its workflow, in that order inside one
 * transaction: if Temporal refuses the start, the row is rolled back and nothing half-exists.
 * (If the commit fails after the start, the workflow finds no row and fails on its first write.)
 * The audience's matching reachable leads are counted once first (planning refreshes the count).
 */
export async function startCampaign(deps: StartDeps, fields: NewCampaign): Promise<Campaign> {
  return deps.sequelize.transaction(async (transaction) => {
    const counted = await countAudience(deps.sequelize, fields.accountId, storedAudience(fields.audienceFilters ?? null, fields.audienceSource ?? 'all_leads'));
    const campaign = await insertCampaign({ ...fields, audienceMatchedLeads: counted.matchedLeads, audienceReason: counted.reason }, transaction);
    await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, () =>
      deps.temporal.workflow.start<typeof campaignWorkflow>('campaignWorkflow', {
        taskQueue: deps.taskQueue,
        workflowId: campaignWorkflowId(campaign.id),
        args: [workflowInputOf(campaign)],
      }),
    );
    return campaign;
  });
}
