/**
 * The tables of sequences: `campaign_sequences` (a campaign's sequence, one row per version, never
 * rewritten), `variant_winners` (a step's variant test, decided once) and `step_skips` (a step
 * passed over for one lead, with the reason). The one module that writes them.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { CampaignSequence, VariantId, WinnerMetric } from '../model/sequence';

/** Stores `sequence` as the campaign's `version` and makes it the one in use. */
export async function insertSequence(sequelize: Sequelize, tx: Transaction, campaignId: string, version: number, sequence: CampaignSequence): Promise<void> {
  await sequelize.query(`INSERT INTO campaign_sequences (campaign_id, version, sequence) VALUES ($1, $2, $3::jsonb)`, {
    bind: [campaignId, version, JSON.stringify(sequence)],
    transaction: tx,
  });
  await sequelize.query(`UPDATE campaigns SET sequence_version = $2 WHERE id = $1`, { bind: [campaignId, version], transaction: tx });
}

/** One version of a campaign's sequence, or null when it has none (a campaign of another account is none). */
export async function readSequence(sequelize: Sequelize, accountId: string, campaignId: string, version?: number): Promise<{ version: number; sequence: CampaignSequence } | null> {
  const [row] = await sequelize.query<{ version: number; sequence: CampaignSequence }>(
    `SELECT s.version, s.sequence FROM campaign_sequences s JOIN campaigns c ON c.id = s.campaign_id
      WHERE s.campaign_id = $1 AND c.account_id = $2 AND s.version = coalesce($3::int, c.sequence_version)`,
    { bind: [campaignId, accountId, version ?? null], type: QueryTypes.SELECT },
  );
  return row ?? null;
}

/** The figures a variant test was decided on, per variant. */
export interface VariantFigures {
  readonly variant: VariantId;
  readonly sent: number;
  readonly delivered: number;
  /** Replies, or positive replies, as the metric counts them (per delivered email). */
  readonly successes: number;
  readonly rate: number;
}

export interface VariantWinner {
  readonly step: number;
  readonly variant: VariantId;
  readonly metric: WinnerMetric;
  readonly decidedAt: Date;
  readonly figures: { readonly variants: readonly VariantFigures[]; readonly pValue: number; readonly confidence: number };
}

/** The decided variant tests of a campaign's sequence version, by step. */
export async function readWinners(sequelize: Sequelize, campaignId: string, version: number): Promise<Map<number, VariantWinner>> {
  const rows = await sequelize.query<{ step: number; variant: VariantId; metric: WinnerMetric; decided_at: Date; figures: VariantWinner['figures'] }>(
    `SELECT step, variant, metric, decided_at, figures FROM variant_winners WHERE campaign_id = $1 AND sequence_version = $2`,
    { bind: [campaignId, version], type: QueryTypes.SELECT },
  );
  return new Map(rows.map((r) => [r.step, { step: r.step, variant: r.variant, metric: r.metric, decidedAt: r.decided_at, figures: r.figures }]));
}

/**
 * Records a decided test, once: returns false when the step already had a winner (a retried
 * activity), so the caller announces it only once.
 */
export async function insertWinner(sequelize: Sequelize, tx: Transaction, campaignId: string, version: number, w: Omit<VariantWinner, 'decidedAt'>, at: Date): Promise<boolean> {
  const rows = await sequelize.query<{ step: number }>(
    `INSERT INTO variant_winners (campaign_id, sequence_version, step, variant, metric, figures, decided_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
     ON CONFLICT DO NOTHING RETURNING step`,
    { bind: [campaignId, version, w.step, w.variant, w.metric, JSON.stringify(w.figures), at.toISOString()], type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.length === 1;
}

/** Records that a step was passed over for a lead (kept as first written when repeated). */
export async function recordSkip(sequelize: Sequelize, skip: { campaignId: string; leadId: string; step: number; variant: VariantId | null; reason: string }): Promise<void> {
  await sequelize.query(
    `INSERT INTO step_skips (campaign_id, lead_id, step, variant, reason) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (campaign_id, lead_id, step) DO NOTHING`,
    { bind: [skip.campaignId, skip.leadId, skip.step, skip.variant, skip.reason.slice(0, 500)] },
  );
}

/** Why the step was passed over for the lead earlier, or null when it was not. */
export async function readSkip(sequelize: Sequelize, campaignId: string, leadId: string, step: number): Promise<{ variant: VariantId | null; reason: string } | null> {
  const [row] = await sequelize.query<{ variant: VariantId | null; reason: string }>(`SELECT variant, reason FROM step_skips WHERE campaign_id = $1 AND lead_id = $2 AND step = $3`, {
    bind: [campaignId, leadId, step],
    type: QueryTypes.SELECT,
  });
  return row ?? null;
}
