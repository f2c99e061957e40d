import type { CheerioAPI } from 'cheerio';

/** Whitespace collapsed and trimmed; null when nothing is left. */
export function cleanText(s: string | undefined | null): string | null {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

/** At most `max` characters, cut at a word boundary with an ellipsis. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** `href` resolved against the page, when it is an http(s) URL; data:, javascript: and junk are null. */
export function absoluteUrl(href: string | undefined, base: URL): URL | null {
  if (href === undefined || href.trim() === '') return null;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The content of the first <meta> with this name or property (both spellings are common). */
export function metaContent($: CheerioAPI, key: string): string | null {
  let found: string | null = null;
  $('meta').each((_i, el) => {
    const attrs = $(el);
    const k = (attrs.attr('property') ?? attrs.attr('name') ?? attrs.attr('itemprop') ?? '').trim().toLowerCase();
    if (k === key) {
      found = cleanText(attrs.attr('content'));
      if (found !== null) return false;
    }
    return undefined;
  });
  return found;
}
