/**
 * A campaign's audience from what its create request gives: the free text (`target_audience`,
 * `targetAudience`), the filters (`audience`), both or neither.
 *
 * - Filters given: they are the audience (source `explicit`); the text, if any, is kept for the
 *   emails' wording but chooses nobody.
 * - Text only: the built-in parser turns it into filters (source `parser`).
 * - Neither: every reachable lead of the account (source `all_leads`, no filters), as campaigns
 *   did before audiences existed.
 *
 * Here text is read by the built-in parser (`AudienceTextReader`, synchronous). The model's reading
 * (source `llm`, with the account's own LLM key) needs the account and a provider call, so it
 * happens when the campaign is started: `startCampaign` gives text the parser read to
 * `readAudienceText` (llm-reader.ts), whose filters replace the parser's when they are usable.
 */
import { MATCH_NOBODY_KEYWORD } from '../../leads/profile/types';
import { parseAudienceText } from './parse-text';
import { sizeText } from './size-phrases';
import type { AudienceFilters, AudienceSource } from './types';
import { foldDottedCustom } from './dotted-custom';

export interface CampaignAudience {
  /** Null: every lead of the account (source all_leads). */
  readonly filters: AudienceFilters | null;
  readonly source: AudienceSource;
}

/** Turns audience text into filters without I/O: the built-in parser (the LLM reader is llm-reader.ts). */
export interface AudienceTextReader {
  readonly source: Extract<AudienceSource, 'parser' | 'llm'>;
  read(text: string): AudienceFilters;
}

export const BUILT_IN_READER: AudienceTextReader = { source: 'parser', read: (text) => parseAudienceText(text).filters };

export function audienceOfCampaign(text: string | null, filters: AudienceFilters | undefined, reader: AudienceTextReader = BUILT_IN_READER): CampaignAudience {
  if (filters !== undefined) return { filters: foldDottedCustom(filters), source: 'explicit' };
  const given = text?.trim() ?? '';
  if (given !== '') return { filters: reader.read(given), source: reader.source };
  return { filters: null, source: 'all_leads' };
}

const LABELS: readonly [keyof AudienceFilters, string][] = [
  ['titles', 'titles'],
  ['seniorities', 'seniorities'],
  ['departments', 'departments'],
  ['locations', 'locations'],
  ['industries', 'industries'],
  ['companySizes', 'company sizes'],
  ['keywords', 'keywords'],
];

/** A level range in words: 'director or above', 'manager to vp', 'senior or below'. */
export function levelRangeText(min: string | undefined, max: string | undefined): string {
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  return min !== undefined ? `${min} or above` : `${max ?? ''} or below`;
}

/**
 * Why an audience matched no lead, naming what it asked for: "No lead of the account matches:
 * titles CTO; locations Japan". Null when leads matched.
 */
export function zeroMatchReason(audience: CampaignAudience, matched: number): string | null {
  if (matched > 0) return null;
  if (audience.filters === null) return 'The account has no reachable lead.';
  const f = audience.filters;
  const parts: string[] = [];
  for (const [key, label] of LABELS) {
    const values = f[key] as readonly unknown[] | undefined;
    if (values === undefined || values.length === 0) continue;
    const shown = key === 'companySizes' ? (values as { min?: number; max?: number }[]).map(sizeText) : (values as string[]).filter((v) => v !== MATCH_NOBODY_KEYWORD);
    if (shown.length > 0) parts.push(`${label} ${shown.join(', ')}`);
  }
  if (f.seniorityMin !== undefined || f.seniorityMax !== undefined) parts.push(`seniority ${levelRangeText(f.seniorityMin, f.seniorityMax)}`);
  for (const [name, values] of Object.entries(f.custom ?? {})) if (values.length > 0) parts.push(`custom.${name} ${values.join(', ')}`);
  if (parts.length === 0) return 'The audience names nobody: no filter or word of it describes a lead.';
  return `No lead of the account matches: ${parts.join('; ')}`;
}
