import type { CheerioAPI } from 'cheerio';
import { clip, cleanText, metaContent } from './text';

/** Title segments that name the page, not the company. */
const NOT_A_NAME = /^(home|home ?page|welcome|start|official (web)?site|index)$/i;
/** " | ", " - ", " – ", " — ", " · ", " • ", " » ", ": " between a name and a tagline. */
const SEPARATOR = /\s+[|\-–—·•»]\s+|:\s+/;

/**
 * The company's name: what the site says it is called (og:site_name, application-name), else its
 * <title> without the tagline or "Home" part. Among title segments, one that spells the domain's
 * first label wins ("The CRM for teams | Acme" on acme.com gives "Acme"); otherwise the first.
 */
export function extractName($: CheerioAPI, domain: string): string | null {
  const declared = metaContent($, 'og:site_name') ?? metaContent($, 'application-name') ?? metaContent($, 'apple-mobile-web-app-title');
  if (declared !== null) return clip(declared, 200);
  const title = cleanText($('head > title').first().text()) ?? cleanText($('title').first().text());
  return title === null ? null : nameFromTitle(title, domain);
}

export function nameFromTitle(title: string, domain: string): string | null {
  const segments = title
    .split(SEPARATOR)
    .map((s) => s.replace(/^welcome to\s+/i, '').trim())
    .filter((s) => s !== '' && !NOT_A_NAME.test(s));
  if (segments.length === 0) return null;
  const label = squash(domain.split('.')[0] ?? '');
  const spelled = label.length >= 2 ? segments.find((s) => squash(s) === label) : undefined;
  return clip(spelled ?? segments[0] ?? '', 200);
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}
