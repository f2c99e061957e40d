import type { Static } from '@sinclair/typebox';
import type { DeliveryDetail as Detail, DeliverySummary } from '../../../webhooks/delivery-repository';
import type { WebhookSettings } from '../../../webhooks/webhook-settings-repository';
import type { TestEventResult } from '../../../webhooks/test-event';
import type { Delivery, DeliveryDetail, TestEventResponse, WebhookSettingsResponse } from './schemas';

/** The stored records as the /v1 endpoints show them: camelCase, timestamps in ISO 8601. */
const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function settingsView(s: WebhookSettings): Static<typeof WebhookSettingsResponse> {
  return {
    url: s.url,
    secret: s.secret,
    previousSecret: s.previousSecret,
    previousSecretExpiresAt: iso(s.previousSecretExpiresAt),
    secretRotatedAt: iso(s.secretRotatedAt),
    updatedAt: s.updatedAt.toISOString(),
  };
}

export function deliveryView(d: DeliverySummary): Static<typeof Delivery> {
  return {
    id: d.id,
    eventId: d.eventId,
    event: d.event as Static<typeof Delivery>['event'],
    campaignId: d.campaignId,
    url: d.url,
    status: d.status,
    cycle: d.cycle,
    attemptCount: d.attemptCount,
    nextAttemptAt: iso(d.nextAttemptAt),
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: iso(d.deliveredAt),
    failedAt: iso(d.failedAt),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    resendsOnRecovery: d.resendsOnRecovery,
  };
}

export function deliveryDetailView(d: Detail): Static<typeof DeliveryDetail> {
  return {
    ...deliveryView(d),
    attempts: d.attempts.map((a) => ({ ...a, attemptedAt: a.attemptedAt.toISOString() })),
    payload: d.payload,
  };
}

export function testEventView(r: TestEventResult): Static<typeof TestEventResponse> {
  return { ...r };
}
