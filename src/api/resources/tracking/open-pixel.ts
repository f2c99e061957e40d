import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../../deps';
import { PIXEL_HEADERS, TRANSPARENT_GIF } from '../../../tracking/pixel';

const PREFIX = '/t/o/';
const SUFFIX = '.gif';
const HEADERS = { ...PIXEL_HEADERS, 'Content-Length': String(TRANSPARENT_GIF.length) };

/**
 * Takes the open a pixel token stands for, if it is valid: the signature is checked (skipped when
 * this process already took this email's open) and the hit journaled, synchronously, with no
 * database work. Never throws: a pixel always answers its GIF.
 */
export function takeOpen(deps: AppDeps, token: string): void {
  const tracking = deps.tracking;
  if (!tracking || !token.endsWith(SUFFIX)) return;
  const signed = token.slice(0, -SUFFIX.length);
  const emailId = signed.slice(0, Math.max(signed.lastIndexOf('.'), 0));
  if (tracking.recorder.openTaken(emailId)) return;
  if (tracking.links.verifyToken('open', signed) === emailId) tracking.recorder.recordOpen(emailId);
}

export type RawRequestHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Answers `GET|HEAD /t/o/<token>` at the node:http level, before Koa builds a context; returns
 * false for any other request. Pixel loads are by far the most frequent requests (every open of
 * every email) and the cheapest to answer, so they skip what an API call needs: Koa's context, the
 * request id and per-request log line, error formatting, the router and validation; measured, these
 * were most of a pixel's cost. The `trackOpen` route (routes.ts) documents the endpoint in the
 * OpenAPI document and answers the same way for a request this does not take (an absolute-form URL).
 */
export function openPixelHandler(deps: AppDeps): RawRequestHandler {
  return (req, res) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(PREFIX)) return false;
    const q = url.indexOf('?');
    const token = (q < 0 ? url : url.slice(0, q)).slice(PREFIX.length);
    if (token.includes('/')) return false;
    takeOpen(deps, token);
    res.writeHead(200, HEADERS);
    res.end(req.method === 'HEAD' ? undefined : TRANSPARENT_GIF);
    return true;
  };
}
