import { QueryTypes, type Sequelize } from 'sequelize';
import type { WriteEmailInput } from '../../writing/types';

/** What every email of a batch shares: the campaign's own words and the company it speaks for. */
export interface BatchContext {
  readonly brandId: string | null;
  readonly campaign: WriteEmailInput['campaign'];
  readonly company: WriteEmailInput['company'];
}

interface CampaignRow {
  name: string;
  brand_id: string | null;
  target_audience: string | null;
  target_outcome: string | null;
  value_for_target: string | null;
  calendar_link: string | null;
  sender_names: Array<string | null>;
}

interface CompanyRow {
  name: string | null;
  domain: string;
  description: string | null;
  industry_keywords: string[];
}

/**
 * Reads the campaign row (null when it is not the account's) and the scraped company. The sender
 * name is the `from_name` of the account's mailbox when it has exactly one active mailbox (the
 * email will come from it, so it signs as that person); with several, an email may leave from any
 * of them, and with none from the operator's default address: no name, and the writers sign as
 * the company's team.
 */
export async function readBatchContext(sequelize: Sequelize, accountId: string, campaignId: string, companyId: string | null): Promise<BatchContext | null> {
  const [row] = await sequelize.query<CampaignRow>(
    `SELECT c.name, c.brand_id, c.target_audience, c.target_outcome, c.value_for_target, c.calendar_link,
            ARRAY(SELECT m.from_name FROM mailboxes m WHERE m.account_id = c.account_id AND m.active LIMIT 2) AS sender_names
       FROM campaigns c WHERE c.id = $1 AND c.account_id = $2`,
    { bind: [campaignId, accountId], type: QueryTypes.SELECT },
  );
  if (row === undefined) return null;
  let company: BatchContext['company'] = null;
  if (companyId !== null) {
    const [co] = await sequelize.query<CompanyRow>(`SELECT name, domain, description, industry_keywords FROM companies WHERE id = $1 AND account_id = $2`, {
      bind: [companyId, accountId],
      type: QueryTypes.SELECT,
    });
    if (co !== undefined) company = { name: co.name, domain: co.domain, description: co.description, industryKeywords: co.industry_keywords };
  }
  const senderName = row.sender_names.length === 1 ? (row.sender_names[0] ?? null) : null;
  return {
    brandId: row.brand_id,
    campaign: {
      name: row.name,
      targetAudience: row.target_audience,
      targetOutcome: row.target_outcome,
      valueForTarget: row.value_for_target,
      senderName,
      calendarLink: row.calendar_link,
    },
    company,
  };
}
