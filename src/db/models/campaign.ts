import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

import type { AudienceFilters, AudienceSource } from '../../campaigns/audience/types';
import type { CampaignSchedule } from '../../campaigns/model/schedule';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../../campaigns/model/status';

export { CAMPAIGN_STATUSES, type CampaignStatus };

/**
 * A campaign as both surfaces see it. The workflow `campaign-<id>` owns the live status and
 * mirrors every transition here; the row is what lists, filters and statistics read.
 * Money columns are DECIMAL, which pg returns as strings: read them through `toUsd`.
 */
export class Campaign extends Model<InferAttributes<Campaign>, InferCreationAttributes<Campaign>> {
  declare id: string;
  declare accountId: string;
  declare createdVia: 'a' | 'b';
  declare name: string;
  declare mcp: string;
  declare targetUrl: string;
  declare brandId: CreationOptional<string | null>;
  declare targetAudience: CreationOptional<string | null>;
  declare targetOutcome: CreationOptional<string | null>;
  declare valueForTarget: CreationOptional<string | null>;
  declare budgetMaxDailyUsd: CreationOptional<string | null>;
  declare budgetMaxWeeklyUsd: CreationOptional<string | null>;
  declare budgetMaxMonthlyUsd: CreationOptional<string | null>;
  declare scheduleFrequency: CreationOptional<string>;
  declare scheduleTrialDays: CreationOptional<number | null>;
  declare scheduleStartDate: CreationOptional<string | null>;
  declare timezone: CreationOptional<string>;
  declare reportingFrequency: CreationOptional<string | null>;
  declare reportingEmail: CreationOptional<string | null>;
  declare reportingWebhookUrl: CreationOptional<string | null>;
  declare calendarLink: CreationOptional<string | null>;
  declare sendWindowStartMinute: CreationOptional<number>;
  declare sendWindowEndMinute: CreationOptional<number>;
  /** Per-weekday windows (CampaignSchedule.days); null: every day of `scheduleFrequency` in the send window. */
  declare scheduleDays: CreationOptional<CampaignSchedule['days']>;
  /** Local dates (YYYY-MM-DD, sorted) on which nothing is sent. */
  declare blackoutDates: CreationOptional<readonly string[]>;
  declare skipHolidays: CreationOptional<boolean>;
  /** `schedule.timezone: "lead"`: each lead in their own zone, `timezone` for leads whose zone is unknown. */
  declare leadTimezones: CreationOptional<boolean>;
  declare companyId: CreationOptional<string | null>;
  /** Who the campaign emails (null: every lead of the account, source all_leads). */
  declare audienceFilters: CreationOptional<AudienceFilters | null>;
  declare audienceSource: CreationOptional<AudienceSource>;
  /** Reachable leads of the account matching the audience at the last count (create, then each planning call). */
  declare audienceMatchedLeads: CreationOptional<number | null>;
  /** Why the audience matches nobody; null otherwise. */
  declare audienceReason: CreationOptional<string | null>;
  /** The mailboxes the campaign sends from (ids of the account's mailboxes); null: every active mailbox of the account. */
  declare mailboxIds: CreationOptional<string[] | null>;
  /** The version of `campaign_sequences` the campaign sends (null only between insert and its sequence row). */
  declare sequenceVersion: CreationOptional<number | null>;
  declare trackOpens: CreationOptional<boolean>;
  declare trackClicks: CreationOptional<boolean>;
  /** Send only a text/plain part: no HTML, so no open pixel and no rewritten links. */
  declare plainTextOnly: CreationOptional<boolean>;
  declare status: CreationOptional<CampaignStatus>;
  declare statusReason: CreationOptional<string | null>;
  declare startedAt: CreationOptional<Date | null>;
  declare pausedAt: CreationOptional<Date | null>;
  declare resumedAt: CreationOptional<Date | null>;
  declare completedAt: CreationOptional<Date | null>;
  declare failedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function toUsd(v: string | null): number | null {
  return v === null ? null : Number(v);
}

export function initCampaign(sequelize: Sequelize): void {
  const text = (allowNull = true) => ({ type: DataTypes.TEXT, allowNull });
  const money = () => ({ type: DataTypes.DECIMAL(12, 4), allowNull: true });
  const time = () => ({ type: DataTypes.DATE, allowNull: true });
  Campaign.init(
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      accountId: text(false),
      createdVia: text(false),
      name: text(false),
      mcp: text(false),
      targetUrl: text(false),
      brandId: text(),
      targetAudience: text(),
      targetOutcome: text(),
      valueForTarget: text(),
      budgetMaxDailyUsd: money(),
      budgetMaxWeeklyUsd: money(),
      budgetMaxMonthlyUsd: money(),
      scheduleFrequency: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'daily' },
      scheduleTrialDays: { type: DataTypes.INTEGER, allowNull: true },
      scheduleStartDate: { type: DataTypes.DATEONLY, allowNull: true },
      timezone: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'UTC' },
      reportingFrequency: text(),
      reportingEmail: text(),
      reportingWebhookUrl: text(),
      calendarLink: text(),
      sendWindowStartMinute: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 540 },
      sendWindowEndMinute: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1020 },
      scheduleDays: { type: DataTypes.JSONB, allowNull: true },
      blackoutDates: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
      skipHolidays: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      leadTimezones: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      companyId: text(),
      audienceFilters: { type: DataTypes.JSONB, allowNull: true },
      audienceSource: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'all_leads' },
      audienceMatchedLeads: { type: DataTypes.INTEGER, allowNull: true },
      audienceReason: text(),
      mailboxIds: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: true },
      sequenceVersion: { type: DataTypes.INTEGER, allowNull: true },
      trackOpens: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      trackClicks: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      plainTextOnly: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'starting' },
      statusReason: text(),
      startedAt: time(),
      pausedAt: time(),
      resumedAt: time(),
      completedAt: time(),
      failedAt: time(),
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'campaigns' },
  );
}
