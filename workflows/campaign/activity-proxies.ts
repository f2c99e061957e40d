/**
 * The campaign workflow's activity proxies, typed from the implementations the worker registers:
 * an activity whose name or input changes there fails the typecheck here.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { CampaignWorkflowActivities } from '../../activities';

// Database writes and lead search: short, retried until the database is back.
export const { recordCampaignTransition, emitCampaignEvents, planLeads } = proxyActivities<CampaignWorkflowActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
// Scraping the target: a few attempts, then the campaign goes on without the company's details.
export const { prepareCampaign } = proxyActivities<CampaignWorkflowActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 3, maximumAttempts: 4 },
});
// One sending day's emails. Sends are idempotent per (campaign, lead, step), so a retry resumes
// where the last attempt stopped; a day that cannot finish within 20 hours gives its steps back
// to the next sending day.
export const { sendCampaignBatch } = proxyActivities<CampaignWorkflowActivities>({
  startToCloseTimeout: '2 hours',
  scheduleToCloseTimeout: '20 hours',
  heartbeatTimeout: '5 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes' },
});
