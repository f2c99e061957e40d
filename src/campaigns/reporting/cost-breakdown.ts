import { QueryTypes, type Sequelize } from 'sequelize';

/** A campaign's recorded costs in USD (rounded to 6 decimals, the precision they are stored with). */
export interface CampaignCosts {
  readonly totalUsd: number;
  readonly aiGenerationUsd: number;
  readonly leadEnrichmentUsd: number;
  readonly emailSendingUsd: number;
}

const SQL = `
SELECT round(coalesce(sum(amount_usd), 0), 6)::float8 AS "totalUsd",
       round(coalesce(sum(amount_usd) FILTER (WHERE category = 'ai_generation'), 0), 6)::float8 AS "aiGenerationUsd",
       round(coalesce(sum(amount_usd) FILTER (WHERE category = 'lead_enrichment'), 0), 6)::float8 AS "leadEnrichmentUsd",
       round(coalesce(sum(amount_usd) FILTER (WHERE category = 'email_sending'), 0), 6)::float8 AS "emailSendingUsd"
  FROM costs
 WHERE campaign_id = $1`;

/** The campaign's costs, all of them or those recorded in [period.start, period.end) (an emailed report's period). */
export async function campaignCosts(sequelize: Sequelize, campaignId: string, period?: { readonly start: Date; readonly end: Date }): Promise<CampaignCosts> {
  const sql = period === undefined ? SQL : `${SQL} AND occurred_at >= $2 AND occurred_at < $3`;
  const bind = period === undefined ? [campaignId] : [campaignId, period.start.toISOString(), period.end.toISOString()];
  const rows = await sequelize.query<CampaignCosts>(sql, { bind, type: QueryTypes.SELECT });
  return rows[0]!;
}
