/**
 * The egress client: the ONE way this service makes outbound HTTP requests (scraping a company
 * site, the Apollo, OpenAI and Anthropic clients, webhooks). Nothing else should call `fetch`,
 * `http.request` or an SDK's default transport.
 *
 * What it guarantees, for every hop of every request:
 * - only http/https URLs without credentials (any port);
 * - the address actually connected to is public: the check runs in the connector at connect time
 *   on resolved addresses (see guarded-agent.ts, address-policy.ts), so DNS rebinding cannot slip
 *   in 127.0.0.1, 10.x or 169.254.169.254; `allowLoopback` (dev/test only) lets 127.0.0.0/8 and
 *   ::1 through and nothing else;
 * - redirects are followed by hand (at most `maxRedirects`, default 5) and each hop is checked
 *   again; credential-bearing headers are dropped when a redirect changes origin;
 * - the whole exchange, body included, ends within `timeoutMs`, and no more than `maxBytes`
 *   (decoded) body bytes are read.
 * Failures are `EgressError`s with a `reason` (see errors.ts). A caller's own AbortSignal abort is
 * passed through untouched.
 *
 * Two ways to use it:
 *
 *   const egress = egressFor(config);   // one per process (for-config.ts)
 *   const res = await egress.request('https://acme.com', { headers: { accept: 'text/html' } });
 *   res.status; res.headers.get('content-type'); res.body (Buffer); res.url (final); res.redirects
 *
 *   // WHATWG fetch, for SDKs that take a `fetch` option:
 *   new OpenAI({ apiKey, baseURL, fetch: egress.fetchWith({ timeoutMs: 120_000 }) });
 *   new Anthropic({ apiKey, baseURL, fetch: egress.fetch });
 *
 * `egress.fetch` returns a real Response whose body is streamed (and still bounded by the limits:
 * the timeout keeps running while the caller reads). Its `redirect` init is honoured ('manual'
 * returns the 3xx itself, 'error' fails on one); `request` takes `redirect: 'manual'` likewise.
 * Use `fetchWith` to give one kind of call its own limits, e.g. a long LLM generation; `request`
 * takes limits per call. `egress.dispatcher` is the guarded undici Agent itself, for the rare
 * caller that needs another undici API; it does not follow redirects.
 */
import { Headers, Response, type Dispatcher, type HeadersInit } from 'undici';
import type { AddressPolicy } from './address-policy';
import { assertDeclaredLength, guardBody, readAll } from './body-limit';
import { EgressError, findEgressError } from './errors';
import { followRedirects, type HopBody } from './follow-redirects';
import { createGuardedAgent, systemResolver, type Resolver } from './guarded-agent';
import { checkEgressUrl } from './url-policy';

export interface EgressOptions {
  /** Dev/test only (ALLOW_LOOPBACK_EGRESS): allow 127.0.0.0/8 and ::1. Private ranges stay refused. */
  readonly allowLoopback: boolean;
  /** Default deadline of a whole exchange: connect, every redirect, and reading the body. */
  readonly timeoutMs: number;
  /** Default largest body read, in decoded bytes. */
  readonly maxBytes: number;
  /** Sent when the caller gives no User-Agent. */
  readonly userAgent?: string;
  /** Replaces the system resolver (tests use it to make a name resolve to a chosen address). */
  readonly resolve?: Resolver;
}

export interface EgressLimits {
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /** Redirect hops followed; more is 'too_many_redirects'. 0 refuses any redirect. Default 5. */
  readonly maxRedirects?: number;
  /** 'manual' returns a 3xx response as it is, unfollowed (e.g. an API client that must not follow). Default 'follow'. */
  readonly redirect?: 'follow' | 'manual';
}

export interface EgressRequestOptions extends EgressLimits {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  readonly signal?: AbortSignal;
}

/** What `send` reports: the status and headers of the answer (its body is read and discarded). */
export interface EgressStatus {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface EgressResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
  /** The URL of the last hop, after redirects. */
  readonly url: string;
  readonly redirects: number;
}

/** The signature the openai and @anthropic-ai/sdk clients accept as their `fetch` option. */
export type EgressFetch = (input: string | URL | Request, init?: RequestInit) => Promise<globalThis.Response>;

export interface Egress {
  request(url: string | URL, opts?: EgressRequestOptions): Promise<EgressResponse>;
  /**
   * One exchange for a caller that wants only the answer's status (webhooks): no redirect is
   * followed (a 3xx comes back as it is), the body is discarded, and it costs a fraction of
   * `request`'s CPU (no WHATWG Request/Response/streams). Same URL and address checks, same deadline.
   */
  send(url: string | URL, opts: Pick<EgressRequestOptions, 'method' | 'headers' | 'body' | 'timeoutMs'>): Promise<EgressStatus>;
  readonly fetch: EgressFetch;
  fetchWith(limits: EgressLimits): EgressFetch;
  readonly dispatcher: Dispatcher;
  close(): Promise<void>;
}

export const DEFAULT_USER_AGENT = 'CampaignOutreachBot/1.0';
const DEFAULT_MAX_REDIRECTS = 5;
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/** `send` reads at most this much of an answer's body before dropping the connection instead. */
const DISCARDED_BODY_LIMIT = 64 * 1024;

export function createEgress(opts: EgressOptions): Egress {
  const policy: AddressPolicy = { allowLoopback: opts.allowLoopback };
  const dispatcher = createGuardedAgent({ policy, resolve: opts.resolve ?? systemResolver, connectTimeoutMs: opts.timeoutMs });
  const userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;

  /** Runs one exchange up to the response head; returns the body guarded by the limits. */
  const exchange = async (input: string | URL, method: string, headerInit: HeadersInit, body: HopBody, limits: EgressLimits, callerSignal: AbortSignal | null | undefined) => {
    const timeoutMs = limits.timeoutMs ?? opts.timeoutMs;
    const maxBytes = limits.maxBytes ?? opts.maxBytes;
    const start = checkEgressUrl(input, policy);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout;
    const mapError = (err: unknown): unknown => {
      if (callerSignal?.aborted) return err;
      if (timeout.aborted) return new EgressError('timeout', `No complete answer from ${start.host} within ${timeoutMs} ms`, { cause: err });
      return findEgressError(err) ?? new EgressError('network', `Could not reach ${start.host}: ${describeCause(err)}`, { cause: err });
    };
    const headers = new Headers(headerInit);
    if (!headers.has('user-agent')) headers.set('user-agent', userAgent);
    try {
      const maxRedirects = limits.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
      const followed = await followRedirects(dispatcher, policy, start, { method, headers, body, maxRedirects, manual: limits.redirect === 'manual', signal });
      const { response } = followed;
      try {
        assertDeclaredLength(response.headers, maxBytes);
      } catch (err) {
        await response.body?.cancel().catch(() => undefined);
        throw err;
      }
      const guarded = response.body === null ? null : guardBody(response.body as ReadableStream<Uint8Array>, maxBytes, mapError);
      return { ...followed, body: guarded, mapError };
    } catch (err) {
      throw mapError(err);
    }
  };

  const request = async (url: string | URL, o: EgressRequestOptions = {}): Promise<EgressResponse> => {
    const r = await exchange(url, (o.method ?? 'GET').toUpperCase(), o.headers ?? {}, o.body ?? null, o, o.signal);
    let body: Buffer;
    try {
      body = r.body === null ? Buffer.alloc(0) : await readAll(r.body);
    } catch (err) {
      // guardBody already mapped source errors; anything else is mapped here.
      throw err instanceof EgressError ? err : r.mapError(err);
    }
    return { status: r.response.status, headers: r.response.headers, body, url: r.url.href, redirects: r.redirects };
  };

  const send = async (url: string | URL, o: Pick<EgressRequestOptions, 'method' | 'headers' | 'body' | 'timeoutMs'>): Promise<EgressStatus> => {
    const timeoutMs = o.timeoutMs ?? opts.timeoutMs;
    const target = checkEgressUrl(url, policy);
    const signal = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { 'user-agent': userAgent };
    for (const [name, value] of Object.entries(o.headers ?? {})) headers[name.toLowerCase()] = value;
    try {
      const res = await dispatcher.request({ origin: target.origin, path: `${target.pathname}${target.search}`, method: (o.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod, headers, body: o.body ?? null, signal });
      // Read (up to undici's dump limit) and drop the body, so the connection goes back to the pool.
      await res.body.dump({ limit: DISCARDED_BODY_LIMIT, signal });
      return { status: res.statusCode, headers: res.headers };
    } catch (err) {
      if (signal.aborted) throw new EgressError('timeout', `No complete answer from ${target.host} within ${timeoutMs} ms`, { cause: err });
      throw findEgressError(err) ?? new EgressError('network', `Could not reach ${target.host}: ${describeCause(err)}`, { cause: err });
    }
  };

  const fetchWith = (limits: EgressLimits): EgressFetch => async (input, init = {}) => {
    const req = typeof input === 'string' || input instanceof URL ? undefined : input;
    const url = req ? req.url : input instanceof URL ? input.href : String(input);
    const method = (init.method ?? req?.method ?? 'GET').toUpperCase();
    const headers = new Headers(req?.headers as HeadersInit | undefined);
    new Headers(init.headers as HeadersInit | undefined).forEach((value, name) => headers.set(name, value));
    const body = (init.body ?? (req?.body ? Buffer.from(await req.arrayBuffer()) : null)) as HopBody;
    // Fetch's own redirect modes: 'manual' hands back the 3xx, 'error' fails on any redirect.
    const mode = init.redirect ?? req?.redirect ?? 'follow';
    const hopLimits: EgressLimits = mode === 'manual' ? { ...limits, redirect: 'manual' } : mode === 'error' ? { ...limits, maxRedirects: 0 } : limits;
    const r = await exchange(url, method, headers, body, hopLimits, init.signal ?? req?.signal);
    const { status, statusText } = r.response;
    const noBody = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
    if (noBody) await r.body?.cancel().catch(() => undefined);
    const out = new Response(noBody ? null : r.body, { status, statusText, headers: r.response.headers });
    // A constructed Response has an empty url; SDKs and callers expect the real one.
    Object.defineProperties(out, { url: { value: r.url.href }, redirected: { value: r.redirects > 0 } });
    return out as unknown as globalThis.Response;
  };

  return {
    request,
    send,
    fetch: fetchWith({}),
    fetchWith,
    dispatcher,
    close: () => dispatcher.close(),
  };
}

function describeCause(err: unknown): string {
  let e = err;
  // undici reports "fetch failed" with the real cause (ECONNREFUSED, ENOTFOUND, a TLS error) below it.
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  if (!(e instanceof Error)) return String(e);
  const code = (e as NodeJS.ErrnoException).code;
  return code !== undefined && !e.message.includes(code) ? `${code} ${e.message}` : e.message;
}
