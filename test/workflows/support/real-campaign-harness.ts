/**
 * The campaign workflow on the time-skipping server with the real activities (createActivities)
 * against PostgreSQL: for tests that follow stored rows and real emails over simulated days. The
 * campaign's row must exist before the workflow starts (the activities read and write it).
 */
import { randomUUID } from 'node:crypto';
import type { CampaignWorkflowActivities } from '../../../activities';
import { campaignWorkflow } from '../../../workflows';
import { campaignWorkflowId, type CampaignWorkflowInput } from '../../../workflows/campaign/contract';
import { createTestWorker } from '../../support/workflow-worker';
import { CampaignHarness, type CampaignHandle } from './campaign-harness';

export class RealCampaignHarness extends CampaignHarness {
  /**
   * Starts the campaign of `input` and runs `body` while a worker with `activities` serves it on
   * its own task queue. A campaign still running afterwards is terminated, so that its timers do
   * not fire during later tests.
   */
  async realCampaign(input: CampaignWorkflowInput, activities: CampaignWorkflowActivities, body: (handle: CampaignHandle) => Promise<void>): Promise<void> {
    const taskQueue = `tq-real-${randomUUID().slice(0, 8)}`;
    const worker = await createTestWorker(this.env, taskQueue, activities);
    let handle: CampaignHandle | undefined;
    try {
      await worker.runUntil(async () => {
        handle = await this.env.client.workflow.start(campaignWorkflow, { taskQueue, workflowId: campaignWorkflowId(input.campaignId), args: [input] });
        await body(handle);
      });
    } finally {
      if (handle !== undefined) await handle.terminate('test over').catch(() => undefined);
    }
  }
}
