/**
 * A campaign as an edit compares against (CampaignAsStored): its model row, the lead-control
 * columns the model does not declare, and its sequence in use.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Campaign } from '../../db/models';
import { toUsd } from '../../db/models/campaign';
import type { LeadControl } from '../campaign-repository';
import { scheduleOfRow } from '../model/schedule-row';
import { readSequence } from '../sequences/sequence-repository';
import type { CampaignAsStored } from './campaign-patch';

export async function storedCampaign(sequelize: Sequelize, c: Campaign): Promise<CampaignAsStored> {
  const [lc] = await sequelize.query<{ lead_list_ids: string[]; allow_duplicate_leads: boolean; stop_company_on_reply: boolean; max_first_emails_per_domain_per_day: number | null; skip_risky_leads: boolean }>(
    `SELECT lead_list_ids, allow_duplicate_leads, stop_company_on_reply, max_first_emails_per_domain_per_day, skip_risky_leads FROM campaigns WHERE id = $1`,
    { bind: [c.id], type: QueryTypes.SELECT },
  );
  const leadControl: LeadControl = {
    leadListIds: lc?.lead_list_ids ?? [],
    allowDuplicateLeads: lc?.allow_duplicate_leads ?? false,
    stopCompanyOnReply: lc?.stop_company_on_reply ?? true,
    maxFirstEmailsPerDomainPerDay: lc?.max_first_emails_per_domain_per_day ?? null,
    skipRiskyLeads: lc?.skip_risky_leads ?? false,
  };
  const sequence = await readSequence(sequelize, c.accountId, c.id);
  return {
    name: c.name,
    targetAudience: c.targetAudience,
    audienceFilters: c.audienceFilters,
    audienceSource: c.audienceSource,
    targetOutcome: c.targetOutcome,
    valueForTarget: c.valueForTarget,
    calendarLink: c.calendarLink,
    budget: { dailyUsd: toUsd(c.budgetMaxDailyUsd), weeklyUsd: toUsd(c.budgetMaxWeeklyUsd), monthlyUsd: toUsd(c.budgetMaxMonthlyUsd) },
    schedule: scheduleOfRow(c),
    trialDays: c.scheduleTrialDays,
    startDate: c.scheduleStartDate,
    reporting: { frequency: c.reportingFrequency, email: c.reportingEmail, webhookUrl: c.reportingWebhookUrl },
    sequence: sequence?.sequence ?? null,
    leadControl,
    tracking: { trackOpens: c.trackOpens, trackClicks: c.trackClicks, plainTextOnly: c.plainTextOnly },
    mailboxIds: c.mailboxIds,
  };
}
