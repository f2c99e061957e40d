import { QueryTypes, type Sequelize } from 'sequelize';
import { saveCompany, scrapeCompany, ScrapeError } from '../../companies';
import type { Egress } from '../../egress';
import { NotFoundError } from '../../errors/domain-errors';

export type PreparedTarget =
  | { readonly companyId: string; readonly scrapeProblem: null }
  /** The target cannot be scraped and trying again would not change that. */
  | { readonly companyId: null; readonly scrapeProblem: string };

/**
 * Scrapes the campaign's target_url, stores the company (upsert by account and domain) and links
 * it to the campaign (`campaigns.company_id`), so the writers speak for it. A failure that a later
 * attempt could undo (timeout, DNS or connection failure, 429, 5xx) is thrown as the ScrapeError;
 * one that would repeat (invalid or private URL, 4xx, not HTML, too large) is returned as the
 * problem, and the campaign goes on without a company. A campaign that is not the account's is
 * NotFoundError('campaign').
 */
export async function prepareTarget(sequelize: Sequelize, egress: Egress, accountId: string, campaignId: string): Promise<PreparedTarget> {
  const rows = await sequelize.query<{ target_url: string }>(`SELECT target_url FROM campaigns WHERE id = $1 AND account_id = $2`, {
    bind: [campaignId, accountId],
    type: QueryTypes.SELECT,
  });
  const targetUrl = rows[0]?.target_url;
  if (targetUrl === undefined) throw new NotFoundError('campaign');

  let scraped;
  try {
    scraped = await scrapeCompany(egress, targetUrl);
  } catch (err) {
    if (err instanceof ScrapeError && !err.retryable) return { companyId: null, scrapeProblem: err.message };
    throw err;
  }
  const company = await saveCompany(sequelize, accountId, scraped);
  await sequelize.query(`UPDATE campaigns SET company_id = $2, updated_at = now() WHERE id = $1`, { bind: [campaignId, company.id] });
  return { companyId: company.id, scrapeProblem: null };
}
