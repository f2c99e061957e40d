import type { Sequelize } from 'sequelize';
import { newId } from '../accounts/ids';
import { Company } from '../db/models';
import type { ScrapedCompany } from './scrape';

/**
 * Stores a scrape: one row per (account, domain), so scraping a company again updates the same
 * row (same id) with the new facts and `scraped_at`. One statement, so two concurrent scrapes of
 * one domain cannot create two rows.
 */
export async function saveCompany(sequelize: Sequelize, accountId: string, c: ScrapedCompany): Promise<Company> {
  const rows = await sequelize.query(
    `INSERT INTO companies (id, account_id, url, domain, name, description, logo_url, social_links, contact_emails, technologies, industry_keywords, scraped_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now())
     ON CONFLICT (account_id, domain) DO UPDATE SET
       url = EXCLUDED.url, name = EXCLUDED.name, description = EXCLUDED.description, logo_url = EXCLUDED.logo_url,
       social_links = EXCLUDED.social_links, contact_emails = EXCLUDED.contact_emails, technologies = EXCLUDED.technologies,
       industry_keywords = EXCLUDED.industry_keywords, scraped_at = now(), updated_at = now()
     RETURNING *`,
    {
      bind: [
        newId('co'),
        accountId,
        c.url,
        c.domain,
        c.name,
        c.description,
        c.logoUrl,
        JSON.stringify(c.socialLinks),
        JSON.stringify(c.contactEmails),
        JSON.stringify(c.technologies),
        JSON.stringify(c.industryKeywords),
      ],
      model: Company,
      mapToModel: true,
    },
  );
  const row = rows[0];
  if (row === undefined) throw new Error('INSERT ... RETURNING gave no row');
  return row;
}

/** The account's company with this id; another account's id is "not found", like an unknown one. */
export async function findCompany(accountId: string, id: string): Promise<Company | null> {
  return Company.findOne({ where: { id, accountId } });
}

/** The account's scrape of this host (lower case, without `www.`: the key a scrape stores), or null. */
export async function findCompanyByDomain(accountId: string, domain: string): Promise<Company | null> {
  return Company.findOne({ where: { accountId, domain } });
}
