/**
 * Industry labels (provider labels or audience words) to the taxonomy ids of
 * vocabulary/industries.json, and umbrella industries to what they cover.
 */
import { fold, matchWords } from './normalize';
import { longestAt, vocabulary, type PhraseHit } from './vocabulary';

/**
 * The industry id a label names: exactly, else its longest synonym anywhere in it, a member before
 * the umbrella that covers it when both are as long ('Retail - Online' is online_retail, not
 * retail), else the rightmost: an English label ends on what the company is ('Property & Casualty
 * Insurance' is an insurer, 'Healthcare Staffing' a staffing firm).
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
    if (best === undefined || hit.end - hit.start > best.end - best.start) {
      best = hit;
      continue;
    }
    if (hit.end - hit.start < best.end - best.start || hit.value === best.value) continue;
    // As long: a member before its umbrella, else the later one (unless that is the umbrella of the earlier).
    const hitCoversBest = (v.industryMembers.get(hit.value) ?? []).includes(best.value);
    if (!hitCoversBest) best = hit;
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
