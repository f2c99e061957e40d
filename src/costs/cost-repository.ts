import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { CostCategory } from '../db/models/cost';
import { emitEvent } from '../webhooks/outbox-repository';

export interface CostEntry {
  readonly accountId: string;
  readonly campaignId: string | null;
  readonly category: CostCategory;
  /** Finer than the category: `openai:gpt-4o-mini`, `apollo:people_match`, `smtp`, `builtin:writer`. */
  readonly costName: string;
  /** What it paid for: email-writing, reply-qualification, lead-search, lead-enrichment, email-sending. */
  readonly featureSlug: string;
  readonly brandId?: string | null;
  readonly amountUsd: number;
  readonly quantity?: number;
  readonly details?: Record<string, unknown>;
  /** A retried activity passes the same key and is charged once, e.g. `send:<emailId>`. */
  readonly idempotencyKey: string;
  readonly occurredAt?: Date;
}

/** Records a cost and its `cost.recorded` outbox event. Returns false if the key was already charged. */
export async function recordCost(sequelize: Sequelize, tx: Transaction, c: CostEntry): Promise<boolean> {
  if (!Number.isFinite(c.amountUsd) || c.amountUsd < 0) throw new RangeError(`cost amount must be a non-negative number, got ${c.amountUsd}`);
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO costs (account_id, campaign_id, category, cost_name, feature_slug, brand_id, amount_usd, quantity, details, idempotency_key, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, COALESCE($11::timestamptz, now()))
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
    {
      bind: [
        c.accountId,
        c.campaignId,
        c.category,
        c.costName,
        c.featureSlug,
        c.brandId ?? null,
        c.amountUsd.toFixed(6),
        c.quantity ?? 1,
        JSON.stringify(c.details ?? {}),
        c.idempotencyKey,
        c.occurredAt?.toISOString() ?? null,
      ],
      type: QueryTypes.SELECT,
      transaction: tx,
    },
  );
  if (rows.length === 0) return false;
  await emitEvent(sequelize, tx, {
    accountId: c.accountId,
    campaignId: c.campaignId,
    event: 'cost.recorded',
    data: { category: c.category, cost_name: c.costName, feature_slug: c.featureSlug, amount_usd: c.amountUsd, quantity: c.quantity ?? 1 },
  });
  return true;
}
