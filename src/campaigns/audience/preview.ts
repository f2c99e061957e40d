/**
 * An audience previewed before a campaign is created: its text (read by the built-in parser) or
 * its filters, resolved and matched against the account's reachable leads exactly as a campaign's
 * audience is (see audience-of-campaign.ts and planning/audience-match.ts). Shared by
 * POST /v1/audiences/preview and `outreach audience preview`.
 *
 * It never widens to everyone: text of only stop words, or filters that name nobody, match no lead
 * and say why.
 */
import type { Sequelize } from 'sequelize';
import { InvalidInputError } from '../../errors/domain-errors';
import { countMatchingLeads, findMatchingLeads } from '../../leads/lead-repository';
import type { LeadView } from '../../leads/lead-view';
import { zeroMatchReason } from './audience-of-campaign';
import { MAX_AUDIENCE_TEXT_LENGTH, parseAudienceText } from './parse-text';
import { resolveAudience } from './resolve';
import type { AudienceFilters } from './types';
import { foldDottedCustom } from './dotted-custom';

/** How many matching leads a preview shows. */
export const PREVIEW_LEAD_COUNT = 10;

/** What to preview: exactly one of the audience's text and its filters. */
export interface AudiencePreviewInput {
  readonly text?: string;
  readonly filters?: AudienceFilters;
}

export interface AudiencePreview {
  /** The filters matched: the parser's reading of the text, or the filters given. */
  readonly filters: AudienceFilters;
  readonly source: 'parser' | 'explicit';
  /** Words and values no vocabulary knows (kept as keywords, so they narrow), and why nobody is named. */
  readonly unrecognised: string[];
  /** Reachable leads of the account matching the audience. */
  readonly matchedLeads: number;
  /** The first PREVIEW_LEAD_COUNT of them, in id order. */
  readonly leads: LeadView[];
  /** Why no lead matches; null when some do. */
  readonly reason: string | null;
}

/**
 * The checks a request schema cannot say on its own: exactly one of text and filters, text not
 * blank nor longer than MAX_AUDIENCE_TEXT_LENGTH, size ranges with min <= max. `names` spells the
 * fields as the caller knows them.
 */
function checkInput(input: AudiencePreviewInput, names: { text: string; filters: string }): { text: string } | { filters: AudienceFilters } {
  const hasText = input.text !== undefined;
  const hasFilters = input.filters !== undefined;
  if (hasText && hasFilters) throw new InvalidInputError(`Give either ${names.text} or ${names.filters}, not both`);
  if (!hasText && !hasFilters) throw new InvalidInputError(`Give ${names.text} or ${names.filters}`);
  if (input.text !== undefined) {
    if (input.text.trim() === '') throw new InvalidInputError(`${names.text} must not be empty`);
    if (input.text.length > MAX_AUDIENCE_TEXT_LENGTH) throw new InvalidInputError(`${names.text} must be at most ${MAX_AUDIENCE_TEXT_LENGTH} characters`);
    return { text: input.text };
  }
  const filters = input.filters!;
  (filters.companySizes ?? []).forEach((r, i) => {
    if (r.min !== undefined && r.max !== undefined && r.min > r.max) throw new InvalidInputError(`${names.filters}.companySizes[${i}]: min must not exceed max`);
  });
  return { filters };
}

/** The preview of an audience over the account's reachable leads; InvalidInputError for unusable input. */
export async function previewAudience(
  sequelize: Sequelize,
  accountId: string,
  input: AudiencePreviewInput,
  names: { text: string; filters: string } = { text: 'text', filters: 'filters' },
): Promise<AudiencePreview> {
  const given = checkInput(input, names);
  const parsed = 'text' in given ? parseAudienceText(given.text.trim()) : null;
  const filters = parsed === null ? foldDottedCustom((given as { filters: AudienceFilters }).filters) : parsed.filters;
  const source = parsed === null ? 'explicit' : 'parser';
  const criteria = resolveAudience(filters);
  const [matchedLeads, leads] = await Promise.all([
    countMatchingLeads(sequelize, accountId, criteria, { reachableOnly: true }),
    findMatchingLeads(sequelize, accountId, criteria, { reachableOnly: true, limit: PREVIEW_LEAD_COUNT }),
  ]);
  return {
    filters,
    source,
    unrecognised: [...new Set([...(parsed?.unrecognised ?? []), ...criteria.unrecognised])],
    matchedLeads,
    leads,
    reason: zeroMatchReason({ filters, source }, matchedLeads),
  };
}
