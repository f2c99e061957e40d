import { createHash } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { newId } from '../accounts/ids';
import type { Egress } from '../egress';
import { catchUpAfterSuccess } from './catch-up';
import { envelopeBody } from './envelope';
import { TEST_EVENT_KIND } from './event-kinds';
import { postWebhook } from './post-webhook';
import { signingSecrets, webhookSettings } from './webhook-settings-repository';
import { signedHeaders } from './signing';
import { normalizeWebhookUrl, webhookUrlProblem } from './webhook-url';

/** Why no test event was sent: no URL to send it to, or a URL webhooks may not go to. */
export class TestEventRefused extends Error {
  override readonly name = 'TestEventRefused';
  constructor(
    readonly reason: 'no_url' | 'bad_url',
    message: string,
  ) {
    super(message);
  }
}

/** What the one attempt came to (the dashboard shows it as it is). */
export interface TestEventResult {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly url: string;
  /** The receiver answered 2xx within 10 seconds. */
  readonly delivered: boolean;
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: string | null;
}

export interface TestEventDeps {
  readonly sequelize: Sequelize;
  readonly egress: Egress;
  /** ALLOW_LOOPBACK_EGRESS: whether a plain-http loopback URL is acceptable. */
  readonly allowLoopback: boolean;
}

export const TEST_EVENT_MESSAGE = 'Test event from the campaign outreach service: your endpoint received and can verify it.';

/**
 * Sends a `webhook.test` event to `url` (or, without one, the account's global URL) and waits for
 * the answer: one signed POST, exactly like a real event's first attempt, and never retried — the
 * caller is looking at the result and can press the button again.
 *
 * The event is written to the outbox already dispatched, so the dispatcher never posts it. Its
 * delivery and attempt are written in one statement after the answer, already delivered or
 * failed: a test delivery is never `pending`, so no dispatcher can take it over and no retry
 * workflow starts; a crash during the POST leaves only a dispatched outbox row nobody posts.
 *
 * A 2xx is the URL answering again like any other: the account's failed deliveries to it are sent
 * again, oldest first (catch-up.ts). A failed test event itself is never resent.
 */
export async function sendTestEvent(deps: TestEventDeps, accountId: string, requestedUrl?: string): Promise<TestEventResult> {
  const settings = await webhookSettings(deps.sequelize, accountId);
  const url = chooseUrl(requestedUrl, settings.url, deps.allowLoopback);
  const eventId = newId('evt');
  const [event] = await deps.sequelize.query<{ created_at: Date; data: Record<string, unknown> }>(
    `INSERT INTO outbox (id, account_id, campaign_id, event, data, created_at, dispatched_at)
     VALUES ($1, $2, NULL, $3, $4::jsonb, now(), now()) RETURNING created_at, data`,
    { bind: [eventId, accountId, TEST_EVENT_KIND, JSON.stringify({ message: TEST_EVENT_MESSAGE, requested_at: new Date().toISOString() })], type: QueryTypes.SELECT },
  );
  if (event === undefined) throw new Error(`test event ${eventId} was not written`);
  // The body from the stored row, as the delivery log rebuilds it: what the log shows is what was sent.
  const body = envelopeBody({ id: eventId, event: TEST_EVENT_KIND, createdAt: event.created_at, campaignId: null, data: event.data });
  const at = new Date();
  const outcome = await postWebhook(deps.egress, url, body, signedHeaders(body, eventId, at, signingSecrets(settings, at)));

  // The same id the dispatcher would derive for this (event, URL) pair.
  const deliveryId = `whd_${createHash('sha256').update(`${eventId} ${url}`).digest('hex').slice(0, 16)}`;
  await deps.sequelize.query(
    `WITH delivery AS (
       INSERT INTO webhook_deliveries (id, account_id, event_id, event, campaign_id, url, status, cycle, attempt_count,
                                       last_attempt_at, last_status_code, last_error, delivered_at, failed_at, created_at, event_at)
       VALUES ($1, $2, $3, $4, NULL, $5, CASE WHEN $6::boolean THEN 'delivered' ELSE 'failed' END, 1, 1,
               $7::timestamptz, $8::int, $9::text,
               CASE WHEN $6::boolean THEN $7::timestamptz + $10::int * interval '1 millisecond' END,
               CASE WHEN NOT $6::boolean THEN $7::timestamptz + $10::int * interval '1 millisecond' END,
               $11::timestamptz, $11::timestamptz)
       RETURNING id
     )
     INSERT INTO webhook_attempts (delivery_id, number, cycle, attempted_at, duration_ms, status_code, error, succeeded)
     SELECT id, 1, 1, $7::timestamptz, $10::int, $8::int, $9::text, $6::boolean FROM delivery`,
    {
      bind: [
        deliveryId,
        accountId,
        eventId,
        TEST_EVENT_KIND,
        url,
        outcome.ok,
        outcome.attemptedAt.toISOString(),
        outcome.statusCode,
        outcome.error,
        outcome.durationMs,
        event.created_at.toISOString(),
      ],
    },
  );
  // The endpoint answers again: what it missed is sent, oldest first (catch-up.ts).
  if (outcome.ok) await catchUpAfterSuccess(deps.sequelize, accountId, url);
  return { deliveryId, eventId, url, delivered: outcome.ok, statusCode: outcome.statusCode, durationMs: outcome.durationMs, error: outcome.error };
}

function chooseUrl(requested: string | undefined, globalUrl: string | null, allowLoopback: boolean): string {
  if (requested === undefined) {
    if (globalUrl === null) throw new TestEventRefused('no_url', 'No webhook URL: give url, or set the global URL in the webhook settings first');
    return globalUrl;
  }
  const problem = webhookUrlProblem(requested, allowLoopback);
  if (problem !== null) throw new TestEventRefused('bad_url', `url ${problem}`);
  return normalizeWebhookUrl(requested);
}
