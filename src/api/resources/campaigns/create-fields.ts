import { rangeProblem } from '../../../campaigns/audience/filters-schema';
import { companyDomain, siteUrl } from '../../../companies/site-url';
import { ScrapeError } from '../../../companies/scrape-error';
import type { Sequelize } from 'sequelize';
import { DEFAULT_LEAD_CONTROL, type LeadControl, type NewCampaign } from '../../../campaigns/campaign-repository';
import { checkListsOwned } from '../../../leads/lists/list-repository';
import { checkCampaignMailboxes } from '../../../campaigns/sending/campaign-mailboxes';
import { audienceOfCampaign } from '../../../campaigns/audience/audience-of-campaign';
import type { AudienceFilters } from '../../../campaigns/audience/types';
import { presetSequence, type CampaignSequence } from '../../../campaigns/model/sequence';
import { findTemplate, TEMPLATE_NAMES, type OutreachTemplate } from '../../../campaigns/model/templates';
import { validateSequence, type FieldCasing, type StepInput } from '../../../campaigns/sequences/validate-sequence';
import { badRequest } from '../../http/errors';

/** What both surfaces' create requests share on their way to a campaign row. */

/** A campaign's schedule when the request says nothing: every day, 09:00-17:00 UTC. */
export const DEFAULT_SCHEDULE = {
  scheduleFrequency: 'daily',
  timezone: 'UTC',
  sendWindowStartMinute: 9 * 60,
  sendWindowEndMinute: 17 * 60,
} as const satisfies Partial<NewCampaign>;

// A DNS label: letters, digits and hyphens (the URL parser lower-cases a host and spells an
// international one in xn-- punycode), 1 to 63 of them, no hyphen at either end.
const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host a site can live at: a domain name (a final dot allowed) of at most 253 characters, or an IP address. */
function isSiteHost(host: string): boolean {
  if (host.startsWith('[')) return true; // an IPv6 literal, which the URL parser has checked
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name.length <= 253 && name.split('.').every((label) => DNS_LABEL.test(label));
}

/**
 * The site a campaign speaks for (`target_url` on A, `brandUrl` on B) as a URL, checked the way a
 * scrape checks it (a bare domain means https), with a host that can exist (no `a..example`, no
 * `-a.example`, no `a_b.example`); a 400 naming the field when it is unusable. Both surfaces
 * refuse the same values: this is their one check.
 */
export function siteField(value: string, field: string): URL {
  let url: URL;
  try {
    url = siteUrl(value);
  } catch (err) {
    if (err instanceof ScrapeError) throw badRequest(`${field}: ${err.message.replace(/^url /, '')}`);
    throw err;
  }
  if (!isSiteHost(url.hostname)) throw badRequest(`${field}: host ${JSON.stringify(url.hostname.slice(0, 200))} is not a valid domain name`);
  return url;
}

/** A create request's optional text, trimmed; null when there is none: a blank field says nothing. */
export function optionalText(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/**
 * The brand a campaign speaks for: its site's host, lower-case, without `www.` and port (the key a
 * scraped company has), so `https://www.Acme.com/en` and `acme.com` are one brand. Costs copy it,
 * and the cost and delivery statistics of Surface B group and filter by it.
 */
export function brandIdOf(site: URL): string {
  return companyDomain(site);
}

/** The template `mcp` names, or a 400 that lists the valid names. */
export function templateField(mcp: string): OutreachTemplate {
  const template = findTemplate(mcp);
  if (template === undefined) throw badRequest(`unknown mcp ${JSON.stringify(mcp)}: valid values are ${TEMPLATE_NAMES.join(', ')}`);
  return template;
}

/**
 * The sequence a campaign stores: the steps given (checked: validateSequence, a 400 naming the step
 * and the problem), or its template's preset steps.
 */
export function sequenceField(steps: readonly StepInput[] | undefined, template: OutreachTemplate, casing: FieldCasing): CampaignSequence {
  return steps === undefined ? presetSequence(template) : validateSequence(steps, casing);
}

/** The tracking columns of a create request (everything tracked, HTML and text, unless it says otherwise). */
export function trackingFields(tracking: { opens?: boolean; clicks?: boolean } | undefined, plainTextOnly: boolean | undefined): { trackOpens: boolean; trackClicks: boolean; plainTextOnly: boolean } {
  return { trackOpens: tracking?.opens ?? true, trackClicks: tracking?.clicks ?? true, plainTextOnly: plainTextOnly ?? false };
}

/** DECIMAL columns take strings: no binary float reaches the database. */
export const usd = (v: number | undefined): string | null => (v === undefined ? null : String(v));

/**
 * The audience columns of a campaign from the request's text and filters (see
 * audienceOfCampaign: the filters win, text alone is parsed, neither is all_leads). `names` spells
 * the range members in the surface's casing for the 400 of a size range whose min exceeds its max
 * or a seniority range upside down.
 */
export function audienceFields(
  text: string | null,
  filters: AudienceFilters | undefined,
  names: { companySizes: string; seniorityMin: string; seniorityMax: string },
): Pick<NewCampaign, 'audienceFilters' | 'audienceSource'> {
  const problem = filters === undefined ? null : rangeProblem(filters, names);
  if (problem !== null) throw badRequest(problem);
  const audience = audienceOfCampaign(text, filters);
  return { audienceFilters: audience.filters, audienceSource: audience.source };
}

/** The create request's lead-control members, in the domain's casing (Surface A's are renamed first). */
export interface LeadControlInput {
  readonly leadListIds?: readonly string[];
  readonly allowDuplicateLeads?: boolean;
  readonly stopCompanyOnReply?: boolean;
  readonly maxFirstEmailsPerDomainPerDay?: number;
  readonly skipRiskyLeads?: boolean;
}

/** The lead-control columns of a create request, each defaulted as the columns are. */
export function leadControlFields(input: LeadControlInput): LeadControl {
  return {
    leadListIds: [...new Set(input.leadListIds ?? [])],
    allowDuplicateLeads: input.allowDuplicateLeads ?? DEFAULT_LEAD_CONTROL.allowDuplicateLeads,
    stopCompanyOnReply: input.stopCompanyOnReply ?? DEFAULT_LEAD_CONTROL.stopCompanyOnReply,
    maxFirstEmailsPerDomainPerDay: input.maxFirstEmailsPerDomainPerDay ?? null,
    skipRiskyLeads: input.skipRiskyLeads ?? DEFAULT_LEAD_CONTROL.skipRiskyLeads,
  };
}

/**
 * A 400 naming every id of `control.leadListIds` that is no list of the account (missing, or
 * another account's: the two are not told apart), checked before anything is stored or started.
 */
export async function checkLeadLists(sequelize: Sequelize, accountId: string, control: LeadControl, field: string): Promise<void> {
  const unknown = await checkListsOwned(sequelize, accountId, control.leadListIds);
  if (unknown.length > 0) throw badRequest(`${field}: no lead list of the account has the id${unknown.length === 1 ? '' : 's'} ${unknown.map((id) => JSON.stringify(id)).join(', ')}`);
}

/** The create request's mailboxes, when it names any: each an active mailbox of the account, named once (else a 400 naming `field` and the id). */
export async function checkMailboxes(sequelize: Sequelize, accountId: string, fields: Pick<NewCampaign, 'mailboxIds'>, field: string): Promise<void> {
  if (fields.mailboxIds !== undefined && fields.mailboxIds !== null) await checkCampaignMailboxes(sequelize, accountId, fields.mailboxIds, field);
}
