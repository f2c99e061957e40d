import type { Config } from '../config/config';

/**
 * An SMTP server as a URL: `smtp://user:password@host:port` (plain, STARTTLS when the server offers
 * it) or `smtps://...` (TLS from the first byte). The same form configures SMTP_URL and mailboxes.
 */
export interface SmtpServer {
  readonly host: string;
  readonly port: number;
  /** smtps: TLS from the start (implicit TLS, usually port 465). */
  readonly secure: boolean;
  readonly user: string | undefined;
  readonly password: string | undefined;
}

export class SmtpUrlError extends Error {
  override readonly name = 'SmtpUrlError';
}

/** Parses an smtp:// or smtps:// URL; the credentials are percent-decoded. */
export function parseSmtpUrl(input: string): SmtpServer {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SmtpUrlError('smtpUrl is not a URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new SmtpUrlError('smtpUrl must start with smtp:// or smtps://');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') throw new SmtpUrlError('smtpUrl has no host');
  if (url.pathname !== '' && url.pathname !== '/') throw new SmtpUrlError('smtpUrl must not have a path');
  const secure = url.protocol === 'smtps:';
  let user: string | undefined;
  let password: string | undefined;
  try {
    user = url.username === '' ? undefined : decodeURIComponent(url.username);
    password = url.password === '' ? undefined : decodeURIComponent(url.password);
  } catch {
    throw new SmtpUrlError('smtpUrl has a badly percent-encoded user or password');
  }
  // Submission ports: 587 with STARTTLS, 465 with implicit TLS (RFC 8314).
  return { host, port: url.port === '' ? (secure ? 465 : 587) : Number(url.port), secure, user, password };
}

/**
 * The service's default transport: SMTP_URL, else the worker's local sink. The same server
 * EmailSender's default sender uses for an account without mailboxes.
 */
export function defaultSmtpUrl(config: Pick<Config, 'smtpUrl' | 'smtpSinkPort'>): string {
  return config.smtpUrl ?? `smtp://127.0.0.1:${config.smtpSinkPort}`;
}
