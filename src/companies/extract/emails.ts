import type { CheerioAPI } from 'cheerio';

const MAX_EMAILS = 20;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}/g;
const EXACT_EMAIL = new RegExp(`^${EMAIL.source}$`);
/** "logo@2x.png" and friends: retina image names and asset paths look like addresses. */
const FILE_SUFFIX = /\.(png|jpe?g|gif|svg|webp|avif|ico|bmp|tiff?|css|js|mjs|map|json|woff2?|ttf|otf|eot|mp4|webm|mov|pdf|zip)$/i;
/** Placeholders in forms and docs, never a company's contact. */
const PLACEHOLDER_DOMAIN = /(^|\.)(example\.(com|org|net)|domain\.com|email\.com|yourdomain\.com|yourcompany\.com|sentry\.io|sentry-next\.wixpress\.com)$/i;

/**
 * Contact addresses on the page: mailto: links first, then addresses written in the visible text
 * (scripts, styles and templates removed), lower-cased, without duplicates or image file names.
 */
export function extractEmails($: CheerioAPI): string[] {
  const found = new Set<string>();
  const add = (candidate: string): void => {
    const email = candidate.trim().toLowerCase();
    if (found.size < MAX_EMAILS && EXACT_EMAIL.test(email) && !FILE_SUFFIX.test(email) && !PLACEHOLDER_DOMAIN.test(email.split('@')[1] ?? '')) found.add(email);
  };
  $('a[href]').each((_i, el) => {
    const href = $(el).attr('href') ?? '';
    if (!/^mailto:/i.test(href)) return;
    let addresses = href.slice('mailto:'.length).split('?')[0] ?? '';
    try {
      addresses = decodeURIComponent(addresses);
    } catch {
      return;
    }
    for (const a of addresses.split(',')) add(a);
  });
  const body = $('body').clone();
  body.find('script, style, noscript, template, svg, iframe').remove();
  // Block elements run together in .text(); a space after each keeps "a@b.com" and "Next" apart.
  body.find('p, div, li, td, th, br, h1, h2, h3, h4, h5, h6, address, section, header, footer').after(' ');
  for (const m of body.text().matchAll(EMAIL)) add(m[0]);
  return [...found];
}
