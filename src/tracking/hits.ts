/**
 * A tracking hit (a pixel load or a followed link) as the recorder keeps it: in its journal as one
 * NDJSON line, in memory until flushed, and as the email facts it becomes in PostgreSQL.
 */
export type TrackingHit =
  | { readonly kind: 'open'; readonly emailId: string; readonly at: number }
  | { readonly kind: 'click'; readonly emailId: string; readonly link: number; readonly url: string; readonly at: number };

/** One `email_events` row (and its outbox event) a hit stands for. */
export interface HitFact {
  readonly emailId: string;
  readonly type: 'opened' | 'clicked';
  /** Epoch milliseconds. */
  readonly at: number;
  readonly data: Record<string, unknown>;
  readonly dedupeKey: string;
}

const EMAIL_ID = /^em_[A-Za-z0-9]{1,64}$/;

/** The journal line of a hit, newline included. Email ids are [A-Za-z0-9_], so an open needs no escaping. */
export function hitLine(hit: TrackingHit): string {
  if (hit.kind === 'open') return `{"k":"o","e":"${hit.emailId}","t":${hit.at}}\n`;
  return `${JSON.stringify({ k: 'c', e: hit.emailId, n: hit.link, u: hit.url, t: hit.at })}\n`;
}

/** The hit of a journal line, or undefined for a line that is not one (a torn last write). */
export function parseHitLine(line: string): TrackingHit | undefined {
  let v: { k?: unknown; e?: unknown; t?: unknown; n?: unknown; u?: unknown };
  try {
    v = JSON.parse(line) as typeof v;
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || typeof v.e !== 'string' || !EMAIL_ID.test(v.e)) return undefined;
  if (typeof v.t !== 'number' || !Number.isFinite(v.t)) return undefined;
  if (v.k === 'o') return { kind: 'open', emailId: v.e, at: v.t };
  if (v.k === 'c' && Number.isInteger(v.n) && (v.n as number) >= 0 && typeof v.u === 'string') {
    return { kind: 'click', emailId: v.e, link: v.n as number, url: v.u, at: v.t };
  }
  return undefined;
}

/**
 * The facts of a hit. A click also stands for an open (dedupe key `opened:<emailId>`, data
 * `{via: "click"}`): the reader saw the email even if their client blocked images, which is how
 * open rates are commonly counted. If the pixel was recorded first, the implied open is a no-op.
 */
export function factsOf(hit: TrackingHit): HitFact[] {
  const open: HitFact = { emailId: hit.emailId, type: 'opened', at: hit.at, data: hit.kind === 'click' ? { via: 'click' } : {}, dedupeKey: `opened:${hit.emailId}` };
  if (hit.kind === 'open') return [open];
  return [{ emailId: hit.emailId, type: 'clicked', at: hit.at, data: { url: hit.url }, dedupeKey: `clicked:${hit.emailId}:${hit.link}` }, open];
}

/** The key under which the recorder remembers that a hit was already taken (see RecentKeys). */
export function hitKey(hit: TrackingHit): string {
  return hit.kind === 'open' ? `o:${hit.emailId}` : `c:${hit.emailId}:${hit.link}`;
}
