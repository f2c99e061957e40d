/**
 * The campaign workflow's activity proxies, typed from the implementations the worker registers:
 * an activity whose name or input changes there fails the typecheck here.
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { CampaignWorkflowActivities } from '../../activities';

// Database writes, lead search and the variant tests' figures: short (planning a day over 100,000 leads takes tens of
// milliseconds), retried until the database is back. The timeout is what a worker killed in the
// middle of one costs before the retry, so it is kept well under the minute in which sending must
// resume after a crash (docs/reliability.md).
export const { recordCampaignTransition, emitCampaignEvents, planLeads, decideVariantWinners, enrolNewLeads, endLeadSequence, adoptLeadTracks } = proxyActivities<CampaignWorkflowActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});
// Scraping the target: a few attempts, then the campaign goes on without the company's details.
export const { prepareCampaign } = proxyActivities<CampaignWorkflowActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 3, maximumAttempts: 4 },
});
// One sending day's emails. Sends are idempotent per (campaign, lead, step), so a retry resumes
// where the last attempt stopped; a day that cannot finish within 20 hours gives its steps back
// to the next sending day. The batch heartbeats every few seconds whatever it is doing, so a
// worker that died is noticed within the heartbeat timeout and the retry starts on a live worker
// a second later: sending goes on within half a minute of a crash (docs/reliability.md). The
// retries stay frequent (10 s at most apart, so a worker killed again and again does not push the
// next retry further out each time) because what fails a batch is a restart of the database, the
// relay or a worker, each back within seconds.
export const { sendCampaignBatch, sendEnrolledBatch } = proxyActivities<CampaignWorkflowActivities>({
  startToCloseTimeout: '2 hours',
  scheduleToCloseTimeout: '20 hours',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});
// What an Update's handler records before it answers (a user's pause, stop, resume or edit): run as
// local activities, in the worker that runs the handler, so the answer waits for one workflow task
// and the database write, not for the server to schedule and hand out an activity task. Both are
// idempotent (a change is written once under its id), so a task retried on another worker after a
// crash writes nothing twice.
export const { recordCampaignTransition: recordTransitionNow, applyCampaignEdit: applyEditNow } = proxyLocalActivities<CampaignWorkflowActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
});
