import { decideVariantWinners } from './campaigns/decide-winners';
import { emitCampaignEvents } from './campaigns/emit-events';
import { planLeads } from './campaigns/plan-leads';
import { prepareCampaign } from './campaigns/prepare-campaign';
import { recordCampaignTransition } from './campaigns/record-transition';
import { sendCampaignBatch, sendEnrolledBatch } from './campaigns/send-batch';
import { adoptLeadTracks } from './campaigns/adopt-lead-tracks';
import { applyCampaignEdit } from './campaigns/apply-campaign-edit';
import { endLeadSequence } from './campaigns/end-lead-sequence';
import { enrolNewLeads } from './campaigns/enrol-new-leads';
import type { ActivityDeps } from './deps';
import { markCampaignReportFailed, sendCampaignReport } from './reports/send-report';
import { markServiceEmailFailed, sendStoredServiceEmail } from './service-mail/send-stored-email';
import { attemptWebhookDelivery } from './webhooks/attempt-delivery';
import { markWebhookDeliveryFailed } from './webhooks/mark-failed';
import { runWebhookDispatcher } from './webhooks/run-dispatcher';

export type { ActivityDeps } from './deps';

/**
 * Builds the activity implementations the worker registers: exactly those the workflows proxy
 * (names are the workflows' contract). Each is a thin adapter over a service of src/: it takes
 * the Temporal context (heartbeat, cancellable sleep, the call's name) and maps the service's
 * errors to ApplicationFailures (failures.ts).
 */
export function createActivities(deps: ActivityDeps) {
  return {
    recordCampaignTransition: recordCampaignTransition(deps),
    emitCampaignEvents: emitCampaignEvents(deps),
    prepareCampaign: prepareCampaign(deps),
    planLeads: planLeads(deps),
    sendCampaignBatch: sendCampaignBatch(deps),
    enrolNewLeads: enrolNewLeads(deps),
    sendEnrolledBatch: sendEnrolledBatch(deps),
    endLeadSequence: endLeadSequence(deps),
    adoptLeadTracks: adoptLeadTracks(deps),
    applyCampaignEdit: applyCampaignEdit(deps),
    decideVariantWinners: decideVariantWinners(deps),
    runWebhookDispatcher: runWebhookDispatcher(deps),
    attemptWebhookDelivery: attemptWebhookDelivery(deps),
    markWebhookDeliveryFailed: markWebhookDeliveryFailed(deps),
    sendCampaignReport: sendCampaignReport(deps),
    markCampaignReportFailed: markCampaignReportFailed(deps),
    sendStoredServiceEmail: sendStoredServiceEmail(deps),
    markServiceEmailFailed: markServiceEmailFailed(deps),
  };
}

/** Every activity the worker registers. */
export type Activities = ReturnType<typeof createActivities>;
/** What the campaign workflow proxies: its proxies are typed from the implementations. */
export type CampaignWorkflowActivities = Pick<
  Activities,
  | 'recordCampaignTransition'
  | 'emitCampaignEvents'
  | 'prepareCampaign'
  | 'planLeads'
  | 'sendCampaignBatch'
  | 'decideVariantWinners'
  | 'enrolNewLeads'
  | 'sendEnrolledBatch'
  | 'endLeadSequence'
  | 'adoptLeadTracks'
  | 'applyCampaignEdit'
>;
/** What the webhook workflows (dispatcher, delivery retries) proxy. */
export type WebhookWorkflowActivities = Pick<Activities, 'runWebhookDispatcher' | 'attemptWebhookDelivery' | 'markWebhookDeliveryFailed'>;
/** What the report workflows (the campaign's schedule, a report asked for) proxy. */
export type ReportWorkflowActivities = Pick<Activities, 'sendCampaignReport' | 'markCampaignReportFailed'>;
/** What the service-email workflow (one stored message, e.g. an answer to a lead) proxies. */
export type ServiceMailWorkflowActivities = Pick<Activities, 'sendStoredServiceEmail' | 'markServiceEmailFailed'>;

// Nothing is registered that no workflow proxies: an activity added to createActivities without
// joining one of the sets above fails the typecheck here.
const _everyActivityIsProxied: [Exclude<keyof Activities, keyof CampaignWorkflowActivities | keyof WebhookWorkflowActivities | keyof ReportWorkflowActivities | keyof ServiceMailWorkflowActivities>] extends [never]
  ? true
  : never = true;
