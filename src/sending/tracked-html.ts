import { load, type CheerioAPI } from 'cheerio/slim';
import type { TrackingLinks } from '../tracking/links';
import { TRACK_EVERYTHING, type TrackingChoice } from './types';

type TreeNode = ReturnType<CheerioAPI['root']>[number]['children'][number];

/**
 * The HTML part as it is sent: when the campaign tracks clicks, every http(s) link goes through its
 * signed click redirect (numbered in document order, so a click says which link it was); a visible
 * unsubscribe line is added at the end, and when the campaign tracks opens, the open beacon is that
 * line's background image, so a client that stops rendering early does not count an open. The
 * beacon is a CSS background rather than an <img>: an image beside a short text is what
 * SpamAssassin scores as image spam (HTML_IMAGE_ONLY_*, 0.6 to 2.8 points for any HTML under
 * 3,200 bytes), and a 1x1 background says nothing to a reader either way. Clients that load no CSS
 * backgrounds (Outlook for Windows) then count no open, where a click still counts one.
 * The content is parsed, not pattern-matched: an href in a comment, an attribute value or a
 * <pre> block is left as it is, and entity-encoded URLs are decoded before they are signed.
 * mailto:, tel:, relative and fragment links are not rewritten, nor links already pointing at our
 * own tracking or unsubscribe endpoints.
 *
 * Parsed with htmlparser2 (cheerio/slim) and walked by hand: parse5 plus a CSS selector cost about
 * three times as much per email, a large part of the sending worker's own CPU on top of SMTP (bench
 * smtp-send); a fragment stays a fragment (no <html><head><body> added).
 */
/** dom-serializer's option, which cheerio passes through but does not declare in its options' type. */
const UTF8_OUTPUT = { encodeEntities: 'utf8' } as Parameters<typeof load>[1];

export function trackHtml(
  html: string,
  emailId: string,
  links: TrackingLinks,
  ownBaseUrl: string,
  unsubscribeUrl: string,
  tracking: Pick<TrackingChoice, 'opens' | 'clicks'> = TRACK_EVERYTHING,
): string {
  // Written back as UTF-8: only what HTML needs is escaped (&, <, >, quotes), not every accented
  // letter, symbol or script (which would swell a Polish or Japanese email several times over).
  const $ = load(html, UTF8_OUTPUT);
  let n = 0;
  let body: TreeNode | undefined;
  const visit = (nodes: readonly TreeNode[]): void => {
    for (const node of nodes) {
      if (!('children' in node)) continue;
      if ('attribs' in node) {
        if (node.name === 'body') body ??= node;
        const href = tracking.clicks && node.name === 'a' ? node.attribs.href?.trim() : undefined;
        if (href !== undefined && isHttpUrl(href) && !href.startsWith(`${ownBaseUrl}/t/`) && !href.startsWith(`${ownBaseUrl}/u/`)) {
          node.attribs.href = links.clickUrl(emailId, n, href);
          n += 1;
        }
      }
      visit(node.children);
    }
  };
  visit($.root()[0]?.children ?? []);
  const beacon = tracking.opens ? `;background-image:url(${links.openPixelUrl(emailId)});background-repeat:no-repeat;background-position:right bottom` : '';
  const tail = `<p style="margin-top:24px;font-size:12px;color:#777777${escapeAttr(beacon)}">If you would rather not hear from us, <a href="${escapeAttr(unsubscribeUrl)}" style="color:#777777">unsubscribe</a>.</p>`;
  // A whole document gets them at the end of its <body>, a fragment at its end.
  (body === undefined ? $.root() : $(body)).append(tail);
  return $.html();
}

/** The plain-text part as it is sent: the content, then the unsubscribe link (RFC 8058 needs it visible too). */
export function trackText(text: string, unsubscribeUrl: string): string {
  return `${text.replace(/\s+$/, '')}\n\n--\nIf you would rather not hear from us, unsubscribe: ${unsubscribeUrl}\n`;
}

function isHttpUrl(href: string): boolean {
  if (!/^https?:/i.test(href)) return false;
  try {
    const u = new URL(href);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
