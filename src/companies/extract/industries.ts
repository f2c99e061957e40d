import type { CheerioAPI } from 'cheerio';
import { INDUSTRY_LEXICON } from './industry-lexicon';
import { metaContent } from './text';

const MAX_INDUSTRIES = 5;
const MAX_HEADINGS = 40;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** One regex per industry: its terms as whole words, spaces matching whitespace or a hyphen. */
const MATCHERS = INDUSTRY_LEXICON.map(({ industry, terms }) => ({
  industry,
  pattern: new RegExp(`(?<!\\w)(${terms.map((t) => escape(t).replace(/\s+/g, '[\\s-]+')).join('|')})(?!\\w)`, 'gi'),
}));

/**
 * Industries the site talks about, from what it says about itself: meta keywords, title,
 * descriptions and headings. Ranked by how many lexicon terms occur (ties in lexicon order),
 * at most five, as the lexicon's labels (`saas`, `fintech`, `e-commerce`...).
 */
export function extractIndustries($: CheerioAPI): string[] {
  const headings = $('h1, h2, h3')
    .toArray()
    .slice(0, MAX_HEADINGS)
    .map((el) => $(el).text());
  const text = [
    metaContent($, 'keywords'),
    $('title').first().text(),
    metaContent($, 'og:title'),
    metaContent($, 'description'),
    metaContent($, 'og:description'),
    ...headings,
  ]
    .filter((s): s is string => s !== null)
    .join('\n');
  return MATCHERS.map(({ industry, pattern }, order) => ({ industry, order, hits: [...text.matchAll(pattern)].length }))
    .filter((m) => m.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.order - b.order)
    .slice(0, MAX_INDUSTRIES)
    .map((m) => m.industry);
}
