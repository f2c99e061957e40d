import type { Sequelize } from 'sequelize';
import { attemptRows, listDeliveries, type DeliveryFilter, type DeliveryOrder, type DeliverySummary } from '../../../webhooks/delivery-repository';
import { TEST_EVENT_KIND } from '../../../webhooks/event-kinds';
import { shownTime, type ShownTime } from './format';

/**
 * The webhook delivery log as the dashboard shows it: the same listing as GET
 * /v1/webhook-deliveries (listDeliveries, newest first or oldest event first) with each delivery's attempts (as GET
 * /v1/webhook-deliveries/:id has them), shaped for templates/account/deliveries-table.eta. The
 * webhooks page shows the account's log; the campaign page shows one campaign's
 * (campaignDeliveries).
 */

export interface AttemptRowView {
  readonly number: number;
  readonly at: ShownTime;
  /** `HTTP 200`, or `no answer` when the receiver never answered. */
  readonly outcome: string;
  readonly error: string | null;
  readonly succeeded: boolean;
  readonly durationMs: number;
}

export interface DeliveryRowView {
  readonly id: string;
  readonly event: string;
  readonly campaignId: string | null;
  readonly url: string;
  readonly status: DeliverySummary['status'];
  readonly created: ShownTime;
  readonly attempts: readonly AttemptRowView[];
  readonly nextAttempt: ShownTime | null;
  readonly lastError: string | null;
  /** Resend is offered for a settled delivery that is not a test event (what resendDelivery accepts). */
  readonly resendable: boolean;
  /** Failed and waiting for its URL: sent again, oldest event first, when the URL next answers 2xx (catch-up.ts). */
  readonly resendsOnRecovery: boolean;
}

export interface DeliveryLogPage {
  readonly deliveries: readonly DeliveryRowView[];
  readonly total: number;
}

async function withAttempts(sequelize: Sequelize, d: DeliverySummary): Promise<DeliveryRowView> {
  const attempts = await attemptRows(sequelize, d.id);
  return {
    id: d.id,
    event: d.event,
    campaignId: d.campaignId,
    url: d.url,
    status: d.status,
    created: shownTime(d.createdAt),
    attempts: attempts.map((a) => ({
      number: a.number,
      at: shownTime(a.attempted_at),
      outcome: a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`,
      error: a.error,
      succeeded: a.succeeded,
      durationMs: a.duration_ms,
    })),
    nextAttempt: d.status === 'retrying' || d.status === 'pending' ? shownTime(d.nextAttemptAt) : null,
    lastError: d.lastError,
    resendable: (d.status === 'delivered' || d.status === 'failed') && d.event !== TEST_EVENT_KIND,
    resendsOnRecovery: d.resendsOnRecovery,
  };
}

/** One page (from 1) of the account's deliveries matching `filter`, newest first or oldest event first, each with its attempts. */
export async function deliveryLogPage(
  sequelize: Sequelize,
  accountId: string,
  filter: DeliveryFilter,
  page: number,
  perPage: number,
  order: DeliveryOrder = 'newest',
): Promise<DeliveryLogPage> {
  const { deliveries, total } = await listDeliveries(sequelize, accountId, filter, page, perPage, order);
  // A page holds at most perPage deliveries: one small indexed read of attempts each.
  return { deliveries: await Promise.all(deliveries.map((d) => withAttempts(sequelize, d))), total };
}

/**
 * The latest `limit` deliveries of one campaign of the account, newest first, for the campaign
 * page's "webhook deliveries" (render them with the partial `/account/deliveries-table`). Another
 * account's campaign has none here: the listing is scoped to `accountId`.
 */
export async function campaignDeliveries(sequelize: Sequelize, accountId: string, campaignId: string, limit: number): Promise<DeliveryLogPage> {
  return deliveryLogPage(sequelize, accountId, { campaignId }, 1, limit);
}
