/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The link as an http(s) URL, or null: nothing else (javascript:, data:, mailto:) becomes a link. */
export function safeHttpUrl(link: string | null | undefined): string | null {
  if (link === null || link === undefined) return null;
  const trimmed = link.trim();
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? trimmed : null;
  } catch {
    return null;
  }
}

/** Anything normalizeText would change besides the ends: a \r, a space or tab before a line end, three line breaks. */
const NEEDS_NORMALIZING = /\r|[ \t]\n|\n{3}/;

/** Line endings to \n, trailing spaces off, at most one blank line between paragraphs. */
export function normalizeText(text: string): string {
  // Most texts (every template render of a clean body) need only the trim: skip the line walk.
  if (!NEEDS_NORMALIZING.test(text)) return text.trim();
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** An http(s) URL in running text, up to the first character no URL has unescaped. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'{}|\\^`]+/gi;
/** Punctuation that ends a sentence after a URL rather than belonging to it. */
const TRAILING = /[.,;:!?)\]]+$/;

/** The http(s) URLs written in a text, without the punctuation that ends a sentence after them. */
export function urlsIn(text: string): string[] {
  return [...new Set([...text.matchAll(URL_IN_TEXT)].map((m) => m[0].replace(TRAILING, '')))];
}

/** One line of text as HTML: escaped, with the allowed URLs (exactly as written) made links. */
function lineToHtml(line: string, allowed: ReadonlySet<string>): string {
  if (allowed.size === 0) return escapeHtml(line);
  let html = '';
  let at = 0;
  for (const m of line.matchAll(URL_IN_TEXT)) {
    const url = m[0].replace(TRAILING, '');
    if (!allowed.has(url)) continue;
    html += `${escapeHtml(line.slice(at, m.index))}<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    at = m.index + url.length;
  }
  return html + escapeHtml(line.slice(at));
}

/**
 * The HTML part made from the text part, so the two always say the same thing: every character
 * escaped, blank lines separate paragraphs, single line breaks stay breaks, and only the given
 * http(s) URLs become links, where the text spells them out (a URL the text holds but the list does
 * not, written by a model or carried by a lead's data, stays text). Nothing of the text can add markup.
 */
export function textToHtml(text: string, linkUrls: readonly string[] = []): string {
  const allowed = new Set(linkUrls.map(safeHttpUrl).filter((u): u is string => u !== null));
  return normalizeText(text)
    .split(/\n\n/)
    .map((para) => `<p style="margin:0 0 1em 0">${para.split('\n').map((line) => lineToHtml(line, allowed)).join('<br>\n')}</p>`)
    .join('\n');
}
