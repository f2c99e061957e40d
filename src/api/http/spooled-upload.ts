import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import { HttpError } from './errors';
import { formatLimit } from './raw-body';

/** An upload received whole into a temporary file (RawBodySpec mode 'spool'). */
export interface SpooledUpload {
  /** SHA-256 of the body's bytes, hex (the Idempotency-Key's request hash takes it). */
  readonly sha256: string;
  readonly bytes: number;
  /** The body read back from the file, from its start. */
  open(): Readable;
  /** Closes what `open` opened and deletes the file. */
  remove(): Promise<void>;
}

class TooLarge extends Error {}
class Aborted extends Error {}

const tooLarge = (maxBytes: number): HttpError =>
  // The rest of the upload is not read: the connection closes after this answer.
  new HttpError(413, `Request body is larger than ${formatLimit(maxBytes)}`, { Connection: 'close' });

/**
 * Receives the request body into a temporary file at the speed it arrives, counting and hashing
 * it on the way, before any work on it starts:
 * - the body's hash is known before the work (an Idempotency-Key claims its request by it);
 * - the body is complete in seconds, so a slow import never holds the upload past Node's
 *   requestTimeout (60 s, a 408 halfway through), and memory holds a stream buffer whatever its size.
 *
 * A declared length over `maxBytes` is refused unread, an undeclared one as soon as it passes
 * (413, on an intact connection: only our copy of the stream is abandoned, not the request); a
 * client that breaks off is a 400. The file is removed on every failure here, and by `remove`.
 */
export async function spoolUpload(ctx: Context, maxBytes: number): Promise<SpooledUpload> {
  if (ctx.request.length !== undefined && ctx.request.length > maxBytes) throw tooLarge(maxBytes);
  const req = ctx.req;
  const source = new PassThrough();
  req.pipe(source);
  req.once('close', () => {
    if (!req.complete) source.destroy(new Aborted());
  });
  req.once('error', () => source.destroy(new Aborted()));

  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new TooLarge());
      hash.update(chunk);
      done(null, chunk);
    },
  });

  const dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-upload-'));
  const file = path.join(dir, 'body');
  try {
    await pipeline(source, meter, createWriteStream(file));
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    if (err instanceof TooLarge) throw tooLarge(maxBytes);
    if (err instanceof Aborted) throw new HttpError(400, 'The upload was aborted before it was complete');
    throw err;
  }
  const opened: ReadStream[] = [];
  return {
    sha256: hash.digest('hex'),
    bytes,
    open: () => {
      const stream = createReadStream(file);
      opened.push(stream);
      return stream;
    },
    remove: async () => {
      for (const stream of opened) stream.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
