import { QueryTypes, type Sequelize } from 'sequelize';
import { envelopeBody } from './envelope';
import { signingSecrets, webhookSettings } from './webhook-settings-repository';
import type { SigningSecrets } from './signing';

/** Everything one attempt of a delivery needs. */
export interface DeliveryJob {
  readonly deliveryId: string;
  readonly cycle: number;
  readonly accountId: string;
  readonly eventId: string;
  readonly event: string;
  readonly url: string;
  /** The exact bytes to post (the same on every attempt). */
  readonly body: string;
  readonly secrets: SigningSecrets;
}

interface Row {
  id: string;
  cycle: number;
  account_id: string;
  url: string;
  event_id: string;
  event: string;
  created_at: Date;
  campaign_id: string | null;
  data: Record<string, unknown>;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * The jobs for these deliveries, in the order given, with the account's signing secrets as of now
 * (a rotation applies to retries too). `only` narrows to deliveries still in that state and cycle,
 * so a retry of a delivery that was resent or settled meanwhile finds nothing to do.
 */
export async function loadDeliveryJobs(sequelize: Sequelize, ids: readonly string[], only?: { status: 'retrying'; cycle: number }): Promise<DeliveryJob[]> {
  if (ids.length === 0) return [];
  const rows = await sequelize.query<Row>(
    `SELECT d.id, d.cycle, d.account_id, d.url, d.event_id, o.event, o.created_at, o.campaign_id, o.data,
            s.secret, s.previous_secret, s.previous_secret_expires_at
       FROM webhook_deliveries d
       JOIN outbox o ON o.id = d.event_id
       LEFT JOIN webhook_settings s ON s.account_id = d.account_id
      WHERE d.id = ANY($1::text[]) AND ($2::text IS NULL OR (d.status = $2 AND d.cycle = $3))`,
    { bind: [ids, only?.status ?? null, only?.cycle ?? 0], type: QueryTypes.SELECT },
  );
  const now = new Date();
  const byId = new Map<string, DeliveryJob>();
  for (const r of rows) {
    // Settings are created on first use; an account that never opened them signs with a fresh secret.
    const settings = r.secret === null ? await webhookSettings(sequelize, r.account_id) : { secret: r.secret, previousSecret: r.previous_secret, previousSecretExpiresAt: r.previous_secret_expires_at };
    byId.set(r.id, {
      deliveryId: r.id,
      cycle: r.cycle,
      accountId: r.account_id,
      eventId: r.event_id,
      event: r.event,
      url: r.url,
      body: envelopeBody({ id: r.event_id, event: r.event, createdAt: r.created_at, campaignId: r.campaign_id, data: r.data }),
      secrets: signingSecrets(settings, now),
    });
  }
  return ids.map((id) => byId.get(id)).filter((j): j is DeliveryJob => j !== undefined);
}
