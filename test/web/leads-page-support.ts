import { expect } from 'chai';
import type { PageResponse } from '../support/dashboard-session';

/** Helpers of the lead-control page tests (campaign leads, lead lists, blocklist). */

/** The page as a reader sees it: tags dropped, entities decoded, spaces collapsed. */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<span class="visually-hidden">[^<]*<\/span>/g, '')
    .replace(/<\/?(a|b|code|em|span|strong|time)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The answer has this status (an HTML page unless a redirect), else the page's text in the failure. */
export function expectPage(res: PageResponse, status: number): void {
  expect(res.status, `${res.status} ${res.location ?? ''}\n${visibleText(res.text).slice(0, 600)}`).to.equal(status);
  if (status < 300 || status >= 400) expect(res.headers.get('content-type')).to.match(/^text\/html/);
}

/** The visible text of the table row whose `attr` is `value`. */
export function rowText(html: string, attr: string, value: string): string {
  const start = html.indexOf(`${attr}="${value}"`);
  expect(start, `no row with ${attr}="${value}"`).to.be.greaterThan(-1);
  return visibleText(html.slice(start, html.indexOf('</tr>', start)));
}
