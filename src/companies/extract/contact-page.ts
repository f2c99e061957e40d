import type { CheerioAPI } from 'cheerio';
import { absoluteUrl } from './text';

/** Pages likely to list an address, best first (matched against the link's path and its text). */
const CONTACT_HINTS: readonly RegExp[] = [/contact|kontakt|contacto|contatti|get[\s-]in[\s-]touch/i, /impressum|imprint|legal[\s-]notice/i, /about|team|company/i];

/**
 * A page of the same site that probably lists contact addresses (contact, then imprint, then
 * about), for when the home page shows none. Same site means the same host up to `www.`.
 */
export function findContactPage($: CheerioAPI, page: URL): URL | null {
  const site = bareHost(page);
  const links = $('a[href]')
    .toArray()
    .map((el) => ({ url: absoluteUrl($(el).attr('href'), page), text: $(el).text() }))
    .filter((l): l is { url: URL; text: string } => l.url !== null && bareHost(l.url) === site && l.url.pathname !== page.pathname);
  for (const hint of CONTACT_HINTS) {
    const hit = links.find((l) => hint.test(l.url.pathname) || hint.test(l.text));
    if (hit !== undefined) {
      hit.url.hash = '';
      return hit.url;
    }
  }
  return null;
}

function bareHost(url: URL): string {
  return url.host.toLowerCase().replace(/^www\./, '');
}
