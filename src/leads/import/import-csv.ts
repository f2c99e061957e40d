import { pipeline, type Readable } from 'node:stream';
import { parse, type CsvError, type Options } from 'csv-parse';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { suppressedAmong } from '../../suppressions/suppression-repository';
import type { LeadInput } from '../fields';
import { insertNewLeadIds, leadIdsOfAddresses } from '../lead-repository';
import { addLeadsToList } from '../lists/list-repository';
import { LeadListNotFound } from '../lists/list-errors';
import { byteMeter } from './byte-meter';
import { ImportHeaderError, mapHeader, MAX_COLUMNS, tooManyColumns, type ColumnMap } from './columns';
import { RecordLines } from './line-numbers';
import { recordSizeGuard } from './record-size-guard';
import { rowToLead } from './row';

export interface ImportLineError {
  /** The line of the file the row starts on (the header is line 1). */
  readonly line: number;
  readonly error: string;
}

export interface ImportResult {
  /** Data rows read (blank lines are not rows). */
  readonly total: number;
  readonly imported: number;
  /** Rows whose address was already a lead of the account, or appeared earlier in the file. */
  readonly duplicates: number;
  /** Rows whose address is on the account's suppression list. */
  readonly suppressed: number;
  /** Rows that could not be read or did not validate; the first of them are listed in `errors`. */
  readonly invalid: number;
  readonly errors: readonly ImportLineError[];
  /**
   * The header's columns: those that fed a lead field, those kept as custom fields (the header as
   * written and the field's normalised name), and those that fed nothing.
   */
  readonly columns: {
    readonly used: readonly string[];
    readonly custom: ReadonlyArray<{ readonly column: string; readonly field: string }>;
    readonly ignored: readonly string[];
  };
}

export interface ImportOptions {
  /** Fail with ImportTooLarge beyond this many bytes (an HTTP upload); unlimited when absent. */
  readonly maxBytes?: number;
  /** Called with the bytes read so far (the CLI's progress bar). */
  readonly onBytes?: (total: number) => void;
  /** Leads per INSERT (and per suppression lookup). */
  readonly batchSize?: number;
  /** How many line errors the result lists; `invalid` counts them all. */
  readonly maxErrors?: number;
  /**
   * Adds every stored row's lead (new and duplicates, not suppressed) to this list of the account,
   * in the import's transaction; the list is locked against deletion until it commits.
   * LeadListNotFound when the account has no such list.
   */
  readonly listId?: string;
  /** Told the ids of each batch's new leads once they are inserted (not yet committed). */
  readonly onInserted?: (leadIds: readonly string[]) => void;
}

/** What an import into a list adds to ImportResult. */
export interface ListImportResult extends ImportResult {
  /** Leads of the file added to the list (those already in it are not counted). */
  readonly addedToList: number;
}

/** A parsed record and the line of the file it starts on. */
interface ParsedRow {
  readonly record: string[];
  readonly line: number;
}

/**
 * A row (the header included) longer than this many bytes is not read: usually an unclosed quote
 * swallowing the rest of the file. It is one invalid row, reported with its line, and the rows
 * after it are imported (see record-size-guard.ts); a header this long is a 400.
 */
export const MAX_ROW_BYTES = 64 * 1024;

const TOO_LONG = `row is longer than ${MAX_ROW_BYTES / 1024} KB (an unclosed quote?)`;

const CSV_ERRORS: Partial<Record<CsvError['code'], string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed',
  CSV_INVALID_CLOSING_QUOTE: 'unexpected character after a closing quote',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'unexpected character after a closing quote',
  // Only if the guard and the parser ever read a row's end differently: the parser then reads nothing more.
  CSV_MAX_RECORD_SIZE: `${TOO_LONG}; the rest of the file could not be read`,
  INVALID_OPENING_QUOTE: 'a quote inside an unquoted field',
};

/**
 * Imports a CSV of leads into an account's store as it streams in: the header names the columns
 * (see columns.ts; columns that name no lead field are the leads' custom fields), each row is
 * validated on its own (a bad row is skipped and reported with its line, the rest go on), and
 * valid rows are written in batches, each batch checked against the suppression list in one query
 * and inserted in one statement that skips addresses the account already has. Existing leads are never modified: an import adds leads, it does not edit them.
 *
 * The whole import is one transaction: an upload that breaks off or passes its size limit leaves
 * the store as it was, rather than half imported with an error the client cannot act on.
 */
export async function importLeadsCsv(sequelize: Sequelize, accountId: string, source: Readable, opts: ImportOptions = {}): Promise<ListImportResult> {
  const batchSize = opts.batchSize ?? 500;
  const maxErrors = opts.maxErrors ?? 100;
  const errors: ImportLineError[] = [];
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
    onOversize: ({ line, columns, first }) => {
      if (first) throw columns > MAX_COLUMNS ? tooManyColumns(columns) : new ImportHeaderError(`The CSV header is longer than ${MAX_ROW_BYTES / 1024} KB`);
      unreadable++;
      fail(line, TOO_LONG);
    },
  });
  const options: Options<ParsedRow, string[]> = {
    bom: true,
    skip_empty_lines: true,
    // Short rows are fine (exports often drop trailing empty cells); long rows are reported by rowToLead.
    relax_column_count: true,
    // A stray quote inside an unquoted field ("The "Best" Co") is kept as text.
    relax_quotes: true,
    // A backstop only: the guard keeps every longer row from the parser.
    max_record_size: 2 * MAX_ROW_BYTES,
    // Both hooks run as the parser goes, in file order: that is where a record's first line is known.
    on_record: (record: string[], context) => ({ record, line: lines.startOf(context.lines, context.empty_lines) }),
    skip_records_with_error: true,
    on_skip: (err) => {
      // Past its max_record_size the parser reports every later chunk again: one row, once.
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
  pipeline(source, byteMeter({ maxBytes: opts.maxBytes, onBytes: opts.onBytes }), guard, parser, () => undefined);

  try {
    return await sequelize.transaction(async (tx) => {
      let columns: ColumnMap | undefined;
      let total = 0;
      let imported = 0;
      let duplicates = 0;
      let suppressed = 0;
      let addedToList = 0;
      let batch: LeadInput[] = [];
      const listId = opts.listId;
      if (listId !== undefined) await lockList(sequelize, tx, accountId, listId);

      const flush = async (t: Transaction): Promise<void> => {
        if (batch.length === 0) return;
        const blocked = await suppressedAmong(sequelize, t, accountId, batch.map((l) => l.email));
        const allowed = batch.filter((l) => !blocked.has(l.email));
        suppressed += batch.length - allowed.length;
        const inserted = await insertNewLeadIds(sequelize, t, accountId, 'import', allowed);
        imported += inserted.length;
        // ON CONFLICT DO NOTHING skipped the rest: addresses already stored or met earlier in the file.
        duplicates += allowed.length - inserted.length;
        opts.onInserted?.(inserted);
        if (listId !== undefined) {
          const ids = await leadIdsOfAddresses(sequelize, t, accountId, allowed.map((l) => l.email));
          addedToList += await addLeadsToList(sequelize, t, accountId, listId, ids);
        }
        batch = [];
      };

      for await (const item of parser as AsyncIterable<ParsedRow>) {
        if (columns === undefined) {
          columns = mapHeader(item.record);
          continue;
        }
        if (item.record.every((v) => v.trim() === '')) continue;
        total++;
        const outcome = rowToLead(item.record, columns);
        if (!outcome.ok) {
          fail(item.line, outcome.error);
          continue;
        }
        batch.push(outcome.lead);
        if (batch.length >= batchSize) await flush(tx);
      }
      if (columns === undefined) throw new ImportHeaderError('The CSV is empty: expected a header row naming the columns, then one lead per row');
      await flush(tx);
      // Rows the parser itself skipped never reached the loop: they are rows too.
      total += unreadable;
      return {
        total,
        imported,
        duplicates,
        suppressed,
        invalid,
        addedToList,
        errors: [...errors].sort((a, b) => a.line - b.line),
        columns: { used: [...columns.used], custom: columns.custom.map((c) => ({ column: c.column, field: c.field })), ignored: [...columns.ignored] },
      };
    });
  } catch (err) {
    // A failure before the loop ran (no database connection) would leave the source open and unread.
    parser.destroy();
    throw err;
  }
}

/**
 * Holds the list for the import's transaction (a deletion waits for it), or fails with
 * LeadListNotFound: the route checked before reading the upload, but the list may have gone since.
 */
async function lockList(sequelize: Sequelize, tx: Transaction, accountId: string, listId: string): Promise<void> {
  const rows = await sequelize.query('SELECT 1 FROM lead_lists WHERE account_id = $1 AND id = $2 FOR SHARE', { bind: [accountId, listId], type: QueryTypes.SELECT, transaction: tx });
  if (rows.length === 0) throw new LeadListNotFound();
}
