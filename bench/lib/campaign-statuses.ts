import { QueryTypes, type Sequelize } from 'sequelize';

/** Which campaigns to count: one account's, or those whose ids start with a prefix the bench chose. */
export type CampaignSelection = { readonly accountId: string } | { readonly idPrefix: string };

/** How many of the selected campaigns are in each status (what a scenario waits on while they start). */
export async function campaignStatusCounts(sequelize: Sequelize, which: CampaignSelection): Promise<Record<string, number>> {
  const [where, value] = 'accountId' in which ? ['account_id = $1', which.accountId] : ['id LIKE $1', `${which.idPrefix}%`];
  const rows = await sequelize.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM campaigns WHERE ${where} GROUP BY status`, {
    bind: [value],
    type: QueryTypes.SELECT,
  });
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
