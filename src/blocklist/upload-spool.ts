import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteMeter } from '../leads/import/byte-meter';

/**
 * Runs `use` on an upload read back from a temporary file, once the whole upload is in.
 *
 * Node answers 408 to a request whose body has not all arrived within the server's
 * requestTimeout (60 s). Parsing straight from the socket makes the upload as slow as the inserts
 * behind it, and a million-row file can take longer than that to insert: the client would get a
 * 408 halfway through and nothing imported. Written to disk at the speed it arrives, the body is
 * complete in seconds; memory holds a stream buffer, whatever the file's size. An upload over
 * `maxBytes` (ImportTooLarge) or broken off (the source's error) fails before `use` runs. The
 * file is removed afterwards in every case.
 */
export async function withSpooledUpload<T>(source: Readable, maxBytes: number, use: (file: Readable) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-upload-'));
  try {
    const file = path.join(dir, 'upload.csv');
    await pipeline(source, byteMeter({ maxBytes }), createWriteStream(file));
    return await use(createReadStream(file));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
