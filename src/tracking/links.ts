import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed links an email carries. Each signature is an HMAC over what the link asserts, so a
 * link cannot be pointed at another email, another link target or another action:
 * - open pixel:   /t/o/<emailId>.<sig>.gif           sig = H("open|<emailId>")
 * - click:        /t/c/<emailId>/<n>?u=<url>&s=<sig>  sig = H("click|<emailId>|<n>|<url>")
 * - unsubscribe:  /u/<emailId>.<sig>  (GET page, POST one-click, RFC 8058)  sig = H("unsub|<emailId>")
 * Signatures are 128-bit truncated HMAC-SHA256, base64url.
 */
export type LinkAction = 'open' | 'click' | 'unsub';

const EMAIL_ID = /^em_[A-Za-z0-9]{1,64}$/;

function mac(secret: string, parts: readonly string[]): string {
  return createHmac('sha256', secret).update(parts.join('|')).digest().subarray(0, 16).toString('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class TrackingLinks {
  constructor(
    private readonly secret: string,
    /** Public base URL of the API, without a trailing slash. */
    private readonly baseUrl: string,
  ) {}

  openPixelUrl(emailId: string): string {
    return `${this.baseUrl}/t/o/${emailId}.${mac(this.secret, ['open', emailId])}.gif`;
  }

  clickUrl(emailId: string, linkIndex: number, target: string): string {
    const s = mac(this.secret, ['click', emailId, String(linkIndex), target]);
    return `${this.baseUrl}/t/c/${emailId}/${linkIndex}?u=${encodeURIComponent(target)}&s=${s}`;
  }

  unsubscribeUrl(emailId: string): string {
    return `${this.baseUrl}/u/${emailId}.${mac(this.secret, ['unsub', emailId])}`;
  }

  /** The email id of a signed open or unsubscribe token (`<emailId>.<sig>`), or null if forged. */
  verifyToken(action: 'open' | 'unsub', token: string): string | null {
    const dot = token.lastIndexOf('.');
    if (dot < 0) return null;
    const emailId = token.slice(0, dot);
    if (!EMAIL_ID.test(emailId)) return null;
    return same(token.slice(dot + 1), mac(this.secret, [action, emailId])) ? emailId : null;
  }

  /** True when the click link's signature matches its email, index and exact target. */
  verifyClick(emailId: string, linkIndex: number, target: string, signature: string): boolean {
    if (!EMAIL_ID.test(emailId) || !Number.isInteger(linkIndex) || linkIndex < 0) return false;
    return same(signature, mac(this.secret, ['click', emailId, String(linkIndex), target]));
  }
}
