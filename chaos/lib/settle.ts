import { QueryTypes, type Sequelize } from 'sequelize';
import { WEBHOOK_EVENT_KINDS } from '../../src/webhooks/event-kinds';
import type { ChaosCampaign } from './campaigns';
import type { SlowSmtpServer } from './slow-smtp';
import type { ChaosWebhookReceiver } from './webhook-receiver';

/** Statuses after which the service will not touch a row again today ('deferred' waits for the next sending day). */
const SETTLED = ['sent', 'bounced', 'failed', 'deferred'];
/** No new message for this long, with nothing in flight, after every row settled: the sending is over. */
const QUIET_MS = 5_000;

/**
 * Waits until the sending is over: every expected email has a row in a settled status, the SMTP
 * server has nothing in flight and has accepted nothing for QUIET_MS (a late copy would still
 * come in). Returns false when `timeoutMs` ran out first.
 */
export async function waitForSendingToSettle(sequelize: Sequelize, campaigns: readonly ChaosCampaign[], smtp: SlowSmtpServer, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const expected = campaigns.reduce((n, c) => n + c.leads.length, 0);
  const ids = campaigns.map((c) => c.campaignId);
  while (Date.now() < deadline) {
    const rows = await sequelize
      .query<{ n: number }>(`SELECT count(*)::int AS n FROM emails WHERE campaign_id = ANY($1::text[]) AND step = 0 AND status = ANY($2::text[])`, {
        bind: [ids, SETTLED],
        type: QueryTypes.SELECT,
      })
      .catch(() => [{ n: -1 }]);
    const lastAccepted = smtp.accepted[smtp.accepted.length - 1]?.acceptedAt ?? 0;
    if ((rows[0]?.n ?? 0) >= expected && !smtp.busy() && Date.now() - lastAccepted >= QUIET_MS) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

export interface DeliveredFigures {
  readonly events: number;
  readonly kinds: Readonly<Record<string, number>>;
  readonly delivered: number;
  /** Not delivered by the end of the wait, by the delivery's status. */
  readonly undelivered: Readonly<Record<string, number>>;
}

/**
 * The webhook events of the run's campaigns written before `before` (the kinds a receiver gets),
 * and how many the receiver has taken (a 2xx answer), waiting up to `timeoutMs` for stragglers: a
 * first attempt that failed in a crash is retried a minute later.
 */
export async function webhookEventsDelivered(sequelize: Sequelize, campaigns: readonly ChaosCampaign[], receiver: ChaosWebhookReceiver, before: Date, timeoutMs: number): Promise<DeliveredFigures> {
  const events = await sequelize.query<{ id: string; event: string }>(
    `SELECT id, event FROM outbox WHERE campaign_id = ANY($1::text[]) AND event = ANY($2::text[]) AND created_at < $3`,
    { bind: [campaigns.map((c) => c.campaignId), [...WEBHOOK_EVENT_KINDS], before], type: QueryTypes.SELECT },
  );
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !events.every((e) => receiver.delivered(e.id))) await new Promise((r) => setTimeout(r, 500));
  const kinds: Record<string, number> = {};
  for (const e of events) kinds[e.event] = (kinds[e.event] ?? 0) + 1;
  const missing = events.filter((e) => !receiver.delivered(e.id)).map((e) => e.id);
  const undelivered: Record<string, number> = {};
  if (missing.length > 0) {
    const rows = await sequelize.query<{ event_id: string; status: string }>(`SELECT event_id, status FROM webhook_deliveries WHERE event_id = ANY($1::text[])`, {
      bind: [missing],
      type: QueryTypes.SELECT,
    });
    for (const id of missing) {
      const status = rows.find((r) => r.event_id === id)?.status ?? 'no delivery row';
      undelivered[status] = (undelivered[status] ?? 0) + 1;
    }
  }
  return { events: events.length, kinds, delivered: events.length - missing.length, undelivered };
}
