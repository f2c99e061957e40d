import { MAX_CUSTOM_FIELDS_PER_IMPORT } from '../../../leads/custom-fields';
import { parseEnrichIdentity } from '../../../leads/enrich-identity';
import { enrichLead } from '../../../leads/enrich-lead';
import { MAX_COLUMNS } from '../../../leads/import/columns';
import { importAndVerify } from '../../../leads/import/import-and-verify';
import { MAX_ROW_BYTES } from '../../../leads/import/import-csv';
import { LEAD_EXPORT_FIELDS, openLeadExport, type LeadExportRow } from '../../../leads/lead-export';
import { getLead, listLeads } from '../../../leads/lead-repository';
import { findList } from '../../../leads/lists/list-repository';
import { searchLeads } from '../../../leads/search-leads';
import { verifyLeads } from '../../../leads/verification/verify-leads';
import { NotFoundError } from '../../../errors/domain-errors';
import { notFound } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { EXPORT_CONTENT_TYPES, formattedExport, type ExportColumn } from '../campaigns/export-file';
import { answeringLeadErrors } from './errors';
import { Lead, LeadEnrichBody, LeadExportQuery, LeadIdParams, LeadImportQuery, LeadImportResult, LeadListQuery, LeadListResponse, LeadSearchBody, LeadSearchResponse } from './schemas';

/** Largest CSV upload. Read as a stream, so the limit bounds the time an import takes, not memory. */
export const MAX_CSV_BYTES = 50 * 1024 * 1024;

const importLeads = defineRoute({
  method: 'post',
  path: '/v1/leads/import',
  auth: 'b',
  operationId: 'importLeads',
  idempotent: true,
  summary: "Import leads from a CSV file into the account's lead store",
  description:
    'The first row names the columns (case, spaces and punctuation ignored): email (required; also "E-mail", "Email Address"), first_name, ' +
    'last_name or name, title (or "Job Title"), company (or "Company Name"), company_domain (or website, domain), industry (or "Company Industry"), ' +
    'city, state, country (or location, "Person Location"), linkedin_url, phone, seniority, department (or "Departments"), company size ' +
    '("# Employees", "Employees", "Company Size", "Number of Employees"); the company\'s place ("Company Country", "Company City", ' +
    '"Company Location") stands in for a person without one. The headers of Apollo, Sales Navigator and HubSpot exports are recognised. ' +
    'Every other column is kept with each lead as a custom field, under its header normalised: accents folded, lower case, each run of other ' +
    'characters one "_", at most 40 characters, "col_" before a leading digit, "_2", "_3"... for a name already taken ("Favourite Colour" ' +
    `is favourite_colour); values are text, trimmed, and an empty cell is no value; at most ${MAX_CUSTOM_FIELDS_PER_IMPORT} per import. ` +
    'The answer lists the columns used, the custom ones with their field names, and those ignored (no letter a-z or digit to name a field by, ' +
    'or past the limit). Each lead gets its profile (title, seniority, department, ' +
    'country, city, industry, company size in normalised form) for audience matching. ' +
    'Each row is checked on its own: an invalid row is skipped and reported with the line it starts on; the rest are imported. ' +
    `A row longer than ${MAX_ROW_BYTES / 1024} KB (an unclosed quote?) is one invalid row; a header of more than ${MAX_COLUMNS} columns or longer than ${MAX_ROW_BYTES / 1024} KB is a 400. ` +
    'Addresses the account already has (or that appear twice) are duplicates and leave the stored lead unchanged, custom fields included; ' +
    'suppressed addresses are skipped. ' +
    'The file is received whole before its rows are read (so a slow import never holds the upload past the server\'s request timeout); ' +
    'an upload that breaks off or passes 50 MB imports nothing. ' +
    'Once stored, the new leads are verified (syntax, role address, disposable domain, the domain\'s MX or A records; each domain looked up once) ' +
    'and the answer counts them by verdict (`verification`); see docs/verification.md. ' +
    'With `list_id`, every stored row\'s lead (new or duplicate) is also added to that lead list, in the same transaction, and `addedToList` ' +
    'counts those added; a list id the account does not have is a 404.',
  tags: ['leads'],
  query: LeadImportQuery,
  // Spooled (src/api/http/spooled-upload.ts): the whole file is in, and hashed for an Idempotency-Key, before the import starts.
  rawBody: { contentTypes: ['text/csv'], mode: 'spool', maxBytes: MAX_CSV_BYTES, description: 'A CSV file (UTF-8, comma-separated, header row first), at most 50 MB.' },
  responses: { 200: { description: 'What the import did', schema: LeadImportResult } },
  errors: [404],
  handler: async ({ query, upload }, { deps, auth }) => {
    if (upload === undefined) throw new Error('importLeads declares a spooled body');
    const listId = query.list_id ?? query.listId;
    if (listId !== undefined && (await findList(deps.sequelize, auth.accountId, listId)) === null) throw notFound('Lead list not found');
    const { addedToList, ...result } = await answeringLeadErrors(() => importAndVerify(deps, auth.accountId, upload, { maxBytes: MAX_CSV_BYTES, listId }));
    return { body: listId === undefined ? result : { ...result, addedToList } };
  },
});

const listAccountLeads = defineRoute({
  method: 'get',
  path: '/v1/leads',
  auth: 'b',
  operationId: 'listLeads',
  summary: "The account's stored leads, oldest first (by address within one import)",
  tags: ['leads'],
  query: LeadListQuery,
  responses: { 200: { description: 'A page of leads', schema: LeadListResponse } },
  handler: async ({ query }, { deps, auth }) => {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? query.per_page ?? 20;
    const { leads, total } = await listLeads(deps.sequelize, auth.accountId, page, perPage);
    return { body: { leads, pagination: { page, perPage, total } } };
  },
});

const getAccountLead = defineRoute({
  method: 'get',
  path: '/v1/leads/:id',
  auth: 'b',
  operationId: 'getLead',
  summary: 'One stored lead',
  tags: ['leads'],
  params: LeadIdParams,
  responses: { 200: { description: 'The lead', schema: Lead } },
  errors: [404],
  handler: async ({ params }, { deps, auth }) => {
    const lead = await getLead(deps.sequelize, auth.accountId, params.id);
    if (lead === null) throw new NotFoundError('lead');
    return { body: lead };
  },
});

const verifyLead = defineRoute({
  method: 'post',
  path: '/v1/leads/:id/verify',
  auth: 'b',
  operationId: 'verifyLead',
  summary: "Check one lead's address again now",
  description:
    "Runs every check again (syntax, role address, disposable domain, the domain's MX or A records, asked of DNS now rather than answered " +
    'from the cache) and stores the result; answers the lead with its new `verification`.',
  tags: ['leads'],
  params: LeadIdParams,
  responses: { 200: { description: 'The lead, verified', schema: Lead } },
  errors: [404],
  handler: async ({ params }, { deps, auth }) => {
    await verifyLeads(deps, auth.accountId, [params.id], { fresh: true });
    const lead = await getLead(deps.sequelize, auth.accountId, params.id);
    if (lead === null) throw new NotFoundError('lead');
    return { body: lead };
  },
});

const search = defineRoute({
  method: 'post',
  path: '/v1/leads/search',
  auth: 'b',
  operationId: 'searchLeads',
  summary: 'Search leads by title, location and industry',
  description:
    "Searches Apollo with the account's own key when one is configured (found people are stored as the account's leads; people Apollo shows " +
    "no address for are left out, and total is Apollo's count), otherwise the account's stored leads, matched the way a campaign's audience is: " +
    'by their normalised title, location and industry.',
  tags: ['leads'],
  body: LeadSearchBody,
  responses: { 200: { description: 'A page of matching leads', schema: LeadSearchResponse } },
  errors: [503],
  handler: async ({ body }, { deps, auth }) => {
    const result = await answeringLeadErrors(() =>
      searchLeads(deps, auth.accountId, {
        personTitles: body.person_titles,
        organizationLocations: body.organization_locations,
        organizationIndustries: body.organization_industries,
        page: body.page ?? 1,
        perPage: body.per_page ?? 20,
      }),
    );
    return { body: result };
  },
});

const enrich = defineRoute({
  method: 'post',
  path: '/v1/leads/enrich',
  auth: 'b',
  operationId: 'enrichLead',
  summary: 'Enrich one person: by email, by name and company domain, or by LinkedIn profile',
  description:
    "With the account's Apollo key: Apollo's people match (work emails only), stored as the account's lead and charged as a lead_enrichment " +
    "cost. Without a key: the account's stored lead, free. 404 when nothing matches.",
  tags: ['leads'],
  body: LeadEnrichBody,
  responses: { 200: { description: 'The enriched lead', schema: Lead } },
  errors: [404, 503],
  handler: async ({ body }, { deps, auth }) => {
    const outcome = await answeringLeadErrors(() => enrichLead(deps, auth.accountId, parseEnrichIdentity(body)));
    if (!outcome.found) throw notFound(outcome.reason === 'no_email' ? 'Apollo matched the person but has no email address for them' : 'No match');
    return { body: outcome.lead };
  },
});

/** The lead columns of the export and then one `custom.<name>` column per custom field name of the account. */
function leadExportColumns(customFieldNames: readonly string[]): ReadonlyArray<ExportColumn<LeadExportRow>> {
  return [
    ...LEAD_EXPORT_FIELDS.map((field) => ({ header: field, value: (row: LeadExportRow) => row[field] })),
    ...customFieldNames.map((name) => ({ header: `custom.${name}`, value: (row: LeadExportRow) => row.customFields?.[name] ?? null })),
  ];
}

const exportLeads = defineRoute({
  method: 'get',
  path: '/v1/leads/export',
  auth: 'b',
  operationId: 'exportLeads',
  summary: 'Download every lead of the account as CSV or JSON, custom fields included',
  description:
    'An attachment named `leads-<account-id>.csv|json` with one row per lead, oldest first (by address within one import). Columns (CSV ' +
    `header row, JSON keys): ${LEAD_EXPORT_FIELDS.join(', ')} (seniority, department and companySize as imported), then one ` +
    'column `custom.<name>` per custom field name any lead of the account has, in alphabetical order; a lead without that field has an ' +
    'empty cell (null in JSON). JSON is an array of objects. The file is streamed as it is read; a download cut short by a server error ' +
    'ends without the closing bytes. In CSV, a text cell starting with =, +, -, @, tab or carriage return is prefixed with an apostrophe ' +
    'so spreadsheets do not run it as a formula.',
  tags: ['leads'],
  query: LeadExportQuery,
  responses: { 200: { description: 'The export file (text/csv, or application/json for format=json)', contentType: 'text/csv', alsoContentTypes: ['application/json'] } },
  handler: async ({ query }, { deps, auth, log }) => {
    const format = query.format ?? 'csv';
    // From here on the stream owns a pooled connection until Koa has sent or dropped it.
    const { customFieldNames, rows } = await openLeadExport(deps.sequelize, auth.accountId);
    return {
      body: formattedExport(rows, format, leadExportColumns(customFieldNames), log, 'lead export'),
      headers: {
        'Content-Type': EXPORT_CONTENT_TYPES[format],
        'Content-Disposition': `attachment; filename="leads-${auth.accountId}.${format}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    };
  },
});

// The export is declared before GET /v1/leads/:id, which would otherwise take "export" for an id.
export const leadRoutes = [importLeads, search, enrich, listAccountLeads, exportLeads, getAccountLead, verifyLead];
