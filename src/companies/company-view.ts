import type { Company } from '../db/models';
import type { SocialLinks } from './extract/social-links';

/**
 * A stored company as plain JSON: what `POST /v1/company/scrape` and `GET /v1/company/:id`
 * return. Unknown scalars are null; lists are empty.
 */
export interface CompanyRecord {
  readonly id: string;
  readonly url: string;
  readonly domain: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly logoUrl: string | null;
  readonly socialLinks: SocialLinks;
  readonly contactEmails: string[];
  readonly technologies: string[];
  readonly industryKeywords: string[];
  readonly scrapedAt: string;
}

export function companyRecord(c: Company): CompanyRecord {
  return {
    id: c.id,
    url: c.url,
    domain: c.domain,
    name: c.name,
    description: c.description,
    logoUrl: c.logoUrl,
    socialLinks: c.socialLinks as SocialLinks,
    contactEmails: c.contactEmails,
    technologies: c.technologies,
    industryKeywords: c.industryKeywords,
    scrapedAt: new Date(c.scrapedAt).toISOString(),
  };
}
