import type { Config } from '../../config/config';
import { egressFor } from '../../egress';

/** The answer to one POST: status, a header reader and the body as text. */
export interface HttpAnswer {
  readonly status: number;
  header(name: string): string | null;
  readonly body: string;
}

/**
 * What the Apollo client needs from HTTP: one JSON POST. A small seam, so the client holds the
 * protocol (paths, headers, statuses, retries) and the transport stays the service's egress client.
 */
export type HttpPost = (url: string, req: { readonly headers: Readonly<Record<string, string>>; readonly body: string }) => Promise<HttpAnswer>;

/** HttpPost over the egress client: address policy, deadline and body limit of the configuration. */
export function egressHttpPost(config: Config): HttpPost {
  const egress = egressFor(config);
  return async (url, req) => {
    // Redirects are not followed: an API that redirects a POST is misconfigured, and the key would travel on.
    const res = await egress.request(url, { method: 'POST', headers: req.headers, body: req.body, maxRedirects: 0 });
    return { status: res.status, header: (name) => res.headers.get(name), body: res.body.toString('utf8') };
  };
}
