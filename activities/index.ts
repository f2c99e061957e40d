import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config/config';
import type { Logger } from '../src/log/logger';
import { emitCampaignEvents } from './campaigns/emit-events';
import { planLeads } from './campaigns/plan-leads';
import { prepareCampaign } from './campaigns/prepare-campaign';
import { recordCampaignTransition } from './campaigns/record-transition';
import { sendCampaignBatch } from './campaigns/send-batch';
import { scrapeCompany } from './companies/scrape-company';
import { findLeadsActivity } from './leads/find-leads';
import { sendEmail } from './sending/send-email';
import { writeEmail } from './writing/write-email';
import { attemptWebhookDelivery } from './webhooks/attempt-delivery';
import { markWebhookDeliveryFailed } from './webhooks/mark-failed';
import { runWebhookDispatcher } from './webhooks/run-dispatcher';
import type { RetryStarter } from '../src/webhooks/retry/retry-starter';

/** What activities need from the worker process. Tests hand in their own. */
export interface ActivityDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
  /** Starts webhook retry workflows (the worker's Temporal client); the dispatcher needs it. */
  readonly retries?: RetryStarter;
  /** Aborted when the worker begins to stop: long-running activities finish up and return. */
  readonly stopping?: AbortSignal;
}

/** Builds the activity implementations the worker registers (names are the workflow's contract). */
export function createActivities(deps: ActivityDeps) {
  return {
    recordCampaignTransition: recordCampaignTransition(deps.sequelize),
    emitCampaignEvents: emitCampaignEvents(deps.sequelize),
    prepareCampaign: prepareCampaign(deps),
    planLeads: planLeads(deps),
    sendCampaignBatch: sendCampaignBatch(deps),
    scrapeCompany: scrapeCompany(deps),
    findLeads: findLeadsActivity(deps),
    sendEmail: sendEmail(deps),
    writeEmail: writeEmail(deps),
    runWebhookDispatcher: runWebhookDispatcher(deps),
    attemptWebhookDelivery: attemptWebhookDelivery(deps),
    markWebhookDeliveryFailed: markWebhookDeliveryFailed(deps.sequelize),
  };
}

export type CampaignActivities = ReturnType<typeof createActivities>;
/** Every activity the worker registers. */
export type Activities = ReturnType<typeof createActivities>;
/** What the campaign workflow proxies: its proxies are typed from the implementations. */
export type CampaignWorkflowActivities = Pick<Activities, 'recordCampaignTransition' | 'emitCampaignEvents' | 'prepareCampaign' | 'planLeads' | 'sendCampaignBatch'>;
/** What the webhook workflows (dispatcher, delivery retries) proxy. */
export type WebhookWorkflowActivities = Pick<Activities, 'runWebhookDispatcher' | 'attemptWebhookDelivery' | 'markWebhookDeliveryFailed'>;
