import { parseBlocklistValue } from '../../../blocklist/blocklist-entry';
import { BLOCKLIST_EXPORT_FIELDS, openBlocklistExport, type BlocklistExportRow } from '../../../blocklist/blocklist-export';
import { importBlocklistCsv } from '../../../blocklist/blocklist-import';
import { withSpooledUpload } from '../../../blocklist/upload-spool';
import { addEntries, listBlocklist, removeEntry, type BlocklistItemType, type NewEntry } from '../../../blocklist/blocklist-repository';
import { uploadBody } from '../../../leads/import/upload-body';
import { badRequest, notFound, payloadTooLarge } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { EXPORT_CONTENT_TYPES, formattedExport, type ExportColumn } from '../campaigns/export-file';
import { answeringBlocklistErrors } from './errors';
import {
  BlocklistAddBody,
  BlocklistAddResult,
  BlocklistExportQuery,
  BlocklistIdParams,
  BlocklistImportResult,
  BlocklistListQuery,
  BlocklistListResponse,
  MAX_ENTRIES_PER_CALL,
} from './schemas';

/** Largest CSV upload, as for leads: read as a stream, so it bounds the import's time, not memory. */
export const MAX_BLOCKLIST_CSV_BYTES = 50 * 1024 * 1024;

const ACCOUNT_LEVEL =
  'Account-level, like /v1/leads: on Surface B only. Campaigns of the account never email a blocked address, nor any address at a blocked ' +
  'domain or one of its subdomains; the check runs when leads are planned and again when an email is reserved.';

const listEntries = defineRoute({
  method: 'get',
  path: '/v1/blocklist',
  auth: 'b',
  operationId: 'listBlocklist',
  summary: "The account's blocklist, newest first, and on request its suppression list",
  description:
    `${ACCOUNT_LEVEL} Without \`type\` or \`include\`, the entries (addresses and domains). \`include=suppressions\` adds the suppression ` +
    'list (unsubscribes, bounces, complaints), read-only, each with its cause; `type=suppression` shows it alone. `q` and `source` narrow the list.',
  tags: ['blocklist'],
  query: BlocklistListQuery,
  responses: { 200: { description: 'A page of the list', schema: BlocklistListResponse } },
  handler: async ({ query }, { deps, auth }) => {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? query.per_page ?? 20;
    const types = new Set<BlocklistItemType>(
      query.type !== undefined ? [query.type] : query.include === 'suppressions' ? ['address', 'domain', 'suppression'] : ['address', 'domain'],
    );
    const { items, total } = await listBlocklist(deps.sequelize, auth.accountId, { types, q: query.q, source: query.source }, page, perPage);
    return { body: { items, pagination: { page, perPage, total } } };
  },
});

const addToBlocklist = defineRoute({
  method: 'post',
  path: '/v1/blocklist',
  auth: 'b',
  operationId: 'addToBlocklist',
  summary: 'Block addresses or domains',
  description:
    `${ACCOUNT_LEVEL} \`{value, reason?}\` or \`{entries: [...], reason?}\` with up to ${MAX_ENTRIES_PER_CALL} values. A value is an email ` +
    'address (RFC 5322; "Ada <ada@example.com>" is read as its address) or a domain ("example.com", "@example.com", "*.example.com", a website ' +
    'address; a leading "www." is dropped; an international name is stored in punycode). A public suffix ("com", "co.uk") or a single-label ' +
    'name is refused. Valid values are added (a value already listed is reported as such and keeps its first reason); invalid ones are listed ' +
    'with their error. When no value is valid the answer is a 400.',
  tags: ['blocklist'],
  body: BlocklistAddBody,
  responses: { 200: { description: 'What was added', schema: BlocklistAddResult } },
  handler: async ({ body }, { deps, auth }) => {
    if ((body.value === undefined) === (body.entries === undefined)) throw badRequest('body must have either value or entries (not both)');
    const given = body.entries ?? [body.value as string];
    const field = body.entries === undefined ? 'body.value' : 'body.entries';
    const valid: NewEntry[] = [];
    const errors: Array<{ index: number; value: string; error: string }> = [];
    given.forEach((item, index) => {
      const value = typeof item === 'string' ? item : item.value;
      const parsed = parseBlocklistValue(value);
      if (parsed.ok) valid.push({ ...parsed.entry, reason: (typeof item === 'string' ? undefined : item.reason) ?? body.reason ?? null });
      else errors.push({ index, value, error: parsed.error });
    });
    if (valid.length === 0) {
      const named = errors.slice(0, 3).map((e) => (body.entries === undefined ? `${field}: ${e.error}` : `${field}[${e.index}]: ${e.error}`));
      throw badRequest(`${named.join('; ')}${errors.length > 3 ? `; and ${errors.length - 3} more` : ''}`);
    }
    const entries = await addEntries(deps.sequelize, auth.accountId, valid, 'user');
    const added = entries.filter((e) => e.status === 'added').length;
    return { body: { added, duplicates: valid.length - added, invalid: errors.length, entries, errors } };
  },
});

const removeFromBlocklist = defineRoute({
  method: 'delete',
  path: '/v1/blocklist/:id',
  auth: 'b',
  operationId: 'removeFromBlocklist',
  summary: 'Unblock: remove one entry',
  description: 'Suppressions (unsubscribes, bounces, complaints) are not removed here.',
  tags: ['blocklist'],
  params: BlocklistIdParams,
  responses: { 204: { description: 'Removed' } },
  errors: [404],
  handler: async ({ params }, { deps, auth }) => {
    if (!(await removeEntry(deps.sequelize, auth.accountId, params.id))) throw notFound('Blocklist entry not found');
    return { status: 204, body: null };
  },
});

const importBlocklist = defineRoute({
  method: 'post',
  path: '/v1/blocklist/import',
  auth: 'b',
  operationId: 'importBlocklist',
  summary: 'Import addresses and domains from a CSV file',
  description:
    `${ACCOUNT_LEVEL} One value per row, in the column named value, email (or "Email Address") or domain, else the first column; a file ` +
    'whose first row is already an address or a domain has no header. A column named reason is kept as each entry\'s note. Values are read as ' +
    'POST /v1/blocklist reads them; an invalid row is skipped and reported with the line it starts on, values already listed (or repeated) ' +
    'count as duplicates. The export (GET /v1/blocklist/export) imports back as it is. The file is received whole before its rows are read (so a ' +
    'slow import never holds the upload past the server\'s request timeout); one that breaks off or passes 50 MB adds nothing.',
  tags: ['blocklist'],
  rawBody: { contentTypes: ['text/csv'], mode: 'stream', maxBytes: MAX_BLOCKLIST_CSV_BYTES, description: 'A CSV file (UTF-8, comma-separated), at most 50 MB.' },
  responses: { 200: { description: 'What the import did', schema: BlocklistImportResult } },
  handler: async (_input, { deps, auth, koa }) => {
    // A declared size over the limit is refused before a byte is read; an undeclared one is counted as it streams.
    if (koa.request.length !== undefined && koa.request.length > MAX_BLOCKLIST_CSV_BYTES) throw payloadTooLarge('50 MB');
    const result = await answeringBlocklistErrors(() =>
      withSpooledUpload(uploadBody(koa.req), MAX_BLOCKLIST_CSV_BYTES, (file) => importBlocklistCsv(deps.sequelize, auth.accountId, file)),
    );
    return { body: result };
  },
});

const EXPORT_COLUMNS: ReadonlyArray<ExportColumn<BlocklistExportRow>> = BLOCKLIST_EXPORT_FIELDS.map((field) => ({ header: field, value: (row) => row[field] }));

const exportBlocklist = defineRoute({
  method: 'get',
  path: '/v1/blocklist/export',
  auth: 'b',
  operationId: 'exportBlocklist',
  summary: 'Download the blocklist as CSV or JSON',
  description:
    `An attachment named \`blocklist-<account-id>.csv|json\`, oldest first, columns ${BLOCKLIST_EXPORT_FIELDS.join(', ')}; ` +
    '`include=suppressions` adds the suppression list with its cause. Streamed as it is read; a download cut short by a server error ends ' +
    'without its closing bytes. In CSV a cell starting with =, +, -, @, tab or carriage return gets a leading apostrophe.',
  tags: ['blocklist'],
  query: BlocklistExportQuery,
  responses: { 200: { description: 'The export file (text/csv, or application/json for format=json)', contentType: 'text/csv', alsoContentTypes: ['application/json'] } },
  handler: async ({ query }, { deps, auth, log }) => {
    const format = query.format ?? 'csv';
    // From here on the stream owns a pooled connection until Koa has sent or dropped it.
    const rows = await openBlocklistExport(deps.sequelize, auth.accountId, query.include === 'suppressions');
    return {
      body: formattedExport(rows, format, EXPORT_COLUMNS, log, 'blocklist export'),
      headers: {
        'Content-Type': EXPORT_CONTENT_TYPES[format],
        'Content-Disposition': `attachment; filename="blocklist-${auth.accountId}.${format}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    };
  },
});

export const blocklistRoutes = [importBlocklist, exportBlocklist, listEntries, addToBlocklist, removeFromBlocklist];
