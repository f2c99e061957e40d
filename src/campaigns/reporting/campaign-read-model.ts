import { QueryTypes, type Sequelize } from 'sequelize';
import type { CampaignStatus } from '../../db/models/campaign';
import type { AudienceFilters, AudienceSource } from '../audience/types';
import type { CampaignSchedule } from '../model/schedule';
import type { CampaignSequence, VariantId, WinnerMetric } from '../model/sequence';
import type { VariantFigures } from '../sequences/sequence-repository';
import { preparedQuery } from '../../db/prepared-query';
import { NotFoundError } from '../../errors/domain-errors';
import { windowStarts } from '../model/budget-windows';
import { countColumns, type CampaignCounts } from './campaign-counts';
import { DAY_MS } from './utc-dates';

/** The counts shown with a campaign on both surfaces; its statistics have all of them. */
export type HeadlineCounts = Pick<CampaignCounts, 'emailsSent' | 'delivered' | 'opened' | 'replied' | 'meetingsBooked'>;

/**
 * One campaign as its owner reads it, on either surface: settings, live status, today's spend and
 * headline counts. It is the row of CAMPAIGN_READ_QUERY as the driver returns it (plus the trial's
 * days left), flat and already in these names, so each surface's presenter renders it in one
 * object literal, with no copy in between: a GET of a campaign is the hottest read of the API.
 */
export interface CampaignReadModel extends HeadlineCounts {
  readonly id: string;
  /** The surface the campaign was created on; both surfaces show every campaign. */
  readonly createdVia: 'a' | 'b';
  readonly name: string;
  readonly status: CampaignStatus;
  readonly statusReason: string | null;
  readonly mcp: string;
  readonly targetUrl: string;
  /** The brand the campaign speaks for: the host name of its target (brandUrl on Surface B), without www. */
  readonly brandId: string | null;
  readonly targetAudience: string | null;
  /** The filters the campaign emails (camelCase members); null for all_leads. */
  readonly audienceFilters: AudienceFilters | null;
  readonly audienceSource: AudienceSource;
  /** Stored by create and each planning call (no count on read); null before the first count. */
  readonly audienceMatchedLeads: number | null;
  readonly audienceReason: string | null;
  readonly targetOutcome: string | null;
  readonly valueForTarget: string | null;
  /** The sequence in use (version `sequenceVersion`); null for a campaign stored before sequences were. */
  readonly sequence: CampaignSequence | null;
  readonly sequenceVersion: number | null;
  /** Decided variant tests of that version; null when none. */
  readonly winners: ReadonlyArray<StoredWinner> | null;
  readonly trackOpens: boolean;
  readonly trackClicks: boolean;
  readonly plainTextOnly: boolean;
  readonly maxDailyUsd: number | null;
  readonly maxWeeklyUsd: number | null;
  readonly maxMonthlyUsd: number | null;
  /** Costs recorded since the start of the daily budget window (00:00 UTC), rounded to 6 decimals. */
  readonly spentTodayUsd: number;
  readonly scheduleFrequency: string;
  readonly trialDays: number | null;
  /** YYYY-MM-DD */
  readonly startDate: string | null;
  /** See trialDaysRemaining. */
  readonly daysRemaining: number | null;
  readonly timezone: string;
  /** Minutes after local midnight; the end is exclusive (1440 is the end of the day). */
  readonly sendWindowStartMinute: number;
  readonly sendWindowEndMinute: number;
  /** The rest of the schedule (schedule-rules migration): see CampaignSchedule and scheduleOfRow. */
  readonly scheduleDays: CampaignSchedule['days'];
  readonly blackoutDates: readonly string[];
  readonly skipHolidays: boolean;
  readonly leadTimezones: boolean;
  readonly reportingFrequency: string | null;
  readonly reportingEmail: string | null;
  readonly reportingWebhookUrl: string | null;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly pausedAt: Date | null;
  readonly resumedAt: Date | null;
  readonly completedAt: Date | null;
  /** The lead lists named at create, in that order; `name` null for a list deleted since. */
  readonly leadLists: ReadonlyArray<{ readonly id: string; readonly name: string | null }>;
  readonly allowDuplicateLeads: boolean;
  readonly stopCompanyOnReply: boolean;
  readonly maxFirstEmailsPerDomainPerDay: number | null;
  readonly skipRiskyLeads: boolean;
  /** The mailboxes the campaign sends from; null: every active mailbox of the account. */
  readonly mailboxIds: readonly string[] | null;
  /** 'no_active_mailbox' when it names mailboxes and none of them is active (it sends nothing until one is); null otherwise. */
  readonly mailboxesReason: 'no_active_mailbox' | null;
  /** The campaign's enrolments counted by state (states without any are absent); null when it has none. */
  readonly enrolmentCounts: Readonly<Record<string, number>> | null;
}

/** A decided variant test as the read model carries it (JSON from the statement: the time is text). */
export interface StoredWinner {
  readonly step: number;
  readonly variant: VariantId;
  readonly metric: WinnerMetric;
  readonly decidedAt: string;
  readonly figures: { readonly variants: readonly VariantFigures[]; readonly pValue: number; readonly confidence: number };
}

/** A row of CAMPAIGN_READ_QUERY: the read model but its one figure computed in JavaScript. */
export type CampaignReadRow = Omit<CampaignReadModel, 'daysRemaining'> & { daysRemaining?: number | null };

type TrialFields = Pick<CampaignReadModel, 'trialDays' | 'startedAt' | 'status'>;

/**
 * Days left in the trial: the whole trial before the campaign has started, then the days until
 * `startedAt + trialDays` (a day begun counts as a day left, as the workflow ends the trial at
 * that instant), 0 once it has passed or the campaign has ended; null without a trial.
 */
export function trialDaysRemaining(c: TrialFields, now: Date): number | null {
  if (c.trialDays === null) return null;
  if (c.status === 'completed' || c.status === 'failed') return 0;
  if (c.startedAt === null) return c.trialDays;
  const endsAt = c.startedAt.getTime() + c.trialDays * DAY_MS;
  return Math.min(c.trialDays, Math.max(0, Math.ceil((endsAt - now.getTime()) / DAY_MS)));
}

const HEADLINE_COLUMNS = countColumns(['emailsSent', 'delivered', 'opened', 'replied', 'meetingsBooked']);

/**
 * The read model's select list over the campaigns `source` gives (a table or a subquery named c).
 * Only what a presenter renders is read: every column costs the driver on every execution. Today's
 * spend counts from `since`, the placeholder of the daily budget window's start (windowStarts),
 * the window the budget check itself uses.
 */
const readFrom = (source: string, since: string, counts = true): string => `
SELECT c.id, c.created_via AS "createdVia", c.name, c.status, c.status_reason AS "statusReason", c.mcp, c.target_url AS "targetUrl",
       c.brand_id AS "brandId", c.target_audience AS "targetAudience", c.target_outcome AS "targetOutcome", c.value_for_target AS "valueForTarget",
       c.audience_filters AS "audienceFilters", c.audience_source AS "audienceSource", c.audience_matched_leads AS "audienceMatchedLeads", c.audience_reason AS "audienceReason",
       c.sequence_version AS "sequenceVersion", c.track_opens AS "trackOpens", c.track_clicks AS "trackClicks", c.plain_text_only AS "plainTextOnly",
       (SELECT s.sequence FROM campaign_sequences s WHERE s.campaign_id = c.id AND s.version = c.sequence_version) AS "sequence",
       (SELECT json_agg(json_build_object('step', w.step, 'variant', w.variant, 'metric', w.metric, 'decidedAt', w.decided_at, 'figures', w.figures) ORDER BY w.step)
          FROM variant_winners w WHERE w.campaign_id = c.id AND w.sequence_version = c.sequence_version) AS "winners",
       c.budget_max_daily_usd::float8 AS "maxDailyUsd", c.budget_max_weekly_usd::float8 AS "maxWeeklyUsd", c.budget_max_monthly_usd::float8 AS "maxMonthlyUsd",
       (SELECT round(coalesce(sum(amount_usd), 0), 6)::float8 FROM costs WHERE campaign_id = c.id AND occurred_at >= ${since}) AS "spentTodayUsd",
       c.schedule_frequency AS "scheduleFrequency", c.schedule_trial_days AS "trialDays", c.schedule_start_date::text AS "startDate", c.timezone,
       c.send_window_start_minute AS "sendWindowStartMinute", c.send_window_end_minute AS "sendWindowEndMinute",
       c.schedule_days AS "scheduleDays", c.blackout_dates AS "blackoutDates", c.skip_holidays AS "skipHolidays", c.lead_timezones AS "leadTimezones",
       c.reporting_frequency AS "reportingFrequency", c.reporting_email AS "reportingEmail", c.reporting_webhook_url AS "reportingWebhookUrl",
       c.created_at AS "createdAt", c.started_at AS "startedAt", c.paused_at AS "pausedAt", c.resumed_at AS "resumedAt", c.completed_at AS "completedAt",
       (SELECT coalesce(json_agg(json_build_object('id', x.id, 'name', ll.name) ORDER BY x.n), '[]')
          FROM unnest(c.lead_list_ids) WITH ORDINALITY AS x(id, n) LEFT JOIN lead_lists ll ON ll.id = x.id AND ll.account_id = c.account_id) AS "leadLists",
       c.allow_duplicate_leads AS "allowDuplicateLeads", c.stop_company_on_reply AS "stopCompanyOnReply",
       c.max_first_emails_per_domain_per_day AS "maxFirstEmailsPerDomainPerDay", c.skip_risky_leads AS "skipRiskyLeads",
       c.mailbox_ids AS "mailboxIds",
       CASE WHEN c.mailbox_ids IS NOT NULL AND NOT EXISTS (SELECT 1 FROM mailboxes m WHERE m.account_id = c.account_id AND m.active AND m.id = ANY (c.mailbox_ids))
         THEN 'no_active_mailbox' END AS "mailboxesReason",
       (SELECT json_object_agg(g.state, g.n) FROM (SELECT state, count(*)::int AS n FROM campaign_enrolments WHERE campaign_id = c.id GROUP BY state) g) AS "enrolmentCounts"${counts ? ',\n       e.*' : ''}
  FROM ${source}
  ${counts ? `CROSS JOIN LATERAL (SELECT ${HEADLINE_COLUMNS} FROM email_events WHERE campaign_id = c.id) e` : ''}
`;

/**
 * One statement, prepared per connection: the campaign by primary key (and owner), its counts
 * over `email_events` and today's spend over `costs`, both through their campaign indexes, in one
 * round trip. Binds: campaign id, account id, start of today's budget window (campaignReadValues).
 * Exported, with its name and values, so the benchmark's database floor runs exactly this read.
 */
export const CAMPAIGN_READ_QUERY = `${readFrom('campaigns c', '$3')}
 WHERE c.id = $1 AND c.account_id = $2`;
export const CAMPAIGN_READ_STATEMENT = 'campaign_read';

/** The binds of CAMPAIGN_READ_QUERY for one campaign of one account at `now`. */
export function campaignReadValues(campaignId: string, accountId: string, now: Date): unknown[] {
  return [campaignId, accountId, spendSince(now)];
}

let today: { readonly from: number; readonly since: string } | undefined;

/**
 * Where today's spend starts: the daily budget window's start (windowStarts), as the statements
 * bind it. A UTC day is DAY_MS long, so the start is worked out once a day rather than on every
 * read: windowStarts' date conversions cost more than rendering the whole campaign does.
 */
function spendSince(now: Date): string {
  const ms = now.getTime();
  if (today === undefined || ms < today.from || ms >= today.from + DAY_MS) {
    const from = windowStarts(ms).daily;
    today = { from, since: new Date(from).toISOString() };
  }
  return today.since;
}

/** The read model of a row of CAMPAIGN_READ_QUERY. */
export function readModelOf(row: CampaignReadRow, now: Date): CampaignReadModel {
  // The row is the read model: its one derived figure is set on it instead of copying it.
  row.daysRemaining = trialDaysRemaining(row, now);
  return row as CampaignReadModel;
}

/** The campaign if `accountId` owns it (else NotFoundError('campaign'), as for a missing one). */
export async function readCampaign(sequelize: Sequelize, accountId: string, campaignId: string, now = new Date()): Promise<CampaignReadModel> {
  const rows = await preparedQuery<CampaignReadRow>(sequelize, CAMPAIGN_READ_STATEMENT, CAMPAIGN_READ_QUERY, campaignReadValues(campaignId, accountId, now));
  const row = rows[0];
  if (row === undefined) throw new NotFoundError('campaign');
  return readModelOf(row, now);
}

/** A campaign's settings and status as the read model has them, without its counts. */
export type CampaignSettings = Omit<CampaignReadModel, keyof HeadlineCounts>;

const SETTINGS_READ_QUERY = `${readFrom('campaigns c', '$3', false)}
 WHERE c.id = $1 AND c.account_id = $2`;

/**
 * readCampaign without the headline counts, for a reader that counts the facts itself (the
 * campaign page takes them from the statistics): counting a large campaign's facts twice would
 * double the page's heaviest work.
 */
export async function readCampaignSettings(sequelize: Sequelize, accountId: string, campaignId: string, now = new Date()): Promise<CampaignSettings> {
  const rows = await preparedQuery<CampaignReadRow>(sequelize, 'campaign_settings_read', SETTINGS_READ_QUERY, campaignReadValues(campaignId, accountId, now));
  const row = rows[0];
  if (row === undefined) throw new NotFoundError('campaign');
  return readModelOf(row, now);
}

export interface CampaignReadPage {
  readonly campaigns: readonly CampaignReadModel[];
  /** Campaigns matching the filter, on every page. */
  readonly total: number;
}

/**
 * A page of the account's campaigns, newest first (the order of the campaign list on either
 * surface), each as its read model: the page's rows are picked first (the (account, created_at)
 * index), and the counts and spend are read for those rows only, however many campaigns the
 * account has.
 */
export async function readCampaignPage(
  sequelize: Sequelize,
  accountId: string,
  opts: { readonly status?: CampaignStatus; readonly limit: number; readonly offset: number },
  now = new Date(),
): Promise<CampaignReadPage> {
  const page = `(SELECT * FROM campaigns WHERE account_id = $1 AND ($2::text IS NULL OR status = $2)
                 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4) c`;
  const sql = `${readFrom(page, '$5')}
 ORDER BY c.created_at DESC, c.id DESC`;
  const filter = [accountId, opts.status ?? null];
  const [rows, counted] = await Promise.all([
    sequelize.query<CampaignReadRow>(sql, { bind: [...filter, opts.limit, opts.offset, spendSince(now)], type: QueryTypes.SELECT }),
    sequelize.query<{ total: number }>('SELECT count(*)::int AS total FROM campaigns WHERE account_id = $1 AND ($2::text IS NULL OR status = $2)', {
      bind: filter,
      type: QueryTypes.SELECT,
    }),
  ]);
  return { campaigns: rows.map((r) => readModelOf(r, now)), total: counted[0]!.total };
}
