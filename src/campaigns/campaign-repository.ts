/**
 * The campaigns table: the row a create inserts, the lock a draft's start takes,
 * the owned-campaign lookup of every read by id, and the page of an account's campaigns. Every
 * read is scoped by account: another account's campaign is not found, exactly like a missing one
 * (neither is the caller's business), and both throw NotFoundError('campaign').
 */
import { Op, QueryTypes, type InferCreationAttributes, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import { newId } from '../accounts/ids';
import { Campaign } from '../db/models';
import type { CampaignStatus } from '../db/models/campaign';
import { NotFoundError } from '../errors/domain-errors';

type Attrs = InferCreationAttributes<Campaign>;
type Required = 'accountId' | 'createdVia' | 'name' | 'mcp' | 'targetUrl';
/** A campaign as the API stores it (either surface); the row's columns, camelCase. */
export type NewCampaign = Pick<Attrs, Required> & Partial<Omit<Attrs, Required | 'id' | 'status' | 'createdAt' | 'updatedAt'>>;

/**
 * Who a campaign takes and how it treats a person (issue 27), stored on its row: the lead lists
 * its candidates come from (empty: its audience over the account's leads), and the lead-control
 * settings enrolment, planning and sending read.
 */
export interface LeadControl {
  readonly leadListIds: readonly string[];
  readonly allowDuplicateLeads: boolean;
  readonly stopCompanyOnReply: boolean;
  readonly maxFirstEmailsPerDomainPerDay: number | null;
  readonly skipRiskyLeads: boolean;
}

/** The columns' defaults (the migration's): no lists, one sequence per person, stop the company on a reply. */
export const DEFAULT_LEAD_CONTROL: LeadControl = { leadListIds: [], allowDuplicateLeads: false, stopCompanyOnReply: true, maxFirstEmailsPerDomainPerDay: null, skipRiskyLeads: false };

/**
 * Inserts the campaign with a new id, status starting. The lead-control columns are written by
 * the same transaction's second statement: the model does not declare them (raw SQL reads them).
 */
export async function insertCampaign(sequelize: Sequelize, fields: NewCampaign, transaction: Transaction, control: LeadControl = DEFAULT_LEAD_CONTROL): Promise<Campaign> {
  const campaign = await Campaign.create({ ...fields, id: newId('cmp'), status: 'starting' }, { transaction });
  await sequelize.query(
    `UPDATE campaigns SET lead_list_ids = $2::text[], allow_duplicate_leads = $3, stop_company_on_reply = $4, max_first_emails_per_domain_per_day = $5, skip_risky_leads = $6
      WHERE id = $1`,
    {
      bind: [campaign.id, [...new Set(control.leadListIds)], control.allowDuplicateLeads, control.stopCompanyOnReply, control.maxFirstEmailsPerDomainPerDay, control.skipRiskyLeads],
      type: QueryTypes.UPDATE,
      transaction,
    },
  );
  return campaign;
}

/** The campaign `campaignId` if `accountId` owns it. */
export async function ownedCampaign(accountId: string, campaignId: string): Promise<Campaign> {
  const campaign = await Campaign.findOne({ where: { id: campaignId, accountId } });
  if (campaign === null) throw new NotFoundError('campaign');
  return campaign;
}

/** What pause and resume decide on, read under the row's lock. */
export interface LockedCampaign {
  readonly id: string;
  readonly status: CampaignStatus;
  readonly status_reason: string | null;
  readonly started_at: Date | null;
  /** DECIMAL: a string (see toUsd). */
  readonly budget_max_daily_usd: string | null;
  readonly budget_max_weekly_usd: string | null;
  readonly budget_max_monthly_usd: string | null;
}

/** The owned campaign's row, locked FOR UPDATE until `tx` ends. */
export async function lockOwnedCampaign(sequelize: Sequelize, tx: Transaction, accountId: string, campaignId: string): Promise<LockedCampaign> {
  const [row] = await sequelize.query<LockedCampaign>(
    `SELECT id, status, status_reason, started_at, budget_max_daily_usd, budget_max_weekly_usd, budget_max_monthly_usd
       FROM campaigns WHERE id = $1 AND account_id = $2 FOR UPDATE`,
    { bind: [campaignId, accountId], type: QueryTypes.SELECT, transaction: tx },
  );
  if (row === undefined) throw new NotFoundError('campaign');
  return row;
}

/** A campaign as a list shows it: the audience as stored (the count of the last planning, not one per request). */
export type CampaignListRow = Pick<Campaign, 'id' | 'name' | 'status' | 'statusReason' | 'mcp' | 'targetUrl' | 'createdAt' | 'targetAudience' | 'audienceSource' | 'audienceMatchedLeads' | 'audienceReason'>;

export interface CampaignListFilter {
  readonly status?: CampaignStatus;
  readonly mcp?: string;
  /** Words that must each appear in the name, target or audience (case-insensitive, literally: % and _ are not wildcards). */
  readonly search?: string;
  readonly limit: number;
  readonly offset: number;
}

/** A page of the account's campaigns, newest first, and how many match the filter in all. */
export async function campaignListPage(accountId: string, filter: CampaignListFilter): Promise<{ readonly rows: readonly CampaignListRow[]; readonly total: number }> {
  const where: WhereOptions<Campaign> = { accountId };
  if (filter.status !== undefined) Object.assign(where, { status: filter.status });
  if (filter.mcp !== undefined) Object.assign(where, { mcp: filter.mcp });
  const words = (filter.search ?? '').trim().split(/\s+/).filter((w) => w !== '').slice(0, 10);
  if (words.length > 0) {
    Object.assign(where, {
      [Op.and]: words.map((w) => {
        const like = `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return { [Op.or]: [{ name: { [Op.iLike]: like } }, { targetUrl: { [Op.iLike]: like } }, { targetAudience: { [Op.iLike]: like } }, { id: w }] };
      }),
    });
  }
  const { rows, count } = await Campaign.findAndCountAll({
    where,
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: filter.limit,
    offset: filter.offset,
    attributes: ['id', 'name', 'status', 'statusReason', 'mcp', 'targetUrl', 'createdAt', 'targetAudience', 'audienceSource', 'audienceMatchedLeads', 'audienceReason'],
  });
  return { rows, total: count };
}
