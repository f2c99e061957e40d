/** The campaign's leads page's own read: the campaign's heading (name and status), the account's only. */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { CampaignStatus } from '../../../campaigns/model/status';
import { NotFoundError } from '../../../errors/domain-errors';

export interface CampaignHeading {
  readonly id: string;
  readonly name: string;
  readonly status: CampaignStatus;
}

/** The account's campaign, or NotFound (another account's campaign is not found either). */
export async function campaignHeading(sequelize: Sequelize, accountId: string, campaignId: string): Promise<CampaignHeading> {
  const rows = await sequelize.query<CampaignHeading>('SELECT id, name, status FROM campaigns WHERE id = $1 AND account_id = $2', {
    bind: [campaignId, accountId],
    type: QueryTypes.SELECT,
  });
  if (rows[0] === undefined) throw new NotFoundError('campaign');
  return rows[0];
}
