import type { Sequelize } from 'sequelize';
import { newId } from '../../../src/accounts/ids';

/** A delivery as the dispatcher leaves it after its attempts (each failed with 500 but the last when delivered). */
export async function seedDelivery(
  sequelize: Sequelize,
  s: { accountId: string; campaignId: string | null; event: string; url: string; status: 'delivered' | 'failed' | 'retrying'; attempts: number; createdAt: Date },
): Promise<string> {
  const eventId = newId('evt');
  await sequelize.query(`INSERT INTO outbox (id, account_id, campaign_id, event, data, created_at, dispatched_at) VALUES ($1, $2, $3, $4, '{}'::jsonb, $5, $5)`, {
    bind: [eventId, s.accountId, s.campaignId, s.event, s.createdAt.toISOString()],
  });
  const id = `whd_${newId('evt').slice(4)}`;
  const at = (n: number) => new Date(s.createdAt.getTime() + n * 60_000).toISOString();
  const lastOk = s.status === 'delivered';
  await sequelize.query(
    `INSERT INTO webhook_deliveries (id, account_id, event_id, event, campaign_id, url, status, cycle, attempt_count, retry_workflow_id, next_attempt_at,
                                     last_attempt_at, last_status_code, last_error, delivered_at, failed_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
    {
      bind: [
        id,
        s.accountId,
        eventId,
        s.event,
        s.campaignId,
        s.url,
        s.status,
        s.attempts,
        s.status === 'retrying' ? `webhook-delivery-${id}-1` : null,
        s.status === 'retrying' ? at(s.attempts + 30) : null,
        at(s.attempts),
        lastOk ? 200 : 500,
        lastOk ? null : 'HTTP 500',
        lastOk ? at(s.attempts) : null,
        s.status === 'failed' ? at(s.attempts) : null,
        s.createdAt.toISOString(),
      ],
    },
  );
  for (let n = 1; n <= s.attempts; n++) {
    const ok = lastOk && n === s.attempts;
    await sequelize.query(
      `INSERT INTO webhook_attempts (delivery_id, number, cycle, attempted_at, duration_ms, status_code, error, succeeded) VALUES ($1, $2, 1, $3, 12, $4, $5, $6)`,
      { bind: [id, n, at(n), ok ? 200 : 500, ok ? null : 'HTTP 500', ok] },
    );
  }
  return id;
}
