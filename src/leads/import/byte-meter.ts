import { Transform, type TransformCallback } from 'node:stream';

/** The upload passed its byte limit; nothing of it was imported. */
export class ImportTooLarge extends Error {
  override readonly name = 'ImportTooLarge';
  constructor(readonly maxBytes: number) {
    super(`The CSV is larger than ${Math.round(maxBytes / (1024 * 1024))} MB`);
  }
}

export interface ByteMeterOptions {
  /** Fail the stream with ImportTooLarge as soon as more than this many bytes have passed. */
  readonly maxBytes?: number;
  /** Called with the running total after each chunk (progress bars). */
  readonly onBytes?: (total: number) => void;
}

/**
 * A pass-through stream that counts bytes: the importer's limit on an upload (checked as bytes
 * arrive, not after) and the CLI's progress.
 */
export function byteMeter(opts: ByteMeterOptions = {}): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      total += chunk.length;
      if (opts.maxBytes !== undefined && total > opts.maxBytes) {
        done(new ImportTooLarge(opts.maxBytes));
        return;
      }
      opts.onBytes?.(total);
      done(null, chunk);
    },
  });
}
