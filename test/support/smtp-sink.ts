import { simpleParser, type ParsedMail } from 'mailparser';
import { createLogger } from '../../src/log/logger';
import { startMailSink, type SmtpRefusal, type SunkMessage } from '../../src/mail-sink/mail-sink';

/**
 * The service's own local mail sink on 127.0.0.1 (a real SMTP server), holding what it received in
 * memory so tests can count messages and read them parsed by mailparser. `refuse` makes it answer
 * RCPT TO for one address with a given reply (550 for a bounce, 451 for a temporary failure).
 */
export class TestSmtpSink {
  readonly messages: SunkMessage[] = [];
  private readonly refusals = new Map<string, SmtpRefusal>();
  private closeSink: (() => Promise<void>) | undefined;
  port = 0;

  static async start(dir: string | null = null, keep?: number): Promise<TestSmtpSink> {
    const sink = new TestSmtpSink();
    const running = await startMailSink({
      port: 0,
      dir,
      keep,
      log: createLogger('silent', 'test'),
      refuseRecipient: (address) => sink.refusals.get(address.toLowerCase()) ?? null,
      onMessage: (m) => sink.messages.push(m),
    });
    sink.port = running.port;
    sink.closeSink = running.close;
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  refuse(address: string, code: number, message = code >= 500 ? '5.1.1 No such user here' : '4.2.1 Mailbox busy, try again later'): void {
    this.refusals.set(address.toLowerCase(), { code, message });
  }

  accept(address: string): void {
    this.refusals.delete(address.toLowerCase());
  }

  /** The messages received for one address. */
  to(address: string): SunkMessage[] {
    return this.messages.filter((m) => m.to.includes(address));
  }

  parse(m: SunkMessage): Promise<ParsedMail> {
    return simpleParser(m.raw);
  }

  async close(): Promise<void> {
    await this.closeSink?.();
  }
}
