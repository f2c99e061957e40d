import { pipeline, Transform, type Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { ExportRow } from '../../../campaigns/reporting/export-rows';
import type { Logger } from '../../../log/logger';
import type { ExportFormat } from './schemas-a';

/** The export's columns, in file order: CSV headers and JSON keys alike. */
export const EXPORT_COLUMNS: ReadonlyArray<{ readonly header: string; readonly key: keyof ExportRow }> = [
  { header: 'occurred_at', key: 'occurredAt' },
  { header: 'event', key: 'event' },
  { header: 'email_id', key: 'emailId' },
  { header: 'lead_email', key: 'leadEmail' },
  { header: 'lead_name', key: 'leadName' },
  { header: 'company', key: 'company' },
  { header: 'step', key: 'step' },
  { header: 'subject', key: 'subject' },
  { header: 'message_id', key: 'messageId' },
  { header: 'url', key: 'url' },
  { header: 'reply_sentiment', key: 'replySentiment' },
  { header: 'reply_category', key: 'replyCategory' },
  { header: 'reply_preview', key: 'replyPreview' },
  { header: 'bounce_reason', key: 'bounceReason' },
];

function csvFormatter(): Transform {
  return stringify({
    header: true,
    columns: EXPORT_COLUMNS.map((c) => ({ key: c.key, header: c.header })),
    // A text cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP "CSV
    // injection"): one starting with =, +, -, @, their full-width forms (＝ ＋ － ＠, which some
    // spreadsheets read as the ASCII ones), a tab or a carriage return. Reply previews, names and
    // subjects come from strangers. Numbers (step) are left alone.
    escape_formulas: true,
  });
}

/** A JSON array written one object per line, so it is valid JSON when complete, empty or not. */
function jsonFormatter(): Transform {
  let first = true;
  return new Transform({
    writableObjectMode: true,
    transform(row: ExportRow, _encoding, done) {
      const record: Record<string, unknown> = {};
      for (const c of EXPORT_COLUMNS) record[c.header] = row[c.key];
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
 * (a truncated file, never a complete-looking one) and the cause is logged.
 */
export function exportBody(rows: Readable, format: ExportFormat, log: Logger): Readable {
  const formatter = format === 'csv' ? csvFormatter() : jsonFormatter();
  return pipeline(rows, formatter, (err) => {
    if (err && (err as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') log.error({ err }, 'campaign export failed mid-stream');
  });
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
