/**
 * Where webhooks may go: an absolute https URL without credentials; plain http only to a loopback
 * host, and only under ALLOW_LOOPBACK_EGRESS (dev and tests). This is the check at the door (the
 * API, the CLI); the egress client still refuses private and loopback addresses at connect time, so
 * a public name that resolves to 10.x is refused when the attempt is made.
 */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why `raw` cannot receive webhooks (a sentence fragment naming what to send), or null when it can. */
export function webhookUrlProblem(raw: string, allowLoopback: boolean): string | null {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowLoopback && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must be an https URL';
}

/** The URL as stored and compared: WHATWG-normalised, so one destination is one string. */
export function normalizeWebhookUrl(raw: string): string {
  return new URL(raw).href;
}
