import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/**
 * Where a transaction is when the chaos run may strike: `rcpt` is before the end of the data (the
 * server cannot have accepted the message), `data-end` is after it (the server is committing the
 * message and will answer 250, whether or not the client is still there to read it).
 */
export type SmtpStage = 'rcpt' | 'data-end';

export interface StageEvent {
  readonly stage: SmtpStage;
  readonly to: readonly string[];
  readonly at: number;
}

/** A message the server committed: counted here, whatever became of the client. */
export interface AcceptedMessage {
  /** The Message-ID header as written, angle brackets included; null when the message had none. */
  readonly messageId: string | null;
  readonly to: readonly string[];
  /** When the transaction began (MAIL FROM). */
  readonly startedAt: number;
  readonly acceptedAt: number;
  /** The client had closed its connection before the server answered (it never saw the 250). */
  readonly clientGone: boolean;
}

interface Transaction {
  readonly startedAt: number;
  readonly delayMs: number;
  committing: boolean;
  gone: boolean;
}

/**
 * A deliberately slow SMTP relay on 127.0.0.1, the service's SMTP_URL in a chaos run. It takes one
 * transaction at a time (others wait at MAIL FROM, as at a relay with a single slot), spends half
 * of each message's delay between RCPT TO and the data and the other half between the end of the
 * data and its 250 (a relay filtering and queueing the message), and counts every message it
 * commits by its Message-ID header. The delay of each message is `delayMs` times 0.5 to 1.5, drawn
 * from `random`.
 */
export class SlowSmtpServer {
  readonly accepted: AcceptedMessage[] = [];
  private readonly transactions = new Map<string, Transaction>();
  private holder: string | null = null;
  private readonly queue: Array<{ readonly id: string; readonly grant: () => void }> = [];
  private readonly stageWaiters = new Set<(e: StageEvent) => void>();
  private readonly acceptWaiters = new Set<(m: AcceptedMessage) => void>();

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(delayMs: number, random: () => number): Promise<SlowSmtpServer> {
    const holder: { smtp?: SlowSmtpServer } = {};
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onMailFrom: (_address, session, callback) => void holder.smtp?.onMailFrom(session, delayMs * (0.5 + random())).then(() => callback()),
      onRcptTo: (_address, session, callback) => void holder.smtp?.onRcptTo(session).then(() => callback()),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        let ended = false;
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', () => undefined);
        stream.on('close', () => {
          // Cut off before the end of the data: nothing was accepted, the slot is free again.
          if (!ended) holder.smtp?.release(session.id);
        });
        stream.on('end', () => {
          ended = true;
          void holder.smtp?.commit(session, Buffer.concat(chunks)).then((n) => callback(null, `queued as chaos-${n}`));
        });
      },
      onClose: (session) => holder.smtp?.onClose(session),
    });
    server.on('error', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const smtp = new SlowSmtpServer(server, (server.server.address() as AddressInfo).port);
    holder.smtp = smtp;
    return smtp;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** A transaction holds the slot or waits for it. */
  busy(): boolean {
    return this.holder !== null || this.queue.length > 0;
  }

  /** Resolves at the next event of `stage` (null after `timeoutMs`), synchronously enough to strike inside its window. */
  nextStage(stage: SmtpStage, timeoutMs: number): Promise<StageEvent | null> {
    return new Promise((resolve) => {
      const listener = (e: StageEvent): void => {
        if (e.stage !== stage) return;
        done(e);
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      const done = (e: StageEvent | null): void => {
        clearTimeout(timer);
        this.stageWaiters.delete(listener);
        resolve(e);
      };
      this.stageWaiters.add(listener);
    });
  }

  /** The first message accepted whose transaction began at or after `since` (null after `timeoutMs`). */
  acceptedSince(since: number, timeoutMs: number): Promise<AcceptedMessage | null> {
    const already = this.accepted.find((m) => m.startedAt >= since);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve) => {
      const listener = (m: AcceptedMessage): void => {
        if (m.startedAt >= since) done(m);
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      const done = (m: AcceptedMessage | null): void => {
        clearTimeout(timer);
        this.acceptWaiters.delete(listener);
        resolve(m);
      };
      this.acceptWaiters.add(listener);
    });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async onMailFrom(session: SMTPServerSession, delayMs: number): Promise<void> {
    await this.acquire(session.id);
    this.transactions.set(session.id, { startedAt: Date.now(), delayMs, committing: false, gone: false });
  }

  private async onRcptTo(session: SMTPServerSession): Promise<void> {
    const tx = this.transactions.get(session.id);
    this.emit({ stage: 'rcpt', to: session.envelope.rcptTo.map((r) => r.address), at: Date.now() });
    await sleep((tx?.delayMs ?? 0) / 2);
  }

  private async commit(session: SMTPServerSession, raw: Buffer): Promise<number> {
    const tx = this.transactions.get(session.id);
    const to = session.envelope.rcptTo.map((r) => r.address);
    if (tx !== undefined) tx.committing = true;
    this.emit({ stage: 'data-end', to, at: Date.now() });
    const [parsed] = await Promise.all([simpleParser(raw).catch(() => null), sleep((tx?.delayMs ?? 0) / 2)]);
    const message: AcceptedMessage = {
      messageId: parsed?.messageId ?? null,
      to,
      startedAt: tx?.startedAt ?? Date.now(),
      acceptedAt: Date.now(),
      clientGone: tx?.gone ?? false,
    };
    this.accepted.push(message);
    this.transactions.delete(session.id);
    this.release(session.id);
    for (const w of [...this.acceptWaiters]) w(message);
    return this.accepted.length;
  }

  private onClose(session: SMTPServerSession): void {
    const tx = this.transactions.get(session.id);
    if (tx !== undefined) tx.gone = true;
    // A message being committed keeps the slot until it is queued; anything else frees it now.
    if (tx?.committing !== true) {
      this.transactions.delete(session.id);
      this.release(session.id);
    }
  }

  private acquire(id: string): Promise<void> {
    if (this.holder === null || this.holder === id) {
      this.holder = id;
      return Promise.resolve();
    }
    return new Promise((grant) => this.queue.push({ id, grant }));
  }

  private release(id: string): void {
    const waiting = this.queue.findIndex((q) => q.id === id);
    if (waiting >= 0) this.queue.splice(waiting, 1);
    if (this.holder !== id) return;
    const next = this.queue.shift();
    this.holder = next?.id ?? null;
    next?.grant();
  }

  private emit(e: StageEvent): void {
    for (const w of [...this.stageWaiters]) w(e);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
