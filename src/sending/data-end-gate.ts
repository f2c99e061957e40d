import { Transform, pipeline, type Readable } from 'node:stream';
import type Mail from 'nodemailer/lib/mailer';

/**
 * Runs when the message's last byte has been handed to the SMTP connection and before the
 * terminating dot is, with the moment the transaction began (MAIL FROM). The dot waits for the
 * returned promise: a rejection aborts the transaction (the connection is closed without the dot,
 * so the server discards what it received).
 */
export type DataEndHook = (transactionStartedAt: Date) => Promise<void>;

/**
 * The one moment of an SMTP transaction that decides what a crash means. A server can accept a
 * message only after the terminating `<CRLF>.<CRLF>` of its data; until then a dropped connection
 * discards it. So an email whose end of data was recorded durably BEFORE the dot went out is the
 * only kind whose fate is unknown after a crash; every other unfinished one was certainly not
 * accepted (docs/reliability.md).
 *
 * nodemailer pipes the message stream into the connection's data stream only after the server's
 * 354 answer to DATA, and writes the dot when that stream ends. The gate is the last stage of the
 * message stream (after DKIM signing, which reads its whole input before it writes), with a
 * one-byte buffer: its end, and so the dot, comes only after its reader has taken everything
 * else and the hook has resolved.
 *
 * Hooks are registered per Message-ID for the duration of one sendMail; a message without a hook
 * goes through untouched.
 */
export class DataEndGates {
  private readonly hooks = new Map<string, DataEndHook>();

  /** Installs `hook` for the message with this Message-ID header; call the returned function when its send has settled. */
  register(messageId: string, hook: DataEndHook): () => void {
    this.hooks.set(messageId, hook);
    return () => {
      if (this.hooks.get(messageId) === hook) this.hooks.delete(messageId);
    };
  }

  /** The nodemailer 'stream' plugin that puts the gate on each registered message. */
  readonly plugin: Mail.PluginFunction = (mail, done) => {
    const messageId = mail.data.messageId;
    const hook = messageId === undefined ? undefined : this.hooks.get(messageId);
    if (hook !== undefined) {
      const node = mail.message;
      const original = node.createReadStream.bind(node);
      // The pool calls this once it has a connection for the message, right before MAIL FROM
      // (again if it has to requeue the message on another connection).
      node.createReadStream = (options?: Parameters<typeof original>[0]): Readable => {
        const startedAt = new Date();
        return pipeline(original(options), gate(() => hook(startedAt)), () => undefined);
      };
    }
    done();
  };
}

function gate(atEnd: () => Promise<void>): Transform {
  return new Transform({
    readableHighWaterMark: 1,
    writableHighWaterMark: 1,
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, chunk);
    },
    flush(callback) {
      atEnd().then(
        () => callback(),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    },
  });
}
