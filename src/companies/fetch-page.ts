import { loadBuffer, type CheerioAPI } from 'cheerio';
import type { Egress } from '../egress';
import { ScrapeError, scrapeErrorFrom } from './scrape-error';

/** One fetched HTML page, parsed. */
export interface Page {
  /** Where the HTML came from, after redirects: relative links resolve against it. */
  readonly url: URL;
  readonly $: CheerioAPI;
  /** The HTML as parsed, for markers no selector reaches (comments, inline state). */
  readonly html: string;
  readonly headers: { get(name: string): string | null; getSetCookie(): string[] };
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * GETs a page through the egress client (address policy, redirects, deadline and size limit all
 * apply) and parses it. The charset comes from Content-Type, else from the document's own
 * <meta charset> or BOM (cheerio's sniffer). Failures are ScrapeErrors.
 */
export async function fetchPage(egress: Egress, url: URL): Promise<Page> {
  const res = await egress
    .request(url, { headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'accept-language': 'en;q=1, *;q=0.5' } })
    .catch((err: unknown) => {
      throw scrapeErrorFrom(err);
    });
  if (res.status < 200 || res.status > 299) {
    // 429 and 5xx may pass; a 404 or 403 will answer the same tomorrow.
    throw new ScrapeError('http_status', `The site answered HTTP ${res.status}`, res.status === 429 || res.status >= 500);
  }
  const contentType = res.headers.get('content-type') ?? '';
  const mime = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const looksLikeHtml = mime === '' && /^\s*(<!doctype html|<html|<head|<body|<!--)/i.test(res.body.subarray(0, 512).toString('latin1'));
  if (!HTML_TYPES.has(mime) && !looksLikeHtml) {
    throw new ScrapeError('not_html', `The site answered with ${mime === '' ? 'an unknown content type' : mime}, not an HTML page`, false);
  }
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  const $ = loadBuffer(res.body, { encoding: charset === undefined ? {} : { transportLayerEncodingLabel: charset } });
  return { url: new URL(res.url), $, html: $.html(), headers: res.headers };
}
