import { fetch as undiciFetch, Headers, type Dispatcher, type Response } from 'undici';
import type { AddressPolicy } from './address-policy';
import { EgressError } from './errors';
import { checkEgressUrl } from './url-policy';

type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>;
export type HopBody = UndiciInit['body'];

export interface HopRequest {
  readonly method: string;
  readonly headers: Headers;
  readonly body: HopBody;
  readonly maxRedirects: number;
  /** Return a redirect response as it is instead of following it. */
  readonly manual: boolean;
  readonly signal: AbortSignal;
}

export interface FollowedResponse {
  readonly response: Response;
  readonly url: URL;
  readonly redirects: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers a cross-origin hop keeps: nothing that could carry a credential (Authorization, x-api-key, Cookie...). */
const CROSS_ORIGIN_SAFE_HEADERS = new Set(['accept', 'accept-encoding', 'accept-language', 'user-agent', 'content-type', 'content-language']);

const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/**
 * Sends one request and follows its redirects by hand, so that every hop's URL passes
 * `checkEgressUrl` and every hop's connection goes through the guarded dispatcher again (undici's
 * own redirect following would not re-run our URL checks). Method and body change as browsers do
 * it (303, and 301/302 after POST, become a GET without body); a streamed body cannot be sent
 * twice, so a 307/308 after one is a network error, as in the Fetch standard.
 */
export async function followRedirects(dispatcher: Dispatcher, policy: AddressPolicy, start: URL, req: HopRequest): Promise<FollowedResponse> {
  let url = start;
  let { method, headers, body } = req;
  for (let redirects = 0; ; redirects++) {
    const response = await undiciFetch(url, { method, headers, body, redirect: 'manual', signal: req.signal, dispatcher, ...(isStream(body) ? { duplex: 'half' } : {}) });
    const location = response.headers.get('location');
    if (req.manual || !REDIRECT_STATUSES.has(response.status) || location === null) return { response, url, redirects };
    await response.body?.cancel().catch(() => undefined);
    if (redirects >= req.maxRedirects) throw new EgressError('too_many_redirects', `More than ${req.maxRedirects} redirects, starting at ${start.origin}`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new EgressError('bad_url', `Redirect to an invalid location: ${location.slice(0, 200)}`);
    }
    const checked = checkEgressUrl(next, policy);
    if (response.status === 303 ? method !== 'HEAD' : (response.status === 301 || response.status === 302) && method === 'POST') {
      method = 'GET';
      body = null;
      headers = without(headers, BODY_HEADERS);
    } else if (isStream(body)) {
      throw new EgressError('network', `Cannot repeat a streamed request body for a ${response.status} redirect`);
    }
    if (checked.origin !== url.origin) headers = onlySafe(headers);
    url = checked;
  }
}

function isStream(body: HopBody): boolean {
  return typeof body === 'object' && body !== null && (body instanceof ReadableStream || Symbol.asyncIterator in body);
}

function without(headers: Headers, names: readonly string[]): Headers {
  const copy = new Headers(headers);
  for (const n of names) copy.delete(n);
  return copy;
}

function onlySafe(headers: Headers): Headers {
  const copy = new Headers();
  for (const [name, value] of headers) if (CROSS_ORIGIN_SAFE_HEADERS.has(name)) copy.append(name, value);
  return copy;
}
