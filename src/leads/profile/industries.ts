/**
 * Industry labels (provider labels or audience words) to the taxonomy ids of
 * vocabulary/industries.json, and umbrella industries to what they cover.
 */
import { fold, matchWords } from './normalize';
import { longestAt, vocabulary, type PhraseHit } from './vocabulary';

/**
 * The industry id a label names: exactly, else its longest synonym anywhere in it, a member before
 * the umbrella that covers it when both are as long ('Retail - Online' is online_retail, not
 * retail), else the leftmost.
 */
export function industryId(label: string | null | undefined): string | null {
  if (label === null || label === undefined) return null;
  const v = vocabulary();
  const words = matchWords(fold(label));
  if (words.length === 0) return null;
  const exact = v.industries.map.get(words.join(' '));
  if (exact !== undefined) return exact;
  let best: PhraseHit<string> | undefined;
  for (let i = 0; i < words.length; i++) {
    const hit = longestAt(v.industries, words, i);
    if (hit === undefined) continue;
    const longer = best === undefined || hit.end - hit.start > best.end - best.start;
    const sameLength = best !== undefined && hit.end - hit.start === best.end - best.start;
    const narrower = sameLength && best!.value !== hit.value && (v.industryMembers.get(best!.value) ?? []).includes(hit.value);
    if (longer || narrower) best = hit;
  }
  return best?.value ?? null;
}

/** An industry given exactly (id, name or synonym), without reading inside longer labels. */
export function industryIdExact(label: string): string | null {
  const v = vocabulary();
  const id = label.trim().toLowerCase();
  if (v.industryIds.has(id)) return id;
  return v.industries.map.get(matchWords(fold(label)).join(' ')) ?? null;
}

/** The industry and every industry it covers ('e-commerce': ecommerce, online_retail, mail_order_retail, marketplaces). */
export function industryMembers(id: string): readonly string[] {
  return vocabulary().industryMembers.get(id) ?? [id];
}
