import { judgeHost } from '../egress';

/**
 * Where webhooks may go: an absolute https URL without credentials whose host is not an address the
 * egress policy refuses; plain http only to a loopback host, and only under ALLOW_LOOPBACK_EGRESS
 * (dev and tests). This is the check at the door (the API, the CLI): a literal IP in any spelling the
 * URL parser accepts (decimal, octal, hex, short, IPv4-mapped IPv6) and the `localhost` names are
 * judged here by the same policy the egress client applies at connect time, so a URL refused there
 * is refused when saved. A name is judged only when an attempt connects: a public name that resolves
 * to 10.x is refused then, and the delivery fails at once (see post-webhook.ts).
 */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

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
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  // The parser has rewritten the host (2130706433, 0177.0.0.1, 127.1 and [::ffff:127.0.0.1] are
  // 127.0.0.1 and [::ffff:7f00:1] by now), so every spelling of one address meets the same verdict.
  const host = judgeHost(url.hostname, { allowLoopback });
  if (host.refusal !== null) return `must point to a public address: ${host.refusal}`;
  if (url.protocol === 'https:' || host.loopback) return null;
  return 'must be an https URL';
}

/** The URL as stored and compared: WHATWG-normalised, so one destination is one string. */
export function normalizeWebhookUrl(raw: string): string {
  return new URL(raw).href;
}
