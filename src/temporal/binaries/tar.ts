import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Minimal streaming reader for the ustar/GNU/pax archives published on temporal.download. We need exactly one file
 * out of one archive, so a ~100-line reader beats adding a dependency or requiring a `tar` executable.
 */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(): Promise<boolean> {
    const next = await this.source.next();
    if (next.done) return false;
    this.buf = this.buf.length ? Buffer.concat([this.buf, next.value]) : next.value;
    return true;
  }

  /** Exactly `n` bytes, or `undefined` at end of input. */
  async read(n: number): Promise<Buffer | undefined> {
    while (this.buf.length < n) if (!(await this.fill())) return undefined;
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** Streams the next `n` bytes to `sink` chunk by chunk (a CLI binary is ~100 MB: no need to hold it). */
  async forward(n: number, sink: (chunk: Buffer) => Promise<void>): Promise<void> {
    let left = n;
    while (left > 0) {
      if (!this.buf.length && !(await this.fill())) throw new Error('truncated tar archive');
      const take = Math.min(left, this.buf.length);
      await sink(this.buf.subarray(0, take));
      this.buf = this.buf.subarray(take);
      left -= take;
    }
  }
}

function cString(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

function octal(block: Buffer, start: number, length: number): number {
  const text = cString(block, start, length).trim();
  const value = text ? parseInt(text, 8) : 0;
  if (!Number.isFinite(value)) throw new Error('corrupt tar header');
  return value;
}

function normalize(name: string): string {
  return name.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

const padding = (size: number): number => (512 - (size % 512)) % 512;

/**
 * Extracts the entry named `entryName` (path inside the archive, leading "./" ignored) from a gzip'ed tarball into
 * `destFile` with mode 0755. Returns false when the archive has no such entry.
 */
export async function extractTarGzEntry(archiveFile: string, entryName: string, destFile: string): Promise<boolean> {
  const gunzip = zlib.createGunzip();
  // pipeline (not .pipe) so that a read error on the file also fails the gunzip stream we iterate.
  pipeline(createReadStream(archiveFile), gunzip, () => undefined);
  const iterator = gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const reader = new ByteReader(iterator);
  const wanted = normalize(entryName);
  let longName: string | undefined;
  try {
    for (;;) {
      const header = await reader.read(512);
      if (!header || header.every((b) => b === 0)) return false;
      const size = octal(header, 124, 12);
      const type = String.fromCharCode(header[156] ?? 0x30);
      const prefix = cString(header, 345, 155);
      const name = longName ?? (prefix ? `${prefix}/${cString(header, 0, 100)}` : cString(header, 0, 100));
      longName = undefined;

      if (type === 'L' || type === 'x') {
        // GNU long name / pax extended header: they describe the *next* entry.
        const body = (await reader.read(size + padding(size))) ?? Buffer.alloc(0);
        const text = body.subarray(0, size).toString('utf8');
        longName = type === 'L' ? text.replace(/\0+$/, '') : /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text)?.[1];
        continue;
      }
      const isFile = type === '0' || type === '\0' || type === '7';
      if (isFile && normalize(name) === wanted) {
        const out = await fs.open(destFile, 'w', 0o755);
        try {
          await reader.forward(size, async (chunk) => {
            await out.write(chunk);
          });
        } finally {
          await out.close();
        }
        await fs.chmod(destFile, 0o755);
        return true;
      }
      await reader.forward(size + padding(size), () => Promise.resolve());
    }
  } finally {
    await iterator.return?.();
    gunzip.destroy();
  }
}
