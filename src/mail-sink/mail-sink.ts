import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { Logger } from '../log/logger';
import { headerValue } from './header-value';

/** A message the sink accepted. */
export interface SunkMessage {
  readonly from: string;
  readonly to: readonly string[];
  /** The message exactly as received (headers and body, CRLF line ends). */
  readonly raw: Buffer;
  /** The .eml file it was kept in, or null when the sink keeps nothing on disk. */
  readonly file: string | null;
  readonly receivedAt: Date;
}

/** An SMTP reply that refuses a recipient (e.g. 550 no such user, 451 try again later). */
export interface SmtpRefusal {
  readonly code: number;
  readonly message: string;
}

export interface MailSinkOptions {
  /** Loopback by default: the sink takes mail from this machine only. */
  readonly host?: string;
  /** 0 picks a free port (tests); the worker uses SMTP_SINK_PORT. */
  readonly port: number;
  /** Directory for the .eml files ($DATA_DIR/mail-sink); null keeps nothing on disk. */
  readonly dir: string | null;
  /** Messages kept on disk; the oldest file is deleted beyond it. */
  readonly keep?: number;
  readonly log: Logger;
  /** Refuses a recipient when it returns a reply (tests: bounces and temporary failures). */
  readonly refuseRecipient?: (address: string) => SmtpRefusal | null;
  /** Called for every accepted message, before the client gets its 250. */
  readonly onMessage?: (message: SunkMessage) => void;
}

export interface RunningMailSink {
  readonly port: number;
  /** Stops listening and ends open sessions. */
  close(): Promise<void>;
}

export const DEFAULT_KEEP = 1000;
/** Larger than any email the service composes; a client sending more gets a 552. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The local SMTP sink: where the default transport delivers when SMTP_URL is unset, so a fresh
 * install can run campaigns and nothing leaves the machine. It accepts any sender and recipient
 * (and any login: the default transport sends none, a mailbox configured against it may), keeps
 * the last `keep` messages as .eml files that any mail client opens (each complete, see EmlStore),
 * and logs one line per message.
 */
export async function startMailSink(opts: MailSinkOptions): Promise<RunningMailSink> {
  const keep = opts.keep ?? DEFAULT_KEEP;
  const store = opts.dir === null ? null : await EmlStore.open(opts.dir, keep);
  const server = new SMTPServer({
    // Loopback only and nothing to protect: no TLS, and a login is accepted rather than required.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    size: MAX_MESSAGE_BYTES,
    banner: 'outreach local mail sink (nothing leaves this machine)',
    onAuth: (_auth, _session, callback) => callback(null, { user: 'sink' }),
    onRcptTo: (address: SMTPServerAddress, _session, callback) => {
      const refusal = opts.refuseRecipient?.(address.address) ?? null;
      if (refusal === null) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData: (stream, session, callback) => {
      const receive = async (): Promise<string> => {
        const raw = await readAll(stream);
        if ((stream as Readable & { sizeExceeded?: boolean }).sizeExceeded) {
          throw Object.assign(new Error('Message exceeds the size limit'), { responseCode: 552 });
        }
        const receivedAt = new Date();
        const file = store === null ? null : await store.add(raw, receivedAt);
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        const to = session.envelope.rcptTo.map((r) => r.address);
        opts.log.info({ from, to, messageId: headerValue(raw, 'message-id'), bytes: raw.length, file }, 'mail sink accepted a message');
        opts.onMessage?.({ from, to, raw, file, receivedAt });
        return 'Accepted by the local mail sink';
      };
      // A failure (a full disk) is a 4xx/5xx to the client, never an unhandled rejection here.
      receive().then(
        (reply) => callback(null, reply),
        (err: Error) => callback(err),
      );
    },
  });
  server.on('error', (err) => opts.log.warn({ err }, 'mail sink connection error'));
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      reject(err.code === 'EADDRINUSE' ? new Error(`SMTP_SINK_PORT ${opts.port} is already in use: set another SMTP_SINK_PORT, or SMTP_URL to send elsewhere`) : err);
    };
    server.server.once('error', onError);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => {
      server.server.off('error', onError);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : opts.port;
  // Only once the port is ours: a second sink refused on the port must not delete this one's
  // messages in the middle of being written.
  const leftovers = (await store?.removeLeftovers()) ?? 0;
  opts.log.info({ port, dir: opts.dir, ...(leftovers > 0 ? { removedPartialFiles: leftovers } : {}) }, 'mail sink listening');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readAll(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

/** Where a message is written before it is complete; never ends in .eml, so nothing lists it as a message. */
const PARTIAL_PREFIX = '.partial-';

/**
 * The .eml files, named by arrival (`<UTC time>-<pid>-<sequence>.eml` sorts in arrival order),
 * bounded: adding one beyond `keep` deletes the oldest. Files left by an earlier run count towards it.
 *
 * Each message is written under a temporary name in the same directory, flushed to disk and only
 * then renamed to its .eml name (a rename within a directory is atomic): a crash at any moment
 * leaves either the whole .eml or a temporary file, never an empty or truncated .eml. Temporary
 * files of an earlier run are removed when the sink starts.
 */
class EmlStore {
  private seq = 0;
  /** Marks this store's temporary files, which removeLeftovers must not touch. */
  private readonly token = randomBytes(6).toString('hex');

  private constructor(
    private readonly dir: string,
    private readonly keep: number,
    private readonly files: string[],
  ) {}

  static async open(dir: string, keep: number): Promise<EmlStore> {
    if (!Number.isInteger(keep) || keep < 1) throw new RangeError(`keep must be a positive integer, got ${keep}`);
    await fs.mkdir(dir, { recursive: true });
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
    const store = new EmlStore(dir, keep, files);
    await store.trim();
    return store;
  }

  async add(raw: Buffer, at: Date): Promise<string> {
    this.seq = (this.seq + 1) % 1_000_000;
    const name = `${at.toISOString().replace(/[-:.]/g, '')}-${String(process.pid)}-${String(this.seq).padStart(6, '0')}.eml`;
    const file = path.join(this.dir, name);
    const partial = path.join(this.dir, `${PARTIAL_PREFIX}${this.token}-${name}.tmp`);
    try {
      const handle = await fs.open(partial, 'wx', 0o644);
      try {
        await handle.writeFile(raw);
        // Flushed before the rename, so not even a power cut can leave an .eml without its content.
        // Cheap next to SMTP: some 4,000 flushed writes a second on a small machine's SSD, where
        // pooled nodemailer alone sends about 1,300 emails a second.
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.rename(partial, file);
    } catch (err) {
      await fs.rm(partial, { force: true });
      throw err;
    }
    this.files.push(name);
    await this.trim();
    return file;
  }

  /** Deletes the temporary files a crashed run left behind; returns how many there were. */
  async removeLeftovers(): Promise<number> {
    const own = `${PARTIAL_PREFIX}${this.token}-`;
    const partials = (await fs.readdir(this.dir)).filter((f) => f.startsWith(PARTIAL_PREFIX) && !f.startsWith(own));
    await Promise.all(partials.map((f) => fs.rm(path.join(this.dir, f), { force: true })));
    return partials.length;
  }

  private async trim(): Promise<void> {
    while (this.files.length > this.keep) {
      const oldest = this.files.shift() as string;
      await fs.rm(path.join(this.dir, oldest), { force: true });
    }
  }
}
