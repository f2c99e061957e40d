import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { generateWebhookSecret } from './secrets';
import type { SigningSecrets } from './signing';

/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** An account's webhook settings (the dashboard's webhook page). */
export interface WebhookSettings {
  readonly accountId: string;
  /** The global URL: receives the events of every campaign of the account. */
  readonly url: string | null;
  readonly secret: string;
  /** The secret before the last rotation, while it still signs (null once its 24 hours are over). */
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: Date | null;
  readonly secretRotatedAt: Date | null;
  readonly updatedAt: Date;
}

interface Row {
  account_id: string;
  url: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  updated_at: Date;
}

const COLUMNS = 'account_id, url, secret, previous_secret, previous_secret_expires_at, secret_rotated_at, updated_at';

function fromRow(r: Row, now: Date): WebhookSettings {
  // An expired previous secret is history, not a setting: it neither signs nor shows.
  const live = r.previous_secret !== null && r.previous_secret_expires_at !== null && r.previous_secret_expires_at > now;
  return {
    accountId: r.account_id,
    url: r.url,
    secret: r.secret,
    previousSecret: live ? r.previous_secret : null,
    previousSecretExpiresAt: live ? r.previous_secret_expires_at : null,
    secretRotatedAt: r.secret_rotated_at,
    updatedAt: r.updated_at,
  };
}

/**
 * The account's settings, created on first use with a fresh secret (insert-or-read in one
 * statement: two processes asking at once agree on one secret). The account must exist.
 */
export async function webhookSettings(sequelize: Sequelize, accountId: string, tx?: Transaction): Promise<WebhookSettings> {
  const rows = await sequelize.query<Row>(
    `WITH ins AS (
       INSERT INTO webhook_settings (account_id, secret) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING RETURNING ${COLUMNS}
     )
     SELECT ${COLUMNS} FROM ins UNION ALL SELECT ${COLUMNS} FROM webhook_settings WHERE account_id = $1 LIMIT 1`,
    { bind: [accountId, generateWebhookSecret()], type: QueryTypes.SELECT, transaction: tx },
  );
  const row = rows[0];
  if (row === undefined) throw new Error(`webhook settings of ${accountId} could not be read`);
  return fromRow(row, new Date());
}

/** Sets (a normalised URL, checked by the caller) or clears (null) the account's global URL. */
export async function setWebhookUrl(sequelize: Sequelize, accountId: string, url: string | null): Promise<WebhookSettings> {
  return sequelize.transaction(async (tx) => {
    await webhookSettings(sequelize, accountId, tx);
    const rows = await sequelize.query<Row>(`UPDATE webhook_settings SET url = $2, updated_at = now() WHERE account_id = $1 RETURNING ${COLUMNS}`, {
      bind: [accountId, url],
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    return fromRow(rows[0] as Row, new Date());
  });
}

/**
 * Replaces the secret with `secret` (checked by the caller) or a generated one. The secret it
 * replaces keeps signing for 24 hours beside the new one, so receivers can switch at their pace; a
 * second rotation within those hours drops the oldest (two secrets sign at most).
 */
export async function rotateWebhookSecret(sequelize: Sequelize, accountId: string, secret: string = generateWebhookSecret()): Promise<WebhookSettings> {
  return sequelize.transaction(async (tx) => {
    await webhookSettings(sequelize, accountId, tx);
    const rows = await sequelize.query<Row>(
      `UPDATE webhook_settings
          SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(secs => $3::double precision / 1000),
              secret = $2, secret_rotated_at = now(), updated_at = now()
        WHERE account_id = $1 RETURNING ${COLUMNS}`,
      { bind: [accountId, secret, ROTATION_OVERLAP_MS], type: QueryTypes.SELECT, transaction: tx },
    );
    return fromRow(rows[0] as Row, new Date());
  });
}

/** What an attempt made at `at` signs with. */
export function signingSecrets(settings: Pick<WebhookSettings, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, at: Date): SigningSecrets {
  const previousLive = settings.previousSecret !== null && settings.previousSecretExpiresAt !== null && settings.previousSecretExpiresAt > at;
  return { current: settings.secret, previous: previousLive ? settings.previousSecret : null };
}
