import type { CheerioAPI } from 'cheerio';
import { clip, cleanText, metaContent } from './text';

const MIN_PARAGRAPH = 50;
const MAX_LENGTH = 500;
/** Paragraphs that are site furniture, not a description of the company. */
const FURNITURE = /cookie|javascript|browser|subscribe to our newsletter|all rights reserved|©/i;

/**
 * What the company says about itself: the meta description, else og:/twitter: description, else
 * the first paragraph of the page's main content that is long enough to be prose.
 */
export function extractDescription($: CheerioAPI): string | null {
  const meta = metaContent($, 'description') ?? metaContent($, 'og:description') ?? metaContent($, 'twitter:description');
  if (meta !== null) return clip(meta, MAX_LENGTH);
  let found: string | null = null;
  const scope = $('main').length > 0 ? $('main p') : $('body p');
  scope.each((_i, el) => {
    const text = cleanText($(el).text());
    if (text !== null && text.length >= MIN_PARAGRAPH && !FURNITURE.test(text)) {
      found = clip(text, MAX_LENGTH);
      return false;
    }
    return undefined;
  });
  return found;
}
