import type { Client } from '@temporalio/client';
import type { InferCreationAttributes, Sequelize } from 'sequelize';
import { newId } from '../accounts/ids';
import { Campaign } from '../db/models';
import type { campaignWorkflow } from '../../workflows/campaign/workflow';
import { campaignWorkflowId } from '../../workflows/campaign/contract';
import { TEMPORAL_CALL_MS } from './temporal-deadline';
import { workflowInputOf } from './workflow-input';

/** A campaign as the API stores it (either surface); the row's columns, camelCase. */
type Attrs = InferCreationAttributes<Campaign>;
type Required = 'accountId' | 'createdVia' | 'name' | 'mcp' | 'targetUrl';
export type NewCampaign = Pick<Attrs, Required> & Partial<Omit<Attrs, Required | 'id' | 'status' | 'createdAt' | 'updatedAt'>>;

export interface StartDeps {
  readonly sequelize: Sequelize;
  readonly temporal: Client;
  readonly taskQueue: string;
}

/**
 * Stores the campaign (status starting) and starts its workflow, in that order inside one
 * transaction: if Temporal refuses the start, the row is rolled back and nothing half-exists.
 * (If the commit fails after the start, the workflow finds no row and fails on its first write.)
 */
export async function startCampaign(deps: StartDeps, fields: NewCampaign): Promise<Campaign> {
  return deps.sequelize.transaction(async (transaction) => {
    const campaign = await Campaign.create({ ...fields, id: newId('cmp'), status: 'starting' }, { transaction });
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
