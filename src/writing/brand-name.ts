/**
 * The name of the company a campaign speaks for, as an email says it: the name its site gives
 * (the scrape), or, when the site could not be read, the name its domain spells: `stripe.com` is
 * "Stripe", `https://www.acme-labs.io/en` "Acme Labs", `shop.example.co.uk` "Example" (the
 * registrable name, whatever the public suffix), `ibm.com` "IBM" (three letters or fewer read as
 * an acronym).
 */
import { getDomainWithoutSuffix } from 'tldts';

function fromDomain(hostOrUrl: string): string | null {
  const label = getDomainWithoutSuffix(hostOrUrl.trim()) ?? null;
  if (label === null || label === '' || !/[a-z]/i.test(label)) return null;
  const words = label.split(/[-_]+/).filter((w) => w !== '');
  if (words.length === 1 && words[0]!.length <= 3) return words[0]!.toUpperCase();
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** The scraped name when there is one, else the domain's; null only for a target with no name at all (an IP address). */
export function brandName(scrapedName: string | null | undefined, target: string | null | undefined): string | null {
  // eslint-disable-next-line no-control-regex
  const scraped = (scrapedName ?? '').replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  if (scraped !== '' && scraped.length <= 60) return scraped;
  return target ? fromDomain(target) : null;
}
