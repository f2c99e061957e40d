import { Type, type TSchema } from '@sinclair/typebox';
import { SENTIMENTS } from '../../../db/models/reply';
import { PageQuery, Pagination, Timestamp } from '../../http/common-schemas';
import { CampaignId, CampaignStatus } from '../campaigns/schemas';

/**
 * A string from a fixed list, as a JSON Schema `enum` rather than a union of literals: a wrong
 * value is then answered "must be one of …", naming the valid ones.
 */
export function StringEnum<T extends string>(values: readonly T[], options: { description?: string; default?: NoInfer<T> } = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
const Count = (description?: string) => Type.Integer({ minimum: 0, ...(description === undefined ? {} : { description }) });
const Usd = (description: string) => Type.Number({ minimum: 0, description });
const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
/** Years from 1970: PostgreSQL has no year 0, and no campaign has a day before the epoch. */
const Day = (description: string) => Type.String({ format: 'date', pattern: '^(19[7-9][0-9]|[2-9][0-9]{3})-', description });

/**
 * The campaign in the path: the same schema as pause and resume, so every Surface A campaign path
 * answers alike. Ids are opaque; one that names no campaign of the account, well-formed or not, is a 404.
 */
export const CampaignIdParams = CampaignId;

export const CampaignNotFound = 'campaign not found';

// --- GET /campaigns/:id ---

export const CampaignDetailResponse = Type.Object(
  {
    id: Type.String(),
    status: CampaignStatus,
    status_reason: Nullable(Type.String(), 'Why the campaign is in its status: manual, budget_exceeded or quota_exceeded (paused), trial_ended or schedule_complete (completed), a failure reason (failed); null otherwise.'),
    mcp: Type.String({ description: 'The outreach template.' }),
    target_url: Type.String(),
    target_audience: Nullable(Type.String()),
    created_at: Timestamp,
    dashboard_url: Type.String({ format: 'uri', description: 'The campaign in the dashboard.' }),
    budget: Type.Object(
      {
        max_daily_usd: Nullable(Type.Number({ minimum: 0 }), 'Null: no daily limit.'),
        max_weekly_usd: Nullable(Type.Number({ minimum: 0 }), 'Null: no weekly limit (weeks start Monday 00:00 UTC).'),
        max_monthly_usd: Nullable(Type.Number({ minimum: 0 }), 'Null: no monthly limit (months start on the 1st, 00:00 UTC).'),
        spent_today_usd: Usd('Costs recorded for the campaign since 00:00 UTC today.'),
      },
      { additionalProperties: false },
    ),
    schedule: Type.Object(
      {
        frequency: Type.String({ description: 'daily, weekdays or weekly.' }),
        trial_days: Nullable(Type.Integer({ minimum: 1 }), 'Null: no trial; the campaign runs until its leads are done or it is paused.'),
        start_date: Nullable(Day('Nothing is sent before 00:00 UTC of this date.')),
        days_remaining: Nullable(
          Type.Integer({ minimum: 0 }),
          'Trial days left: trial_days before the campaign has started, then the days (a day begun counts) until started_at + trial_days; 0 once the trial is over or the campaign has ended; null without a trial.',
        ),
        timezone: Type.String({ description: 'IANA time zone of the sending window.' }),
        send_window: Type.Object(
          {
            start: Type.String({ pattern: '^[0-2][0-9]:[0-5][0-9]$', description: 'HH:MM, local time in `timezone`.' }),
            end: Type.String({ pattern: '^[0-2][0-9]:[0-5][0-9]$', description: 'HH:MM (exclusive; 24:00 is the end of the day).' }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    reporting: Type.Object(
      { frequency: Nullable(Type.String()), email: Nullable(Type.String()), webhook_url: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    stats: Type.Object(
      {
        emails_sent: Count(),
        delivered: Count(),
        opened: Count(),
        replied: Count(),
        meetings_booked: Count(),
      },
      { additionalProperties: false, description: 'Headline figures; GET /campaigns/{id}/stats has all of them with their definitions.' },
    ),
    started_at: Nullable(Timestamp),
    paused_at: Nullable(Timestamp, 'The last pause.'),
    resumed_at: Nullable(Timestamp, 'The last resume.'),
    completed_at: Nullable(Timestamp),
  },
  { additionalProperties: false },
);

// --- GET /campaigns/:id/stats ---

export const CampaignStatsResponse = Type.Object(
  {
    campaign_id: Type.String(),
    status: CampaignStatus,
    period: Type.Object(
      {
        start: Type.String({ format: 'date-time', description: 'When the campaign started (its creation, before it has started).' }),
        end: Type.String({ format: 'date-time', description: 'When it completed or failed; now while it is not over.' }),
      },
      { additionalProperties: false },
    ),
    stats: Type.Object(
      {
        emails_sent: Count('Emails sent.'),
        delivered: Count('Emails accepted by the receiving server and not bounced afterwards.'),
        bounced: Count('Emails refused by the receiving server, at once or by a later bounce message.'),
        opened: Count('Emails opened at least once (a click counts as an open).'),
        clicked: Count('Emails with at least one link clicked.'),
        replied: Count('Emails answered by a person (auto-replies and bounces do not count).'),
        unsubscribed: Count('Emails whose recipient unsubscribed (link, one-click or by replying so).'),
        meetings_booked: Count('Meetings booked through the calendar link.'),
      },
      { additionalProperties: false },
    ),
    rates: Type.Object(
      {
        delivery_rate: Fraction('delivered / emails_sent'),
        open_rate: Fraction('opened / delivered'),
        click_rate: Fraction('clicked / delivered'),
        reply_rate: Fraction('replied / delivered'),
        conversion_rate: Fraction('meetings_booked / delivered'),
      },
      { additionalProperties: false, description: 'Fractions in [0, 1], rounded to 4 decimals; 0 when the denominator is 0.' },
    ),
    costs: Type.Object(
      {
        total_byok_usd: Usd('Everything recorded for the campaign: AI writing and qualification with the account\'s own keys, lead enrichment, sending.'),
        breakdown: Type.Object(
          {
            ai_generation: Usd('Writing emails and qualifying replies with the account\'s LLM key.'),
            lead_enrichment: Usd('Leads revealed through the lead provider.'),
            email_sending: Usd('Emails sent.'),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false, description: 'USD, rounded to 6 decimals.' },
    ),
  },
  { additionalProperties: false },
);

// --- GET /campaigns/:id/stats/daily ---

export const DailyStatsQuery = Type.Object(
  {
    start: Type.Optional(Day('First day (UTC), YYYY-MM-DD. Default: the campaign\'s first day (at most 366 days before end).')),
    end: Type.Optional(Day('Last day (UTC), inclusive. Default: today, or the day the campaign completed or failed.')),
  },
  { additionalProperties: false },
);

export const DailyStatsResponse = Type.Object(
  {
    campaign_id: Type.String(),
    daily: Type.Array(
      Type.Object(
        {
          date: Day('A UTC day.'),
          emails_sent: Count(),
          opened: Count('Emails first opened that day.'),
          replied: Count('Emails first replied to that day.'),
          cost_usd: Usd('Costs recorded that day, rounded to 6 decimals.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Every day of the range, oldest first, days without activity included (zeros).' },
    ),
  },
  { additionalProperties: false },
);

// --- GET /campaigns/:id/replies ---

export const RepliesQuery = Type.Object(
  {
    sentiment: Type.Optional(StringEnum(SENTIMENTS, { description: 'Only replies of this sentiment.' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const RepliesResponse = Type.Object(
  {
    campaign_id: Type.String(),
    replies: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          email: Type.String({ description: 'The sender\'s address.' }),
          name: Nullable(Type.String(), 'Who replied (the lead\'s name, or the sender\'s when someone else answered); null when unknown.'),
          company: Nullable(Type.String(), 'The lead\'s company when the reply arrived; null when unknown.'),
          sentiment: StringEnum(SENTIMENTS),
          preview: Type.String({ description: 'The start of the reply\'s own text (quoted text removed).' }),
          received_at: Timestamp,
        },
        { additionalProperties: false },
      ),
      { description: 'Replies written by a person, newest first; auto-replies and bounces are not listed.' },
    ),
    pagination: Pagination,
  },
  { additionalProperties: false },
);

// --- GET /campaigns/:id/export ---

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportQuery = Type.Object(
  { format: Type.Optional(StringEnum(EXPORT_FORMATS, { default: 'csv', description: 'csv (default) or json.' })) },
  { additionalProperties: false },
);
