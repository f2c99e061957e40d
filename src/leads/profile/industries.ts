/** Industry labels (provider labels or audience words) to the taxonomy ids of vocabulary/industries.json. */
import { fold, matchWords } from './normalize';
import { longestAt, vocabulary } from './vocabulary';

/** The industry id a label names: exactly, else by the leftmost, longest synonym it contains. */
export function industryId(label: string | null | undefined): string | null {
  if (label === null || label === undefined) return null;
  const v = vocabulary();
  const words = matchWords(fold(label));
  if (words.length === 0) return null;
  const exact = v.industries.map.get(words.join(' '));
  if (exact !== undefined) return exact;
  for (let i = 0; i < words.length; i++) {
    const hit = longestAt(v.industries, words, i);
    if (hit !== undefined) return hit.value;
  }
  return null;
}

/** An industry given exactly (id, name or synonym), without reading inside longer labels. */
export function industryIdExact(label: string): string | null {
  const v = vocabulary();
  const id = label.trim().toLowerCase();
  if (v.industryIds.has(id)) return id;
  return v.industries.map.get(matchWords(fold(label)).join(' ')) ?? null;
}
