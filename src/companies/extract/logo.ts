import type { CheerioAPI } from 'cheerio';
import { absoluteUrl, metaContent } from './text';

/**
 * The company's logo, as an absolute http(s) URL, from the most to the least specific source:
 * 1. an <img> marked as a logo (class, id, alt or src says "logo", or its link/wrapper does) in
 *    the header, the navigation or the link to the home page: the site's own logo;
 * 2. apple-touch-icon: square, usually 180 px;
 * 3. og:image: often a social banner rather than a logo, but a picture of the brand;
 * 4. rel=icon: the favicon, small but always the brand (the largest declared size wins);
 * 5. a logo-marked <img> anywhere else (last, because "trusted by" sections are full of
 *    other companies' logos).
 * Inline data: images are skipped: they can be large and are not URLs a client can use.
 */
export function extractLogo($: CheerioAPI, base: URL): string | null {
  const marked = $('img').filter((_i, img) => {
    const self = $(img);
    const wrapper = self.parent();
    const hints = [self.attr('class'), self.attr('id'), self.attr('alt'), self.attr('src'), wrapper.attr('class'), wrapper.attr('id')];
    return hints.some((h) => h !== undefined && /logo/i.test(h)) && !/^data:/i.test(self.attr('src') ?? 'data:');
  });
  const inMasthead = marked.filter((_i, img) => $(img).closest('header, nav, [class*="header" i], [id*="header" i], a[href="/"]').length > 0);
  const candidates = [
    inMasthead.first().attr('src'),
    largestIcon($, 'link[rel~="apple-touch-icon" i], link[rel~="apple-touch-icon-precomposed" i]'),
    metaContent($, 'og:image') ?? metaContent($, 'og:image:url') ?? undefined,
    largestIcon($, 'link[rel~="icon" i]'),
    marked.first().attr('src'),
  ];
  for (const href of candidates) {
    const url = href ? absoluteUrl(href, base) : null;
    if (url !== null) return url.href;
  }
  return null;
}

/** The href of the link with the largest `sizes` (a missing size counts as 0). */
function largestIcon($: CheerioAPI, selector: string): string | undefined {
  let best: { href: string; size: number } | undefined;
  $(selector).each((_i, el) => {
    const href = $(el).attr('href');
    if (href === undefined || /^data:/i.test(href)) return;
    const size = Math.max(0, ...($(el).attr('sizes') ?? '').split(/\s+/).map((s) => Number(s.split(/x/i)[0]) || 0));
    if (best === undefined || size > best.size) best = { href, size };
  });
  return best?.href;
}
