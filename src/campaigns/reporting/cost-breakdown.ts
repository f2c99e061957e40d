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

export async function campaignCosts(sequelize: Sequelize, campaignId: string): Promise<CampaignCosts> {
  const rows = await sequelize.query<CampaignCosts>(SQL, { bind: [campaignId], type: QueryTypes.SELECT });
  return rows[0]!;
}
