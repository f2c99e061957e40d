import { Type, type TSchema } from '@sinclair/typebox';
import { CAMPAIGN_STATUSES } from '../../../db/models/campaign';
import { Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../campaign-reports/schemas';
import { CampaignId, CampaignStatus } from '../campaigns/schemas';

/**
 * Surface B's campaign schemas: camelCase, over the same rows as Surface A's, so a campaign made on
 * either surface reads the same on both (A in snake_case). Bounds are A's where the fields meet.
 */

const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
const Count = (description?: string) => Type.Integer({ minimum: 0, ...(description === undefined ? {} : { description }) });
const Usd = (description: string) => Type.Number({ minimum: 0, description });
const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });

/** The campaign in the path. Another account's id is a 404 worded like a missing one. */
export const V1CampaignIdParams = CampaignId;

// --- POST /v1/campaigns ---

export const V1CreateCampaignBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'The campaign\'s name; not blank.' }),
    brandUrl: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'The site of the company the campaign speaks for: an http(s) URL or a bare domain (https is assumed). Its host, without www., is the brandId.',
    }),
    targetAudience: Type.Optional(Text(2000, 'Who the emails are for, e.g. "CFOs of mid-size logistics companies".')),
    targetOutcome: Type.Optional(Text(2000, 'What the campaign wants from a lead, e.g. "a 20-minute demo call".')),
    valueForTarget: Type.Optional(Text(2000, 'What the lead gains, in a sentence the emails can build on.')),
    maxBudgetDailyUsd: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Spend limit per UTC day; without it the campaign has no budget limit.' })),
  },
  { additionalProperties: false },
);

// --- the campaign (create, get, list items) ---

export const V1Campaign = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: CampaignStatus,
    statusReason: Nullable(
      Type.String(),
      'Why the campaign is in its status: manual, budget_exceeded or quota_exceeded (paused), trial_ended or schedule_complete (completed), a failure reason (failed); null otherwise.',
    ),
    brandUrl: Type.String({ description: 'The site the campaign speaks for (target_url on Surface A).' }),
    brandId: Nullable(Type.String(), 'The brand: brandUrl\'s host, lower-case, without www.; null only for campaigns stored before brands were recorded.'),
    targetAudience: Nullable(Type.String()),
    targetOutcome: Nullable(Type.String()),
    valueForTarget: Nullable(Type.String()),
    maxBudgetDailyUsd: Nullable(Type.Number({ minimum: 0 }), 'Null: no daily limit.'),
    maxBudgetWeeklyUsd: Nullable(Type.Number({ minimum: 0 }), 'Set on Surface A only (budget.max_weekly_usd); null: no weekly limit.'),
    maxBudgetMonthlyUsd: Nullable(Type.Number({ minimum: 0 }), 'Set on Surface A only (budget.max_monthly_usd); null: no monthly limit.'),
    spentTodayUsd: Usd('Costs recorded for the campaign since 00:00 UTC today, rounded to 6 decimals.'),
    createdVia: StringEnum(['a', 'b'] as const, { description: 'The surface the campaign was created on; both surfaces show every campaign.' }),
    createdAt: Timestamp,
    startedAt: Nullable(Timestamp, 'When it began sending (moved to running the first time).'),
    pausedAt: Nullable(Timestamp, 'The last pause or stop.'),
    resumedAt: Nullable(Timestamp, 'The last resume.'),
    completedAt: Nullable(Timestamp),
    dashboardUrl: Type.String({ format: 'uri', description: 'The campaign in the dashboard.' }),
    stats: Type.Object(
      { emailsSent: Count(), delivered: Count(), opened: Count(), replied: Count(), meetingsBooked: Count() },
      { additionalProperties: false, description: 'Headline figures; GET /v1/campaigns/{id}/stats has all of them.' },
    ),
  },
  { additionalProperties: false },
);

// --- GET /v1/campaigns ---

export const V1CampaignListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(CAMPAIGN_STATUSES, { description: 'Only campaigns in this status.' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Campaigns per page, at most 100.' })),
  },
  { additionalProperties: false },
);

export const V1CampaignListResponse = Type.Object(
  {
    campaigns: Type.Array(V1Campaign, { description: 'Newest first.' }),
    pagination: Type.Object(
      { total: Type.Integer({ minimum: 0, description: 'Campaigns matching the filter, on every page.' }), page: Type.Integer({ minimum: 1 }), perPage: Type.Integer({ minimum: 1 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

// --- GET /v1/campaigns/:id/stats ---

export const V1CampaignStatsResponse = Type.Object(
  {
    campaignId: Type.String(),
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
        emailsSent: Count('Emails sent.'),
        delivered: Count('Emails accepted by the receiving server and not bounced afterwards.'),
        bounced: Count('Emails refused by the receiving server, at once or by a later bounce message.'),
        opened: Count('Emails opened at least once (a click counts as an open).'),
        clicked: Count('Emails with at least one link clicked.'),
        replied: Count('Emails answered by a person (auto-replies and bounces do not count).'),
        unsubscribed: Count('Emails whose recipient unsubscribed (link, one-click or by replying so).'),
        meetingsBooked: Count('Meetings booked through the calendar link.'),
      },
      { additionalProperties: false },
    ),
    rates: Type.Object(
      {
        deliveryRate: Fraction('delivered / emailsSent'),
        openRate: Fraction('opened / delivered'),
        clickRate: Fraction('clicked / delivered'),
        replyRate: Fraction('replied / delivered'),
        conversionRate: Fraction('meetingsBooked / delivered'),
      },
      { additionalProperties: false, description: 'Fractions in [0, 1], rounded to 4 decimals; 0 when the denominator is 0.' },
    ),
    costs: Type.Object(
      {
        totalUsd: Usd('Everything recorded for the campaign: AI writing and qualification with the account\'s own keys, lead enrichment, sending.'),
        breakdown: Type.Object(
          {
            aiGeneration: Usd('Writing emails and qualifying replies with the account\'s LLM key.'),
            leadEnrichment: Usd('Leads revealed through the lead provider.'),
            emailSending: Usd('Emails sent.'),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false, description: 'USD, rounded to 6 decimals.' },
    ),
  },
  { additionalProperties: false },
);

// --- POST /v1/campaigns/:id/stop and /resume ---

export const V1StopResponse = Type.Object({ id: Type.String(), status: CampaignStatus, stoppedAt: Timestamp }, { additionalProperties: false });
export const V1ResumeResponse = Type.Object({ id: Type.String(), status: CampaignStatus, resumedAt: Timestamp }, { additionalProperties: false });
