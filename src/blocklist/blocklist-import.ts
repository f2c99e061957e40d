import { pipeline, type Readable } from 'node:stream';
import { parse, type CsvError, type Options } from 'csv-parse';
import type { Sequelize } from 'sequelize';
import { byteMeter } from '../leads/import/byte-meter';
import { RecordLines } from '../leads/import/line-numbers';
import { recordSizeGuard } from '../leads/import/record-size-guard';
import { parseBlocklistValue } from './blocklist-entry';
import { insertEntries, type NewEntry } from './blocklist-repository';

/** The CSV cannot be imported at all (empty); nothing was written. */
export class BlocklistImportError extends Error {
  override readonly name = 'BlocklistImportError';
}

export interface BlocklistLineError {
  /** The line of the file the row starts on (the first line is 1). */
  readonly line: number;
  readonly error: string;
}

export interface BlocklistImportResult {
  /** Data rows read (blank lines and the header are not rows). */
  readonly total: number;
  readonly added: number;
  /** Rows already on the list, or repeated in the file. */
  readonly duplicates: number;
  readonly invalid: number;
  /** The first invalid rows, by line; `invalid` counts them all. */
  readonly errors: readonly BlocklistLineError[];
}

export interface BlocklistImportOptions {
  /** Fail with ImportTooLarge beyond this many bytes; unlimited when absent. */
  readonly maxBytes?: number;
  /** Entries per INSERT. */
  readonly chunkSize?: number;
  readonly maxErrors?: number;
}

/** Longest note an entry keeps (the column's CHECK). */
export const MAX_REASON = 500;
/** A row longer than this is one invalid row (an unclosed quote?), as in the lead import. */
const MAX_ROW_BYTES = 16 * 1024;

const CSV_ERRORS: Partial<Record<CsvError['code'], string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed',
  CSV_INVALID_CLOSING_QUOTE: 'unexpected character after a closing quote',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'unexpected character after a closing quote',
  CSV_MAX_RECORD_SIZE: 'row is too long; the rest of the file could not be read',
  INVALID_OPENING_QUOTE: 'a quote inside an unquoted field',
};

const headerName = (cell: string): string => cell.toLowerCase().replace(/[^a-z]/g, '');
const VALUE_HEADERS = ['value', 'email', 'emailaddress', 'domain'];

interface Layout {
  /** Whether the first record is a header (else it is the first entry). */
  readonly header: boolean;
  readonly valueColumn: number;
  readonly reasonColumn: number | null;
}

/**
 * Which column holds the values: the one named value, email (or "Email Address") or domain, in
 * that order of preference; else the first. A first record without such a name whose first cell
 * is itself an address or a domain is data: a plain list of values needs no header.
 */
function layoutOf(first: readonly string[]): Layout {
  const names = first.map(headerName);
  const reason = names.indexOf('reason');
  for (const wanted of VALUE_HEADERS) {
    const at = names.indexOf(wanted);
    if (at >= 0) return { header: true, valueColumn: at, reasonColumn: reason >= 0 ? reason : null };
  }
  const headerless = first[0] !== undefined && parseBlocklistValue(first[0]).ok;
  return { header: !headerless, valueColumn: 0, reasonColumn: !headerless && reason >= 0 ? reason : null };
}

interface ParsedRow {
  readonly record: string[];
  readonly line: number;
}

/**
 * Imports a CSV of addresses and domains into the account's blocklist as it streams in: each row
 * is checked on its own (an invalid one is reported with its line), valid ones are inserted in
 * multi-row statements of `chunkSize` that skip what is already listed. The whole import is one
 * transaction, so an upload that breaks off or passes its size limit adds nothing. A million rows
 * take one chunk of memory, not the file.
 */
export async function importBlocklistCsv(sequelize: Sequelize, accountId: string, source: Readable, opts: BlocklistImportOptions = {}): Promise<BlocklistImportResult> {
  const chunkSize = opts.chunkSize ?? 5000;
  const maxErrors = opts.maxErrors ?? 100;
  const errors: BlocklistLineError[] = [];
  let invalid = 0;
  let unreadable = 0;
  const fail = (line: number, error: string): void => {
    invalid++;
    if (errors.length < maxErrors) errors.push({ line, error });
  };

  const lines = new RecordLines();
  let parserGaveUp = false;
  const guard = recordSizeGuard({
    maxRecordBytes: MAX_ROW_BYTES,
    onOversize: ({ line }) => {
      unreadable++;
      fail(line, `row is longer than ${MAX_ROW_BYTES / 1024} KB (an unclosed quote?)`);
    },
  });
  const options: Options<ParsedRow, string[]> = {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: 2 * MAX_ROW_BYTES,
    on_record: (record: string[], context) => ({ record, line: lines.startOf(context.lines, context.empty_lines) }),
    skip_records_with_error: true,
    on_skip: (err) => {
      if (err?.code === 'CSV_MAX_RECORD_SIZE') {
        if (parserGaveUp) return undefined;
        parserGaveUp = true;
      }
      unreadable++;
      const end = typeof err?.lines === 'number' ? err.lines : 0;
      const empty = typeof err?.empty_lines === 'number' ? err.empty_lines : 0;
      fail(lines.startOf(end, empty), (err && CSV_ERRORS[err.code]) ?? err?.message ?? 'row could not be read');
      return undefined;
    },
  };
  // csv-parse's overloads type on_record's result only for `columns` parsing; the records are ParsedRow.
  const parser = parse(options as unknown as Options);
  // pipeline destroys every stage on an error (too large, aborted upload), so the loop below throws it.
  pipeline(source, byteMeter({ maxBytes: opts.maxBytes }), guard, parser, () => undefined);

  try {
    return await sequelize.transaction(async (tx) => {
      let layout: Layout | undefined;
      let total = 0;
      let added = 0;
      let duplicates = 0;
      let chunk: NewEntry[] = [];
      const flush = async (): Promise<void> => {
        if (chunk.length === 0) return;
        const inserted = await insertEntries(sequelize, tx, accountId, chunk, 'import');
        added += inserted;
        duplicates += chunk.length - inserted;
        chunk = [];
      };

      for await (const item of parser as AsyncIterable<ParsedRow>) {
        if (layout === undefined) {
          layout = layoutOf(item.record);
          if (layout.header) continue;
        }
        if (item.record.every((v) => v.trim() === '')) continue;
        total++;
        const parsed = parseBlocklistValue(item.record[layout.valueColumn] ?? '');
        if (!parsed.ok) {
          fail(item.line, parsed.error);
          continue;
        }
        const reason = layout.reasonColumn === null ? '' : (item.record[layout.reasonColumn] ?? '').trim();
        if (reason.length > MAX_REASON) {
          fail(item.line, `the reason is longer than ${MAX_REASON} characters`);
          continue;
        }
        chunk.push({ ...parsed.entry, reason: reason === '' ? null : reason });
        if (chunk.length >= chunkSize) await flush();
      }
      if (layout === undefined) throw new BlocklistImportError('The CSV is empty: expected one address or domain per row (in a column named value, email or domain, or the first column)');
      await flush();
      total += unreadable;
      return { total, added, duplicates, invalid, errors: [...errors].sort((a, b) => a.line - b.line) };
    });
  } catch (err) {
    parser.destroy();
    throw err;
  }
}
