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

/** Line endings to \n, trailing spaces off, at most one blank line between paragraphs. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The HTML part made from the text part, so the two always say the same thing: every character
 * escaped, blank lines separate paragraphs, single line breaks stay breaks, and only the given
 * http(s) URLs (the campaign's calendar link) become links. Nothing of the text can add markup.
 */
export function textToHtml(text: string, linkUrls: readonly string[] = []): string {
  const links = linkUrls.map(safeHttpUrl).filter((u): u is string => u !== null);
  return normalizeText(text)
    .split(/\n\n/)
    .map((para) => {
      let html = para
        .split('\n')
        .map((line) => escapeHtml(line))
        .join('<br>\n');
      for (const url of links) {
        const escaped = escapeHtml(url);
        html = html.split(escaped).join(`<a href="${escaped}">${escaped}</a>`);
      }
      return `<p style="margin:0 0 1em 0">${html}</p>`;
    })
    .join('\n');
}
