/**
 * The event kinds a webhook receiver gets: the spec's nine, `campaign.variant_winner` (a step's
 * variant test decided: the service's own, documented beside them), plus the test event the
 * dashboard (and `POST /v1/webhooks/test`) sends on request. Every other outbox event (email.*,
 * cost.recorded) feeds statistics only and is never posted.
 */
export const WEBHOOK_EVENT_KINDS = [
  'campaign.started',
  'campaign.milestone',
  'campaign.paused',
  'campaign.completed',
  'campaign.budget_warning',
  'campaign.budget_exceeded',
  'budget.warning',
  'reply.received',
  'meeting.booked',
  'campaign.variant_winner',
] as const;

export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** Sent only on request, to one URL, once (no retries): it checks an endpoint, it reports nothing. */
export const TEST_EVENT_KIND = 'webhook.test';

/** Every kind that can appear in the delivery log. */
export const LOGGED_EVENT_KINDS = [...WEBHOOK_EVENT_KINDS, TEST_EVENT_KIND] as const;

export function isWebhookEventKind(event: string): event is WebhookEventKind {
  return (WEBHOOK_EVENT_KINDS as readonly string[]).includes(event);
}
