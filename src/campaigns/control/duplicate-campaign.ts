/**
 * A copy of a campaign (POST /campaigns/:id/duplicate, /v1/...): the source's settings and its
 * sequence in a new campaign, started through startCampaign like any create, or stored as a
 * `draft` (no workflow, nothing sent) until POST .../start (start-draft.ts).
 *
 * What is copied is decided column by column in COPIED below, whose type lists every attribute of
 * the campaign model: a column added to the model does not typecheck until someone decides
 * whether a copy takes it. The lead-control columns (not on the model) are copied as LeadControl.
 * Never copied: the id, the account (the caller's), status and its timestamps, the target's
 * scraped company (the copy scrapes again), the audience count (counted again now) and the
 * sequence version (the source's current steps become the copy's version 1).
 */
import { QueryTypes, type InferAttributes, type Sequelize } from 'sequelize';
import type { Campaign } from '../../db/models';
import { insertCampaign, ownedCampaign, type LeadControl, type NewCampaign } from '../campaign-repository';
import { presetSequence, type CampaignSequence } from '../model/sequence';
import { findTemplate } from '../model/templates';
import { countAudience, storedAudience } from '../planning/audience-match';
import { insertSequence, readSequence } from '../sequences/sequence-repository';
import { startCampaign, type StartDeps } from './start-campaign';

/** The longest name a campaign may have (CampaignName in the API's schemas). */
const MAX_NAME = 200;
const COPY_SUFFIX = ' (copy)';

export interface DuplicateOptions {
  /** The copy's name; default "<source name> (copy)". */
  readonly name?: string;
  /** true: started now (status starting, workflow running); false: a draft. */
  readonly start: boolean;
  /** The surface the copy is made on (the copy's created_via). */
  readonly via: 'a' | 'b';
}

/** true: the copy takes the source's value; false: set anew (or left to the column's default). */
const COPIED: Readonly<Record<keyof InferAttributes<Campaign>, boolean>> = {
  id: false,
  accountId: false,
  createdVia: false,
  name: false,
  mcp: true,
  targetUrl: true,
  brandId: true,
  targetAudience: true,
  targetOutcome: true,
  valueForTarget: true,
  budgetMaxDailyUsd: true,
  budgetMaxWeeklyUsd: true,
  budgetMaxMonthlyUsd: true,
  scheduleFrequency: true,
  scheduleTrialDays: true,
  // Copied, then dropped by copiedFields when already past.
  scheduleStartDate: true,
  timezone: true,
  reportingFrequency: true,
  reportingEmail: true,
  reportingWebhookUrl: true,
  calendarLink: true,
  sendWindowStartMinute: true,
  sendWindowEndMinute: true,
  scheduleDays: true,
  blackoutDates: true,
  skipHolidays: true,
  leadTimezones: true,
  companyId: false,
  audienceFilters: true,
  audienceSource: true,
  audienceMatchedLeads: false,
  audienceReason: false,
  // The same mailboxes, as they are (even one deactivated since: the source's behaviour, like its lead lists).
  mailboxIds: true,
  sequenceVersion: false,
  trackOpens: true,
  trackClicks: true,
  plainTextOnly: true,
  status: false,
  statusReason: false,
  startedAt: false,
  pausedAt: false,
  resumedAt: false,
  completedAt: false,
  failedAt: false,
  createdAt: false,
  updatedAt: false,
};

/** The model attributes a copy takes from its source. */
export const COPIED_ATTRIBUTES: readonly string[] = Object.entries(COPIED)
  .filter(([, copied]) => copied)
  .map(([name]) => name);
/** The model attributes a copy does not take. */
export const NOT_COPIED_ATTRIBUTES: readonly string[] = Object.entries(COPIED)
  .filter(([, copied]) => !copied)
  .map(([name]) => name);
/** The lead-control columns, copied as they are (the same list ids, even of a list deleted since: the source's behaviour). */
export const LEAD_CONTROL_COLUMNS = ['lead_list_ids', 'allow_duplicate_leads', 'stop_company_on_reply', 'max_first_emails_per_domain_per_day', 'skip_risky_leads'] as const;

/**
 * Copies the account's campaign `sourceId` (any status, a draft, completed or failed one included).
 * NotFoundError('campaign') when it is not the account's. With `start`, Temporal's errors pass
 * through as startCampaign's do (nothing is stored when the start is refused).
 */
export async function duplicateCampaign(deps: StartDeps, accountId: string, sourceId: string, opts: DuplicateOptions, now = new Date()): Promise<Campaign> {
  const source = await ownedCampaign(accountId, sourceId);
  const control = await leadControlOf(deps.sequelize, source.id);
  const stored = await readSequence(deps.sequelize, accountId, source.id);
  const fields = copiedFields(source, accountId, opts, now);
  // The source's filters are copied as they are: no second reading of its audience text.
  if (opts.start) return startCampaign({ ...deps, readAudience: undefined }, fields, stored?.sequence, control);
  return storeDraft(deps.sequelize, fields, stored?.sequence ?? presetOf(fields.mcp), control);
}

/** The new campaign's row from the source's: the settings COPIED marks, a new name, no past start date. */
export function copiedFields(source: Campaign, accountId: string, opts: Pick<DuplicateOptions, 'name' | 'via'>, now: Date): NewCampaign {
  const settings = Object.fromEntries(COPIED_ATTRIBUTES.map((name) => [name, source.get(name as keyof InferAttributes<Campaign>)]));
  const name = opts.name?.trim() ?? `${source.name.slice(0, MAX_NAME - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
  // Nothing is sent before 00:00 UTC of the start date: a date already past would mean "now"
  // anyway, and keeping it would show a start that never happened.
  const today = now.toISOString().slice(0, 10);
  const startDate = source.scheduleStartDate !== null && source.scheduleStartDate < today ? null : source.scheduleStartDate;
  return { ...(settings as Partial<NewCampaign>), accountId, createdVia: opts.via, name, mcp: source.mcp, targetUrl: source.targetUrl, scheduleStartDate: startDate };
}

async function leadControlOf(sequelize: Sequelize, campaignId: string): Promise<LeadControl> {
  const [row] = await sequelize.query<{
    lead_list_ids: string[];
    allow_duplicate_leads: boolean;
    stop_company_on_reply: boolean;
    max_first_emails_per_domain_per_day: number | null;
    skip_risky_leads: boolean;
  }>(`SELECT ${LEAD_CONTROL_COLUMNS.join(', ')} FROM campaigns WHERE id = $1`, { bind: [campaignId], type: QueryTypes.SELECT });
  if (row === undefined) throw new Error(`campaign ${campaignId} vanished while being copied`);
  return {
    leadListIds: row.lead_list_ids,
    allowDuplicateLeads: row.allow_duplicate_leads,
    stopCompanyOnReply: row.stop_company_on_reply,
    maxFirstEmailsPerDomainPerDay: row.max_first_emails_per_domain_per_day,
    skipRiskyLeads: row.skip_risky_leads,
  };
}

/** A campaign stored before sequences were sends its template's preset; so does its copy. */
function presetOf(mcp: string): CampaignSequence | null {
  const template = findTemplate(mcp);
  return template === undefined ? null : presetSequence(template);
}

/**
 * The draft: row (counted audience, lead control) and sequence version 1 in one transaction, as
 * startCampaign stores a campaign, but no workflow. insertCampaign writes `starting`; the status
 * becomes `draft` before the commit, so no reader ever sees the copy starting.
 */
async function storeDraft(sequelize: Sequelize, fields: NewCampaign, steps: CampaignSequence | null, control: LeadControl): Promise<Campaign> {
  return sequelize.transaction(async (transaction) => {
    const audience = storedAudience(fields.audienceFilters ?? null, fields.audienceSource ?? 'all_leads');
    const counted = await countAudience(sequelize, fields.accountId, audience, control.leadListIds);
    const campaign = await insertCampaign(sequelize, { ...fields, audienceMatchedLeads: counted.matchedLeads, audienceReason: counted.reason }, transaction, control);
    await campaign.update({ status: 'draft' }, { transaction });
    if (steps !== null) {
      await insertSequence(sequelize, transaction, campaign.id, 1, steps);
      campaign.sequenceVersion = 1;
    }
    return campaign;
  });
}
