import { pipeline, Transform, type Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Sequelize } from 'sequelize';
import { openExportRows, type ExportRow } from '../../../campaigns/reporting/export-rows';
import type { Logger } from '../../../log/logger';
import type { ExportFormat } from './schemas-a';

/** A column of an export file: its CSV header and JSON key, and its value in a row. */
export interface ExportColumn<R> {
  readonly header: string;
  readonly value: (row: R) => unknown;
}

const column = <K extends keyof ExportRow>(header: string, key: K): ExportColumn<ExportRow> => ({ header, value: (row) => row[key] });

/** The campaign export's columns, in file order: CSV headers and JSON keys alike. New columns go last, so files read by position keep working. */
export const EXPORT_COLUMNS: ReadonlyArray<ExportColumn<ExportRow>> = [
  column('occurred_at', 'occurredAt'),
  column('event', 'event'),
  column('email_id', 'emailId'),
  column('lead_email', 'leadEmail'),
  column('lead_name', 'leadName'),
  column('company', 'company'),
  column('step', 'step'),
  column('subject', 'subject'),
  column('message_id', 'messageId'),
  column('url', 'url'),
  column('reply_sentiment', 'replySentiment'),
  column('reply_category', 'replyCategory'),
  column('reply_preview', 'replyPreview'),
  column('bounce_reason', 'bounceReason'),
  column('variant', 'variant'),
  column('lead_custom_fields', 'leadCustomFields'),
];

/** CSV records in column order: arrays, so a header such as `custom.plan` is never read as a path into the row. */
function csvRecords<R>(columns: ReadonlyArray<ExportColumn<R>>): Transform {
  return new Transform({
    objectMode: true,
    transform(row: R, _encoding, done) {
      done(null, columns.map((c) => c.value(row)));
    },
  });
}

function csvFormatter<R>(columns: ReadonlyArray<ExportColumn<R>>): Transform {
  return stringify({
    header: true,
    columns: columns.map((c, i) => ({ key: String(i), header: c.header })),
    // A text cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP "CSV
    // injection"): one starting with =, +, -, @, their full-width forms (＝ ＋ － ＠, which some
    // spreadsheets read as the ASCII ones), a tab or a carriage return. Reply previews, names and
    // subjects come from strangers, and so do a lead's custom fields. Numbers (step) are left alone.
    escape_formulas: true,
    // An object (a lead's custom fields) is one cell of JSON text.
    cast: { object: (value) => JSON.stringify(value) },
  });
}

/** A JSON array written one object per line, so it is valid JSON when complete, empty or not. */
function jsonFormatter<R>(columns: ReadonlyArray<ExportColumn<R>>): Transform {
  let first = true;
  return new Transform({
    writableObjectMode: true,
    transform(row: R, _encoding, done) {
      const record: Record<string, unknown> = {};
      for (const c of columns) record[c.header] = c.value(row);
      done(null, `${first ? '[\n' : ',\n'}${JSON.stringify(record)}`);
      first = false;
    },
    flush(done) {
      done(null, first ? '[]\n' : '\n]\n');
    },
  });
}

export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/**
 * The response body: rows formatted as they arrive. Koa pipes it to the socket with backpressure,
 * so the cursor reads only as fast as the client downloads; if the client goes away, Koa destroys
 * this stream and the pipeline destroys the rows, which returns their connection to the pool.
 * An error once bytes are out cannot become an error status: the download is cut short instead
 * (a truncated file, never a complete-looking one) and the cause is logged as `what` failing.
 */
export function formattedExport<R>(rows: Readable, format: ExportFormat, columns: ReadonlyArray<ExportColumn<R>>, log: Logger, what: string): Readable {
  const done = (err: NodeJS.ErrnoException | null): void => {
    if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') log.error({ err }, `${what} failed mid-stream`);
  };
  return format === 'csv' ? pipeline(rows, csvRecords(columns), csvFormatter(columns), done) : pipeline(rows, jsonFormatter(columns), done);
}

/** The campaign export's body (formattedExport with EXPORT_COLUMNS). */
export function exportBody(rows: Readable, format: ExportFormat, log: Logger): Readable {
  return formattedExport(rows, format, EXPORT_COLUMNS, log, 'campaign export');
}

/** `acme-q4-outreach-cmp_…`: the campaign's name made safe for a file name, then its id. */
export function exportFileName(name: string, campaignId: string, format: ExportFormat): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug === '' ? 'campaign' : slug}-${campaignId}.${format}`;
}

/**
 * A campaign's export as a download, for GET /campaigns/:id/export and the campaign page's
 * buttons: the rows are opened last, since from then on the stream owns a pooled connection until
 * Koa has sent or dropped it.
 */
export async function campaignExport(
  sequelize: Sequelize,
  c: { readonly id: string; readonly name: string },
  format: ExportFormat,
  log: Logger,
): Promise<{ body: Readable; headers: Record<string, string> }> {
  const rows = await openExportRows(sequelize, c.id);
  return {
    body: exportBody(rows, format, log),
    headers: {
      'Content-Type': EXPORT_CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="${exportFileName(c.name, c.id, format)}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  };
}
