import { Transform, type TransformCallback } from 'node:stream';

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** Bytes that mean nothing to the record structure: everything but quote, comma, CR and LF. */
const ORDINARY = new Uint8Array(256).fill(1);
for (const b of [QUOTE, COMMA, CR, LF]) ORDINARY[b] = 0;

/** A record the guard kept from the parser. */
export interface OversizeRecord {
  /** The line of the file it starts on (the first line is 1). */
  readonly line: number;
  /** Its fields (1 + the commas outside quotes), counted to its end. */
  readonly columns: number;
  /** Whether it is the file's first record, the header. */
  readonly first: boolean;
}

export interface RecordSizeGuardOptions {
  readonly maxRecordBytes: number;
  /** Called at the end of each record over the limit; an error it throws fails the stream. */
  readonly onOversize: (record: OversizeRecord) => void;
}

const lineBreaksOf = (buf: Buffer): Buffer => Buffer.from(buf.filter((b) => b === CR || b === LF));

/**
 * Sits between the upload and csv-parse and keeps any record longer than `maxRecordBytes` from
 * the parser: such a record (a 10 MB row, or an unclosed quote swallowing the file) is reported
 * once, at its end, and the rows after it are read as usual.
 *
 * csv-parse's own `max_record_size` cannot do this with `skip_records_with_error`: once a record
 * passes the size, it reports the error again for every chunk that follows (215 errors for one
 * 10 MB row) and drops those chunks, so the rows after it were lost.
 *
 * The guard follows the parser's reading of the file as configured in import-csv.ts (comma,
 * double quote, quotes doubled inside quotes, relaxed stray quotes, CR, LF or CRLF ends): a quote
 * at the start of a field opens a quoted field, a quote inside it followed by another quote is
 * one quote, any other quote closes it. It holds the bytes of the current record (about the
 * limit at most) until the record ends, then passes them on unchanged; of a record over the
 * limit it passes on only the line breaks, which the parser skips as empty lines, so the line
 * numbers of later rows stay those of the file.
 */
export function recordSizeGuard(opts: RecordSizeGuardOptions): Transform {
  const max = opts.maxRecordBytes;
  let quoting = false;
  let quoteSeen = false; // a quote inside a quoted field: doubled, or the field's end
  let fieldStart = true;
  let afterCr = false;
  let content = false; // the record has a byte besides its line break (else it is an empty line)
  let fileStart = true; // the parser drops a UTF-8 byte order mark before a header's opening quote
  let line = 1;
  let recordLine = 1;
  let columns = 1;
  let records = 0;
  let dropping = false;
  let held: Buffer[] = [];
  let heldBytes = 0;

  const oversize = (): void => opts.onOversize({ line: recordLine, columns, first: records === 0 });

  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      const out: Buffer[] = [];
      // chunk[from..] belongs to the current record and is neither held nor passed on yet.
      let from = 0;
      const take = (end: number): void => {
        if (end <= from) return;
        const part = chunk.subarray(from, end);
        from = end;
        if (dropping) {
          out.push(lineBreaksOf(part));
          return;
        }
        held.push(part);
        heldBytes += part.length;
        if (heldBytes > max + 2) {
          // Over the limit (its line break aside): what was held goes, but for its line breaks, and so will the rest.
          out.push(...held.map(lineBreaksOf));
          held = [];
          heldBytes = 0;
          dropping = true;
        }
      };
      try {
        for (let i = 0; i < chunk.length; i++) {
          const b = chunk[i] as number;
          if (ORDINARY[b] === 1 && !quoteSeen && !fileStart) {
            fieldStart = false;
            afterCr = false;
            content = true;
            continue;
          }
          if (fileStart) {
            fileStart = b === 0xef || b === 0xbb || b === 0xbf;
            if (fileStart) continue;
          }
          const lineBreak = b === LF ? !afterCr : b === CR;
          afterCr = b === CR;
          if (lineBreak) line++;
          if (quoteSeen) {
            quoteSeen = false;
            if (b === QUOTE) continue;
            quoting = false;
          }
          if (quoting) {
            if (b === QUOTE) quoteSeen = true;
            continue;
          }
          if (b === CR || b === LF) {
            // The end of the record (or of an empty line, or the LF of a CRLF).
            take(i + 1);
            if (dropping) oversize();
            else out.push(...held);
            if (content) records++;
            held = [];
            heldBytes = 0;
            dropping = false;
            content = false;
            columns = 1;
            fieldStart = true;
            recordLine = line;
            continue;
          }
          content = true;
          if (b === COMMA) {
            columns++;
            fieldStart = true;
          } else {
            if (b === QUOTE && fieldStart) quoting = true;
            fieldStart = false;
          }
        }
        take(chunk.length);
      } catch (err) {
        done(err as Error);
        return;
      }
      done(null, out.length === 1 ? out[0] : Buffer.concat(out));
    },
    flush(done: TransformCallback) {
      try {
        if (dropping) oversize();
        done(null, dropping ? undefined : Buffer.concat(held));
      } catch (err) {
        done(err as Error);
      }
    },
  });
}
