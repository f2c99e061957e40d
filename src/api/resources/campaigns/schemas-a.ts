import { Type } from '@sinclair/typebox';
import { SENTIMENTS } from '../../../db/models/reply';
import { PageQuery, Pagination, Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../string-enum';
import { MailboxesReasonView, MailboxIdsCreate, MailboxIdsView } from './mailbox-schemas';
import { ScheduleA, ScheduleView } from './schedule-schemas';
import { SequenceBody, SequenceView, TrackingBody, TrackingView } from './sequence-schemas';
import {
  AudienceFiltersSchema,
  AudienceText,
  AudienceView,
  CampaignName,
  CampaignStatsResponse,
  CampaignStatus,
  ControlResponse,
  Count,
  DailyLimit,
  DashboardUrl,
  EnrolmentCounts,
  HeadlineStats,
  LeadControlBody,
  LeadControlView,
  Nullable,
  SiteUrl,
  SourcesView,
  StatusReason,
  Usd,
} from './schemas';

/** Surface A's campaign schemas: snake_case. The pieces Surface B shares come from schemas.ts. */

/** A day, YYYY-MM-DD: every `date` is a real day from 1970-01-01 to 9999-12-31 (http/date-formats.ts). */
const Day = (description: string) => Type.String({ format: 'date', description });

// --- GET and POST /campaigns ---

/** A list item's audience: the campaign's as stored (its filters are on GET /campaigns/{id}). */
const ListAudience = Type.Omit(AudienceView('snake'), ['filters'], { additionalProperties: false });

const CampaignListItem = Type.Object(
  { id: Type.String(), status: CampaignStatus, mcp: Type.String(), target_url: Type.String(), created_at: Timestamp, audience: ListAudience },
  { additionalProperties: false },
);

export const CampaignListQueryA = Type.Object(
  {
    status: Type.Optional(CampaignStatus),
    mcp: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const CampaignListResponseA = Type.Object(
  { campaigns: Type.Array(CampaignListItem), pagination: Pagination },
  { additionalProperties: false },
);

const UsdLimit = (description: string) => Type.Number({ minimum: 0, maximum: 1_000_000, description });

export const CreateCampaignBodyA = Type.Object(
  {
    mcp: Type.String({ minLength: 1, maxLength: 100, description: 'Outreach template: sales_outreach, partnerships, recruiting, fundraising or customer_feedback.' }),
    target_url: SiteUrl('Domain (acme.com) or http(s) URL of the company the campaign speaks for.'),
    target_audience: Type.Optional(AudienceText('Who the emails are for, as written ("CTOs at fintechs in Germany"). Without `audience`, the filters are read from it: by the LLM of the account (its OpenAI or Anthropic key) when it has one, else, or when that fails, by the built-in parser.')),
    audience: Type.Optional(AudienceFiltersSchema('snake', true)),
    name: Type.Optional(CampaignName('Not blank. Defaults to "<template> for <target host>".')),
    target_outcome: Type.Optional(Type.String({ maxLength: 2000, description: 'What the campaign wants from a lead, e.g. "a 20-minute demo call" (the writer asks for it).' })),
    value_for_target: Type.Optional(Type.String({ maxLength: 2000, description: 'What the lead gains, in a sentence the writer can build on.' })),
    sequence: Type.Optional(SequenceBody('snake')),
    tracking: Type.Optional(TrackingBody('snake')),
    plain_text_only: Type.Optional(Type.Boolean({ description: 'Send a text/plain part only: no HTML, so no open beacon and no rewritten links (default false).' })),
    calendar_link: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'https booking page (Cal.com, Calendly, ...) the emails invite leads to; bookings through it count as meetings.' })),
    budget: Type.Optional(
      Type.Object(
        {
          max_daily_usd: Type.Optional(UsdLimit('Spend limit per UTC day.')),
          max_weekly_usd: Type.Optional(UsdLimit('Spend limit per week (Monday 00:00 UTC).')),
          max_monthly_usd: Type.Optional(UsdLimit('Spend limit per calendar month (UTC).')),
        },
        { additionalProperties: false },
      ),
    ),
    schedule: Type.Optional(ScheduleA),
    reporting: Type.Optional(
      Type.Object(
        {
          frequency: Type.Optional(Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')])),
          email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
          webhook_url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'HTTPS URL that receives this campaign\'s events.' })),
        },
        { additionalProperties: false },
      ),
    ),
    ...LeadControlBody('snake').properties,
    mailbox_ids: MailboxIdsCreate(),
  },
  { additionalProperties: false },
);

export const CreatedCampaignA = Type.Object(
  {
    id: Type.String(),
    status: CampaignStatus,
    mcp: Type.String(),
    target_url: Type.String(),
    created_at: Timestamp,
    dashboard_url: Type.String({ format: 'uri' }),
    audience: AudienceView('snake'),
  },
  { additionalProperties: false },
);

export const PausedA = ControlResponse('snake', 'paused_at');
export const ResumedA = ControlResponse('snake', 'resumed_at');

// --- GET /campaigns/:id ---

export const CampaignA = Type.Object(
  {
    id: Type.String(),
    status: CampaignStatus,
    status_reason: StatusReason,
    mcp: Type.String({ description: 'The outreach template.' }),
    target_url: Type.String(),
    target_audience: Nullable(Type.String()),
    audience: AudienceView('snake'),
    target_outcome: Nullable(Type.String()),
    value_for_target: Nullable(Type.String()),
    sequence: Nullable(SequenceView('snake'), 'The steps the campaign sends (the template\'s too); null only for a campaign stored before sequences were.'),
    tracking: TrackingView('snake'),
    plain_text_only: Type.Boolean(),
    created_at: Timestamp,
    dashboard_url: DashboardUrl,
    budget: Type.Object(
      {
        max_daily_usd: DailyLimit,
        max_weekly_usd: Nullable(Type.Number({ minimum: 0 }), 'Null: no weekly limit (weeks start Monday 00:00 UTC).'),
        max_monthly_usd: Nullable(Type.Number({ minimum: 0 }), 'Null: no monthly limit (months start on the 1st, 00:00 UTC).'),
        spent_today_usd: Usd('Costs recorded for the campaign since 00:00 UTC today.'),
      },
      { additionalProperties: false },
    ),
    schedule: ScheduleView('snake'),
    reporting: Type.Object(
      {
        frequency: Nullable(Type.String()),
        email: Nullable(Type.String()),
        webhook_url: Nullable(Type.String()),
        next_report_at: Nullable(
          Timestamp,
          'When the next scheduled report is emailed (08:00 in the campaign\'s time zone: daily, Mondays or the 1st); null without a reporting email or frequency, or once the campaign has completed or failed.',
        ),
      },
      { additionalProperties: false },
    ),
    stats: HeadlineStats('snake', 'Headline figures; GET /campaigns/{id}/stats has all of them with their definitions.'),
    sources: SourcesView('snake'),
    ...LeadControlView('snake').properties,
    mailbox_ids: MailboxIdsView(),
    mailboxes_reason: MailboxesReasonView(),
    leads: EnrolmentCounts('snake', 'The campaign\'s leads by state (GET /campaigns/{id}/leads lists them).'),
    started_at: Nullable(Timestamp),
    paused_at: Nullable(Timestamp, 'The last pause.'),
    resumed_at: Nullable(Timestamp, 'The last resume.'),
    completed_at: Nullable(Timestamp),
  },
  { additionalProperties: false },
);

// --- GET /campaigns/:id/stats ---

export const CampaignStatsA = CampaignStatsResponse('snake');

// --- GET /campaigns/:id/stats/daily ---

export const DailyStatsQueryA = Type.Object(
  {
    start: Type.Optional(Day('First day (UTC), YYYY-MM-DD. Default: the campaign\'s first day (at most 366 days before end).')),
    end: Type.Optional(Day('Last day (UTC), inclusive. Default: today, or the day the campaign completed or failed.')),
  },
  { additionalProperties: false },
);

export const DailyStatsA = Type.Object(
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

export const RepliesQueryA = Type.Object(
  {
    sentiment: Type.Optional(StringEnum(SENTIMENTS, { description: 'Only replies of this sentiment.' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const RepliesA = Type.Object(
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

export const ExportQueryA = Type.Object(
  { format: Type.Optional(StringEnum(EXPORT_FORMATS, { default: 'csv', description: 'csv (default) or json.' })) },
  { additionalProperties: false },
);
