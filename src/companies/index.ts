// Company scraping: fetch a site through the egress client, extract what it says about the company, store it.
export { companyRecord, type CompanyRecord } from './company-view';
export { findCompany, saveCompany } from './company-repository';
export { scrapeCompany, type ScrapedCompany } from './scrape';
export { BLOCKED_MESSAGE, ScrapeError, type ScrapeFailureKind } from './scrape-error';
export { companyDomain, siteUrl } from './site-url';
export type { SocialLinks, SocialNetwork } from './extract/social-links';
