import sanitizeHtml from 'sanitize-html';

/**
 * The HTML of a message in a lead's thread, made safe to show: the lead's HTML is foreign (anyone
 * can send anything to the inbound address), and ours may quote theirs. sanitize-html (a maintained
 * allow-list sanitiser on htmlparser2) keeps what a reader needs and drops everything else; every
 * rule below is an allow-list entry or the reason something is not on it.
 */

/**
 * Ordinary formatting only. Not here, so dropped with their attributes: script, style, iframe,
 * frame, object, embed, form and its controls (a form could post the reader's session elsewhere),
 * svg and math (they carry their own scripts, links and styles), link, meta, base (a base href
 * would re-point every relative link), video and audio (remote loads).
 */
const ALLOWED_TAGS = [
  'p', 'br', 'div', 'span', 'hr',
  'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del', 'ins', 'sub', 'sup', 'small', 'mark',
  'a', 'img',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'blockquote', 'q', 'cite', 'abbr', 'pre', 'code',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th',
];

/**
 * Attributes by tag. No `style` and no `class` anywhere (a style can load a remote image, which
 * is how our own open beacon and many senders' trackers work, or cover the page; a class would
 * hook into the viewer's own CSS), no `id` or `name` (they clash with the page's), and no event
 * handler (`on*`), which sanitize-html only keeps when allowed.
 */
const ALLOWED_ATTRIBUTES: sanitizeHtml.IOptions['allowedAttributes'] = {
  a: ['href', 'title', 'rel', 'target'],
  img: ['src', 'alt', 'title', 'width', 'height', 'referrerpolicy'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  ol: ['start'],
  abbr: ['title'],
};

/**
 * Elements whose content is dropped with them: script and style text is code, not words; an svg,
 * a template or a head holds no text a reader meant (a title, hidden markup); a textarea's or
 * option's text belongs to a form that is gone.
 */
const NON_TEXT_TAGS = ['script', 'style', 'textarea', 'option', 'noscript', 'svg', 'math', 'template', 'head', 'title', 'iframe', 'object', 'embed', 'frameset'];

/** Our own tracking paths (src/tracking/links.ts), recognised whatever the host the email was sent with. */
const OWN_OPEN_PIXEL = /\/t\/o\/em_[A-Za-z0-9]{1,64}\.[A-Za-z0-9_-]+\.gif$/;
const OWN_CLICK = /\/t\/c\/em_[A-Za-z0-9]{1,64}\/\d+$/;
const OWN_UNSUBSCRIBE = /\/u\/em_[A-Za-z0-9]{1,64}\.[A-Za-z0-9_-]+$/;

function parsedUrl(value: string | undefined): URL | null {
  if (value === undefined) return null;
  try {
    return new URL(value.trim());
  } catch {
    return null;
  }
}

/**
 * A link as shown. Our own click redirect (a quoted email of ours carries them) becomes its
 * target, so reading the thread and following a link does not count as the lead's click; our own
 * unsubscribe link loses its href, so the user cannot unsubscribe the lead by a stray click. Every
 * link opens in a new tab without handing the page to it (noopener), without telling the target
 * where it came from (noreferrer), and without vouching for it (nofollow).
 */
function transformLink(_tag: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const out: sanitizeHtml.Attributes = { ...attribs, rel: 'noopener noreferrer nofollow', target: '_blank' };
  const url = parsedUrl(attribs.href);
  if (url !== null && OWN_CLICK.test(url.pathname)) {
    const target = url.searchParams.get('u');
    if (target !== null && /^https?:\/\//i.test(target)) out.href = target;
    else delete out.href;
  } else if (url !== null && OWN_UNSUBSCRIBE.test(url.pathname)) {
    delete out.href;
  }
  return { tagName: 'a', attribs: out };
}

/** Images never send the page's address to the server they load from. */
function transformImage(_tag: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  return { tagName: 'img', attribs: { ...attribs, referrerpolicy: 'no-referrer' } };
}

/**
 * An image is kept only when it loads over https from someone else: an http image is mixed
 * content a secure page will not load (and can be read or changed on the way); a cid: image names
 * an attachment the thread does not serve; a data: image can be megabytes; and our own open pixel
 * would record an open each time the user reads the thread. An image left without a usable src
 * (its scheme was refused) is dropped rather than shown broken.
 */
function dropImage(frame: sanitizeHtml.IFrame): boolean {
  if (frame.tag !== 'img') return false;
  const url = parsedUrl(frame.attribs.src);
  return url === null || url.protocol !== 'https:' || OWN_OPEN_PIXEL.test(url.pathname);
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: ALLOWED_ATTRIBUTES,
  // Links: web pages and mail only. javascript:, data:, vbscript:, file: and any other scheme are
  // removed (the link keeps its text); so are protocol-relative links (//host), which take the
  // scheme of whatever page shows them.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  nonTextTags: NON_TEXT_TAGS,
  // Tags that are not allowed are removed and their text kept: a <font> or <center> still reads.
  disallowedTagsMode: 'discard',
  transformTags: { a: transformLink, img: transformImage },
  exclusiveFilter: dropImage,
  // Comments can hide conditional markup for old Outlook (<!--[if mso]>); they are never shown.
  allowVulnerableTags: false,
};

/** The HTML made safe to show (see the rules above); an empty string when nothing shown is left. */
export function cleanHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
