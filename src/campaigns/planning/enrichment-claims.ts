import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * Reports a campaign's enrichment spend to its workflow, each cost exactly once. Revealing a
 * person through the lead provider is charged once per person and campaign (its idempotency key),
 * so "the rows this call inserted" would lose the costs of an attempt that crashed after charging:
 * its retry finds the charges made and inserts nothing. Instead every `lead_enrichment` cost of
 * the campaign that no call has reported yet is claimed by this call (`details.reported_in`), and
 * the claimant gets the sum of everything it claimed, now or in an earlier attempt: a retried
 * activity (same claimant) reports the same costs again, a later call does not see them.
 *
 * One statement: the outer SELECT sees the table as it was before the UPDATE, so the rows claimed
 * now and those claimed before by the same claimant are each summed once.
 */
const CLAIM_SQL = `
WITH claimed AS (
  UPDATE costs SET details = details || jsonb_build_object('reported_in', $2::text)
  WHERE campaign_id = $1 AND category = 'lead_enrichment' AND NOT (details ? 'reported_in')
  RETURNING amount_usd
)
SELECT round(
  COALESCE((SELECT sum(amount_usd) FROM claimed), 0) +
  COALESCE((SELECT sum(amount_usd) FROM costs WHERE campaign_id = $1 AND category = 'lead_enrichment' AND details->>'reported_in' = $2), 0),
  6)::float8 AS usd`;

export async function claimEnrichmentCosts(sequelize: Sequelize, campaignId: string, claimant: string): Promise<number> {
  const rows = await sequelize.query<{ usd: number }>(CLAIM_SQL, { bind: [campaignId, claimant], type: QueryTypes.SELECT });
  return rows[0]?.usd ?? 0;
}
