import { companyRecord, findCompany, saveCompany, scrapeCompany, ScrapeError } from '../../../companies';
import { egressFor } from '../../../egress';
import { NotFoundError } from '../../../errors/domain-errors';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { CompanyIdParams, CompanySchema, ScrapeCompanyBody } from './schemas';

/**
 * A site that cannot be scraped is the client's URL at fault, not our server: the request is a
 * 400 whose message names the cause (private address, timeout, HTTP status, not HTML...).
 */
const scrape = defineRoute({
  method: 'post',
  path: '/v1/company/scrape',
  auth: 'b',
  operationId: 'scrapeCompany',
  summary: 'Scrape a company from its website',
  description:
    'Fetches the page (following up to 5 redirects, within the service\'s egress time and size limits) and, when it shows no ' +
    'email address, one contact or about page it links to. Extracts name, description, logo, social profiles, contact emails, ' +
    'technologies and industries, and stores the company: scraping the same domain again updates it (same id). URLs that point ' +
    'at private, loopback, link-local or other reserved addresses, directly, by DNS or by redirect, are refused (400).',
  tags: ['companies'],
  body: ScrapeCompanyBody,
  responses: { 200: { description: 'The scraped company', schema: CompanySchema } },
  errors: [400],
  handler: async ({ body }, { deps, auth }) => {
    try {
      const scraped = await scrapeCompany(egressFor(deps.config), body.url);
      return { body: companyRecord(await saveCompany(deps.sequelize, auth.accountId, scraped)) };
    } catch (err) {
      if (err instanceof ScrapeError) throw badRequest(err.message);
      throw err;
    }
  },
});

const getCompany = defineRoute({
  method: 'get',
  path: '/v1/company/:id',
  auth: 'b',
  operationId: 'getCompany',
  summary: 'A scraped company by id',
  tags: ['companies'],
  params: CompanyIdParams,
  responses: { 200: { description: 'The company as last scraped', schema: CompanySchema } },
  errors: [404],
  handler: async ({ params }, { auth }) => {
    const company = await findCompany(auth.accountId, params.id);
    if (company === null) throw new NotFoundError('company');
    return { body: companyRecord(company) };
  },
});

export const companyRoutes = [scrape, getCompany];
