import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from '../log/logger';
import { ingestInbound, UnusableMessage, type InboundDeps } from '../replies/ingest';
import { isDatabaseUnavailable } from './database-errors';
import { secretMatches } from './inbound-secret';
import { INBOUND_MAX_BYTES, INBOUND_SMTP_USER } from './relay-settings';


export interface InboundSmtpOptions extends InboundDeps {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /** Resolves the inbound secret (INBOUND_SECRET or the stored one). */
  readonly secret: () => Promise<string>;
  /** Certificate for STARTTLS; without one STARTTLS is not offered at all. */
  readonly tls?: { readonly key: string | Buffer; readonly cert: string | Buffer };
}

export interface RunningInboundSmtp {
  readonly port: number;
  close(): Promise<void>;
}

class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

function isLoopback(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'loopback';
  } catch {
    return false;
  }
}

async function readMessage(stream: SMTPServerDataStream): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    // Keep draining (the client waits for its answer) but stop keeping what is over the limit.
    if (size <= INBOUND_MAX_BYTES) chunks.push(chunk as Buffer);
  }
  return stream.sizeExceeded || size > INBOUND_MAX_BYTES ? null : Buffer.concat(chunks);
}

/**
 * The SMTP door for replies: a mail relay (the MX, Postfix, a provider's inbound route) hands
 * messages over here and each one goes through the same ingestion as `POST /inbound/mime`.
 * 250 is answered only once the message is stored; a database outage answers 451 so the relay
 * keeps the message and tries again. Loopback clients need no authentication; any other client
 * must AUTH (PLAIN or LOGIN) as `inbound` with the inbound secret. STARTTLS is offered only with a
 * certificate; without one the listener is meant to sit behind the relay on a private network.
 */
export async function startInboundSmtp(opts: InboundSmtpOptions): Promise<RunningInboundSmtp> {
  const log: Logger = opts.log.child({ component: 'inbound-smtp' });
  const server = new SMTPServer({
    name: 'campaign-outreach-inbound',
    banner: 'campaign outreach inbound',
    size: INBOUND_MAX_BYTES,
    authOptional: true,
    allowInsecureAuth: opts.tls === undefined,
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: opts.tls === undefined ? ['STARTTLS'] : [],
    ...(opts.tls ? { key: opts.tls.key, cert: opts.tls.cert } : {}),
    disableReverseLookup: true,
    logger: false,
    // On shutdown, a relay's idle connection is cut after this instead of holding the process.
    closeTimeout: 10_000,
    onAuth: (auth, _session, callback) => {
      opts
        .secret()
        .then((secret) => {
          if (auth.username === INBOUND_SMTP_USER && secretMatches(auth.password, secret)) callback(null, { user: INBOUND_SMTP_USER });
          else callback(new SmtpReply(535, 'Authentication failed'));
        })
        .catch((err: unknown) => {
          log.error({ err }, 'inbound secret unavailable');
          callback(new SmtpReply(454, 'Temporary authentication failure'));
        });
    },
    onMailFrom: (_address, session: SMTPServerSession, callback) => {
      if (session.user === undefined && !isLoopback(session.remoteAddress)) return callback(new SmtpReply(530, 'Authentication required'));
      callback();
    },
    onData: (stream, _session, callback) => {
      readMessage(stream)
        .then(async (raw) => {
          if (raw === null) return callback(new SmtpReply(552, `Message exceeds the maximum size of ${INBOUND_MAX_BYTES} bytes`));
          const outcome = await ingestInbound(opts, raw);
          callback(null, outcome.stored ? `Stored as ${outcome.replyId}` : 'Accepted; it matches no sent email and no account');
        })
        .catch((err: unknown) => {
          if (err instanceof UnusableMessage) return callback(new SmtpReply(550, err.message));
          log[isDatabaseUnavailable(err) ? 'warn' : 'error']({ err }, 'inbound message not stored; the relay will retry');
          callback(new SmtpReply(451, 'Temporary failure storing the message, try again later'));
        });
    },
  });
  server.on('error', (err) => log.error({ err }, 'inbound smtp error'));
  await new Promise<void>((resolve, reject) => {
    const net = server.listen(opts.port, opts.host, () => {
      net.off('error', reject);
      resolve();
    });
    net.once('error', reject);
  });
  const port = (server.server.address() as AddressInfo).port;
  log.info({ host: opts.host, port }, 'inbound smtp listening');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
