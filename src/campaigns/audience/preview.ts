/**
 * An audience previewed: its text (read by the built-in parser), its filters, or a campaign's
 * stored audience, resolved and matched against the account's reachable leads exactly as a
 * campaign's audience is (see audience-of-campaign.ts and planning/audience-match.ts); and, for a
 * lead named by id, why that lead is in or out, filter by filter (explain.ts). Shared by
 * POST /v1/audiences/preview and `outreach audience preview`.
 *
 * It never widens to everyone: text of only stop words, or filters that name nobody, match no lead
 * and say why.
 */
import { isDeepStrictEqual } from 'node:util';
import { QueryTypes, type Sequelize } from 'sequelize';
import { InvalidInputError, NotFoundError } from '../../errors/domain-errors';
import { ALL_LEADS } from '../../leads/criteria-sql';
import { getLeadForMatching } from '../../leads/lead-for-matching';
import { countMatchingLeads, findMatchingLeads } from '../../leads/lead-repository';
import type { LeadView } from '../../leads/lead-view';
import { storedAudience } from '../planning/audience-match';
import { zeroMatchReason } from './audience-of-campaign';
import { foldDottedCustom } from './dotted-custom';
import { explainLead, type LeadExplanation } from './explain';
import { rangeProblem } from './filters-schema';
import { MAX_AUDIENCE_TEXT_LENGTH, parseAudienceText, type AudienceReading } from './parse-text';
import { resolveAudience } from './resolve';
import type { AudienceFilters, AudienceSource } from './types';

/** How many matching leads a preview shows. */
export const PREVIEW_LEAD_COUNT = 10;

/** What to preview: exactly one of the audience's text, its filters and a campaign; optionally a lead to explain. */
export interface AudiencePreviewInput {
  readonly text?: string;
  readonly filters?: AudienceFilters;
  /** A campaign of the account: its stored audience. */
  readonly campaignId?: string;
  /** A lead of the account: why it is in or out of the audience. */
  readonly leadId?: string;
}

export interface AudiencePreview {
  /** The filters matched: the parser's reading of the text, the filters given, or the campaign's (null: every lead). */
  readonly filters: AudienceFilters | null;
  readonly source: AudienceSource;
  /** Words and values no vocabulary knows (kept as keywords, so they narrow), and why nobody is named. */
  readonly unrecognised: string[];
  /** Reachable leads of the account matching the audience. */
  readonly matchedLeads: number;
  /** The first PREVIEW_LEAD_COUNT of them, in id order. */
  readonly leads: LeadView[];
  /** Why no lead matches; null when some do. */
  readonly reason: string | null;
  /** Why the lead named by `leadId` is in or out; null when none was named. */
  readonly explanation: LeadExplanation | null;
}

/** How the caller spells the fields, for messages. */
export interface PreviewFieldNames {
  readonly text: string;
  readonly filters: string;
  readonly campaignId: string;
}

const DEFAULT_NAMES: PreviewFieldNames = { text: 'text', filters: 'filters', campaignId: 'campaignId' };

type Given = { text: string } | { filters: AudienceFilters } | { campaignId: string };

/**
 * The checks a request schema cannot say on its own: exactly one of text, filters and campaign,
 * text not blank nor longer than MAX_AUDIENCE_TEXT_LENGTH, size ranges with min <= max, a level
 * range not upside down.
 */
function checkInput(input: AudiencePreviewInput, names: PreviewFieldNames): Given {
  const given = [input.text, input.filters, input.campaignId].filter((x) => x !== undefined).length;
  if (given > 1) throw new InvalidInputError(`Give one of ${names.text}, ${names.filters} and ${names.campaignId}, not several`);
  if (given === 0) throw new InvalidInputError(`Give ${names.text}, ${names.filters} or ${names.campaignId}`);
  if (input.text !== undefined) {
    if (input.text.trim() === '') throw new InvalidInputError(`${names.text} must not be empty`);
    if (input.text.length > MAX_AUDIENCE_TEXT_LENGTH) throw new InvalidInputError(`${names.text} must be at most ${MAX_AUDIENCE_TEXT_LENGTH} characters`);
    return { text: input.text };
  }
  if (input.campaignId !== undefined) return { campaignId: input.campaignId };
  const filters = input.filters!;
  const problem = rangeProblem(filters, { companySizes: `${names.filters}.companySizes`, seniorityMin: `${names.filters}.seniorityMin`, seniorityMax: `${names.filters}.seniorityMax` });
  if (problem !== null) throw new InvalidInputError(problem);
  return { filters };
}

interface Audience {
  readonly filters: AudienceFilters | null;
  readonly source: AudienceSource;
  readonly unrecognised: readonly string[];
  readonly readings: readonly AudienceReading[];
}

/**
 * A campaign's stored audience. Its readings (which words became which filter) are the parser's
 * reading of its text again, when that still gives the stored filters.
 */
async function campaignAudience(sequelize: Sequelize, accountId: string, campaignId: string): Promise<Audience> {
  const rows = await sequelize.query<{ audience_filters: AudienceFilters | null; audience_source: string | null; target_audience: string | null }>(
    'SELECT audience_filters, audience_source, target_audience FROM campaigns WHERE id = $1 AND account_id = $2',
    { bind: [campaignId, accountId], type: QueryTypes.SELECT },
  );
  const row = rows[0];
  if (row === undefined) throw new NotFoundError('campaign');
  const audience = storedAudience(row.audience_filters, row.audience_source);
  const again = audience.source === 'parser' && row.target_audience !== null ? parseAudienceText(row.target_audience.trim()) : null;
  // jsonb does not keep the order of members: compared as values.
  const same = again !== null && isDeepStrictEqual(again.filters, audience.filters);
  return { filters: audience.filters, source: audience.source, unrecognised: same ? again.unrecognised : [], readings: same ? again.readings : [] };
}

async function audienceOf(sequelize: Sequelize, accountId: string, given: Given): Promise<Audience> {
  if ('text' in given) {
    const parsed = parseAudienceText(given.text.trim());
    return { filters: parsed.filters, source: 'parser', unrecognised: parsed.unrecognised, readings: parsed.readings };
  }
  if ('filters' in given) return { filters: foldDottedCustom(given.filters), source: 'explicit', unrecognised: [], readings: [] };
  return campaignAudience(sequelize, accountId, given.campaignId);
}

/** The preview of an audience over the account's reachable leads; InvalidInputError for unusable input, NotFoundError for an unknown campaign or lead. */
export async function previewAudience(sequelize: Sequelize, accountId: string, input: AudiencePreviewInput, names: PreviewFieldNames = DEFAULT_NAMES): Promise<AudiencePreview> {
  const given = checkInput(input, names);
  const audience = await audienceOf(sequelize, accountId, given);
  const criteria = audience.filters === null ? ALL_LEADS : resolveAudience(audience.filters);
  const [matchedLeads, leads, lead] = await Promise.all([
    countMatchingLeads(sequelize, accountId, criteria, { reachableOnly: true }),
    findMatchingLeads(sequelize, accountId, criteria, { reachableOnly: true, limit: PREVIEW_LEAD_COUNT }),
    input.leadId === undefined ? Promise.resolve(null) : getLeadForMatching(sequelize, accountId, input.leadId),
  ]);
  if (input.leadId !== undefined && lead === null) throw new NotFoundError('lead');
  return {
    filters: audience.filters,
    source: audience.source,
    unrecognised: [...new Set([...audience.unrecognised, ...criteria.unrecognised])],
    matchedLeads,
    leads,
    reason: zeroMatchReason({ filters: audience.filters, source: audience.source }, matchedLeads),
    explanation: lead === null ? null : explainLead(audience.filters, criteria, lead, audience.readings),
  };
}
