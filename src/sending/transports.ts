import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { SMTPPoolOptions, SMTPPoolSentMessageInfo } from 'nodemailer/lib/smtp-pool';
import { judgeAddress, type AddressPolicy } from '../egress/address-policy';
import { DataEndGates } from './data-end-gate';
import { parseSmtpUrl, type SmtpServer } from './smtp-url';

export type SmtpTransporter = Mail<SMTPPoolSentMessageInfo, SMTPPoolOptions>;

/**
 * Connections per SMTP server. Providers limit concurrent connections per account (often to a
 * handful) and a cold-email mailbox sends a few messages an hour, so nodemailer's default of 5 is
 * the most one mailbox needs; the default transport (a relay or the local sink) shares it too.
 */
export const POOL_MAX_CONNECTIONS = 5;

/** Shorter than nodemailer's defaults (2 min to connect, 10 min idle): one activity attempt must not hang for minutes. */
export const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as const;

/** How long a pinned address is trusted before the host name is resolved and checked again. */
const PIN_TTL_MS = 10 * 60_000;

export class SmtpHostRefused extends Error {
  override readonly name = 'SmtpHostRefused';
}

/**
 * Resolves a mailbox's SMTP host and refuses it when any of its addresses is private, loopback,
 * link-local or otherwise not public (a customer's smtpUrl must not reach our internal network).
 * Returns the address to connect to: the transport is pinned to it, so DNS cannot answer one
 * address to this check and another to the connection (rebinding).
 */
export async function resolveAllowedSmtpHost(host: string, policy: AddressPolicy): Promise<string> {
  const addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  if (addresses.length === 0) throw new SmtpHostRefused(`${host} has no address`);
  for (const address of addresses) {
    const verdict = judgeAddress(address, policy);
    if (!verdict.allowed) throw new SmtpHostRefused(`SMTP host ${host} is refused: ${address} is a ${verdict.range} address`);
  }
  return addresses[0] as string;
}

interface CacheEntry {
  readonly transporter: Promise<SmtpTransporter>;
  readonly expiresAt: number;
}

/**
 * One pooled nodemailer transporter per SMTP URL, shared by every send of the process and reused
 * across activity calls: opening an SMTP session (TCP, EHLO, STARTTLS, AUTH) costs several round
 * trips, a message on an open session one. Like the Sequelize pool, there is one per process; the
 * worker role closes it at shutdown.
 */
export class SmtpTransports {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly retired = new Set<SmtpTransporter>();
  /** Every transporter's messages pass these gates (see data-end-gate.ts). */
  readonly gates = new DataEndGates();

  /**
   * The transporter of `smtpUrl`. `guard` set: the host is a customer's and must pass the address
   * policy (resolved, checked and pinned, re-checked every PIN_TTL_MS); unset: the operator's own
   * SMTP_URL or the local sink, used as configured.
   */
  get(smtpUrl: string, guard: AddressPolicy | null): Promise<SmtpTransporter> {
    const key = `${guard === null ? 'trusted' : guard.allowLoopback ? 'loopback' : 'public'}|${smtpUrl}`;
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiresAt > now) return entry.transporter;
    if (entry !== undefined) this.retire(entry);
    const transporter = this.create(parseSmtpUrl(smtpUrl), guard);
    this.entries.set(key, { transporter, expiresAt: guard === null ? Number.POSITIVE_INFINITY : now + PIN_TTL_MS });
    // A failed resolution must not stay cached: the next send tries again.
    transporter.catch(() => {
      if (this.entries.get(key)?.transporter === transporter) this.entries.delete(key);
    });
    return transporter;
  }

  private async create(server: SmtpServer, guard: AddressPolicy | null): Promise<SmtpTransporter> {
    const address = guard === null ? server.host : await resolveAllowedSmtpHost(server.host, guard);
    // It passed the guard; if it would not pass without the loopback allowance, it is loopback (dev and tests).
    const loopback = guard !== null && guard.allowLoopback && !judgeAddress(address, { allowLoopback: false }).allowed;
    const transporter = nodemailer.createTransport({
      pool: true,
      maxConnections: POOL_MAX_CONNECTIONS,
      host: address,
      port: server.port,
      secure: server.secure,
      // Credentials never cross the network in clear text: a customer's server must offer STARTTLS.
      requireTLS: guard !== null && !server.secure && !loopback,
      auth: server.user === undefined ? undefined : { user: server.user, pass: server.password ?? '' },
      // The certificate is checked against the name the customer gave, not the pinned address.
      tls: isIP(server.host) === 0 ? { servername: server.host } : undefined,
      ...SMTP_TIMEOUTS,
    });
    // A pool-level error (a connection dropping while idle) fails the send it belongs to, if any;
    // without a listener the EventEmitter would throw it at the process.
    transporter.on('error', () => undefined);
    transporter.use('stream', this.gates.plugin);
    return transporter;
  }

  /** Closes a replaced transporter once it has delivered what it was given. */
  private retire(entry: CacheEntry): void {
    void entry.transporter.then(
      (t) => {
        this.retired.add(t);
        const closeIfDrained = (): void => {
          if (pendingCount(t) > 0) return;
          t.off('idle', closeIfDrained);
          this.retired.delete(t);
          t.close();
        };
        t.on('idle', closeIfDrained);
        closeIfDrained();
      },
      () => undefined,
    );
  }

  /** Closes every transporter (idle connections at once, a delivery in progress when it ends). */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()].map((e) => e.transporter.catch(() => undefined));
    this.entries.clear();
    for (const t of await Promise.all(all)) t?.close();
    for (const t of this.retired) t.close();
    this.retired.clear();
  }
}

function pendingCount(t: SmtpTransporter): number {
  const pool = t.transporter as unknown as { pendingCount?: () => number };
  return pool.pendingCount?.() ?? 0;
}

/** The process's transporters (see SmtpTransports). */
export const smtpTransports = new SmtpTransports();
