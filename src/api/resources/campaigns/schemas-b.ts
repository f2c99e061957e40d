import { Type } from '@sinclair/typebox';
import { CAMPAIGN_STATUSES } from '../../../db/models/campaign';
import { Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../string-enum';
import { MailboxesReasonView, MailboxIdsCreate, MailboxIdsView } from './mailbox-schemas';
import { ScheduleB, ScheduleView } from './schedule-schemas';
import { SequenceBody, SequenceView, TrackingBody, TrackingView } from './sequence-schemas';
import {
  AudienceFiltersSchema,
  AudienceText,
  AudienceView,
  CampaignName,
  CampaignStatsResponse,
  CampaignStatus,
  ControlResponse,
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

/**
 * Surface B's campaign schemas: camelCase, over the same rows as Surface A's, so a campaign made on
 * either surface reads the same on both (A in snake_case). Bounds are A's where the fields meet;
 * the pieces both share come from schemas.ts.
 */

const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });

// --- POST /v1/campaigns ---

export const CreateCampaignBodyB = Type.Object(
  {
    name: CampaignName('The campaign\'s name; not blank.'),
    brandUrl: SiteUrl('The site of the company the campaign speaks for: an http(s) URL or a bare domain (https is assumed). Its host, without www., is the brandId.'),
    targetAudience: Type.Optional(AudienceText('Who the emails are for, e.g. "CFOs of mid-size logistics companies". Without `audience`, the filters are read from it: by the LLM of the account (its OpenAI or Anthropic key) when it has one, else, or when that fails, by the built-in parser.')),
    audience: Type.Optional(AudienceFiltersSchema('camel', true)),
    targetOutcome: Type.Optional(Text(2000, 'What the campaign wants from a lead, e.g. "a 20-minute demo call".')),
    valueForTarget: Type.Optional(Text(2000, 'What the lead gains, in a sentence the emails can build on.')),
    maxBudgetDailyUsd: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Spend limit per UTC day; without it the campaign has no budget limit.' })),
    mcp: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'The template whose pace and steps the campaign takes: sales_outreach (default), partnerships, recruiting, fundraising or customer_feedback.' }),
    ),
    sequence: Type.Optional(SequenceBody('camel')),
    tracking: Type.Optional(TrackingBody('camel')),
    plainTextOnly: Type.Optional(Type.Boolean({ description: 'Send a text/plain part only: no HTML, so no open beacon and no rewritten links (default false).' })),
    schedule: Type.Optional(ScheduleB),
    ...LeadControlBody('camel').properties,
    mailboxIds: MailboxIdsCreate(),
  },
  { additionalProperties: false },
);

// --- the campaign (create, get, list items) ---

export const CampaignB = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: CampaignStatus,
    statusReason: StatusReason,
    brandUrl: Type.String({ description: 'The site the campaign speaks for (target_url on Surface A).' }),
    brandId: Nullable(Type.String(), 'The brand: brandUrl\'s host, lower-case, without www.; null only for campaigns stored before brands were recorded.'),
    targetAudience: Nullable(Type.String()),
    audience: AudienceView('camel'),
    targetOutcome: Nullable(Type.String()),
    valueForTarget: Nullable(Type.String()),
    mcp: Type.String({ description: 'The template whose pace (and, without a sequence of its own, steps) the campaign takes.' }),
    sequence: Nullable(SequenceView('camel'), 'The steps the campaign sends (the template\'s too); null only for a campaign stored before sequences were.'),
    tracking: TrackingView('camel'),
    plainTextOnly: Type.Boolean(),
    maxBudgetDailyUsd: DailyLimit,
    maxBudgetWeeklyUsd: Nullable(Type.Number({ minimum: 0 }), 'Set on Surface A only (budget.max_weekly_usd); null: no weekly limit.'),
    maxBudgetMonthlyUsd: Nullable(Type.Number({ minimum: 0 }), 'Set on Surface A only (budget.max_monthly_usd); null: no monthly limit.'),
    spentTodayUsd: Usd('Costs recorded for the campaign since 00:00 UTC today, rounded to 6 decimals.'),
    createdVia: StringEnum(['a', 'b'] as const, { description: 'The surface the campaign was created on; both surfaces show every campaign.' }),
    createdAt: Timestamp,
    startedAt: Nullable(Timestamp, 'When it began sending (moved to running the first time).'),
    pausedAt: Nullable(Timestamp, 'The last pause or stop.'),
    resumedAt: Nullable(Timestamp, 'The last resume.'),
    completedAt: Nullable(Timestamp),
    dashboardUrl: DashboardUrl,
    schedule: ScheduleView('camel'),
    reporting: Type.Object(
      {
        frequency: Nullable(Type.String({ description: 'daily, weekly or monthly.' })),
        email: Nullable(Type.String({ description: 'Where the reports are emailed.' })),
        nextReportAt: Nullable(
          Timestamp,
          'When the next scheduled report is emailed (08:00 in the campaign\'s time zone: daily, Mondays or the 1st); null without a reporting email or frequency, or once the campaign has completed or failed.',
        ),
      },
      { additionalProperties: false, description: 'Emailed reports (set on Surface A\'s create).' },
    ),
    stats: HeadlineStats('camel', 'Headline figures; GET /v1/campaigns/{id}/stats has all of them.'),
    sources: SourcesView('camel'),
    ...LeadControlView('camel').properties,
    mailboxIds: MailboxIdsView(),
    mailboxesReason: MailboxesReasonView(),
    leads: EnrolmentCounts('camel', 'The campaign\'s leads by state (GET /v1/campaigns/{id}/leads lists them).'),
  },
  { additionalProperties: false },
);

// --- GET /v1/campaigns ---

export const CampaignListQueryB = Type.Object(
  {
    status: Type.Optional(StringEnum(CAMPAIGN_STATUSES, { description: 'Only campaigns in this status.' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Campaigns per page, at most 100.' })),
  },
  { additionalProperties: false },
);

export const CampaignListResponseB = Type.Object(
  {
    campaigns: Type.Array(CampaignB, { description: 'Newest first.' }),
    pagination: Type.Object(
      { total: Type.Integer({ minimum: 0, description: 'Campaigns matching the filter, on every page.' }), page: Type.Integer({ minimum: 1 }), perPage: Type.Integer({ minimum: 1 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

// --- GET /v1/campaigns/:id/stats ---

export const CampaignStatsB = CampaignStatsResponse('camel');

// --- POST /v1/campaigns/:id/stop and /resume ---

export const StoppedB = ControlResponse('camel', 'stopped_at');
export const ResumedB = ControlResponse('camel', 'resumed_at');
