import { ScrapeError } from './scrape-error';

/**
 * The URL to scrape from what a client typed. A bare domain (`acme.com`, `acme.com/en`) means
 * https; an explicit http:// or https:// is kept. The fragment is dropped (never sent anyway).
 * Everything else (other schemes, credentials, private addresses) is the egress client's call.
 */
export function siteUrl(input: string): URL {
  const text = input.trim();
  const withScheme = text.includes('://') ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ScrapeError('bad_url', `url is not a valid URL or domain: ${JSON.stringify(text.slice(0, 200))}`, false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ScrapeError('bad_url', 'url must be an http or https URL', false);
  if (!url.hostname.includes('.') && !url.hostname.startsWith('[') && url.hostname !== 'localhost') {
    throw new ScrapeError('bad_url', `url has no domain: ${JSON.stringify(text.slice(0, 200))}`, false);
  }
  url.hash = '';
  return url;
}

/**
 * The company's key among an account's companies: the host, lower-cased, without `www.` or a
 * trailing dot, and without the port. `https://www.Acme.com/en` and `acme.com` are one company.
 */
export function companyDomain(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}
