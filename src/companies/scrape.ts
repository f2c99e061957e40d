import type { Egress } from '../egress';
import { findContactPage } from './extract/contact-page';
import { extractDescription } from './extract/description';
import { extractEmails } from './extract/emails';
import { extractIndustries } from './extract/industries';
import { extractLogo } from './extract/logo';
import { extractName } from './extract/name';
import { extractSocialLinks, type SocialLinks } from './extract/social-links';
import { extractTechnologies } from './extract/technologies';
import { fetchPage, type Page } from './fetch-page';
import { ScrapeError } from './scrape-error';
import { companyDomain, siteUrl } from './site-url';

/** What one scrape found out about a company (before it is stored). */
export interface ScrapedCompany {
  /** The page the facts come from, after redirects. */
  readonly url: string;
  /** The company's key: the host the client asked for, without www. (see companyDomain). */
  readonly domain: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly logoUrl: string | null;
  readonly socialLinks: SocialLinks;
  readonly contactEmails: readonly string[];
  readonly technologies: readonly string[];
  readonly industryKeywords: readonly string[];
}

/**
 * Scrapes a company's site: the home page (`input` may be a bare domain), and, only when that
 * shows no email address, one contact/imprint/about page it links to on the same site. Every
 * fetch goes through the egress client, so at most two requests, each bounded in time and size.
 * Throws ScrapeError when the home page cannot be had; a failing contact page is ignored.
 */
export async function scrapeCompany(egress: Egress, input: string): Promise<ScrapedCompany> {
  const target = siteUrl(input);
  const home = await fetchPage(egress, target);
  const domain = companyDomain(target);
  let contactEmails = extractEmails(home.$);
  let socialLinks = extractSocialLinks(home.$, home.url);
  if (contactEmails.length === 0) {
    const more = await contactPageFacts(egress, home);
    if (more !== null) {
      contactEmails = more.contactEmails;
      socialLinks = { ...more.socialLinks, ...socialLinks };
    }
  }
  return {
    url: home.url.href,
    domain,
    name: extractName(home.$, domain),
    description: extractDescription(home.$),
    logoUrl: extractLogo(home.$, home.url),
    socialLinks,
    contactEmails,
    technologies: extractTechnologies(home),
    industryKeywords: extractIndustries(home.$),
  };
}

async function contactPageFacts(egress: Egress, home: Page): Promise<{ contactEmails: string[]; socialLinks: SocialLinks } | null> {
  const url = findContactPage(home.$, home.url);
  if (url === null) return null;
  try {
    const page = await fetchPage(egress, url);
    return { contactEmails: extractEmails(page.$), socialLinks: extractSocialLinks(page.$, page.url) };
  } catch (err) {
    // The home page answered; a broken contact page only means fewer facts.
    if (err instanceof ScrapeError) return null;
    throw err;
  }
}
