import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas';
import { MailboxIdsPatch } from './mailbox-schemas';
import { ScheduleA, ScheduleB } from './schedule-schemas';
import { SequenceBody, TrackingBody } from './sequence-schemas';
import { AudienceFiltersSchema, AudienceText, CampaignName, LeadControlBody, Nullable } from './schemas';

/**
 * PATCH /campaigns/{id} (A) and /v1/campaigns/{id} (B): every member optional; a member left out
 * keeps its value, and null clears a member that may be empty. The changes history's schemas too.
 */

const UsdLimit = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1_000_000 }), description);
const Text = (max: number, description: string) => Nullable(Type.String({ maxLength: max }), description);
const HttpsUrl = (description: string) => Nullable(Type.String({ format: 'uri', maxLength: 2048 }), description);
const ReportFrequency = Nullable(Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')]), 'null: reports at the default frequency (daily).');
const ReportEmail = Nullable(Type.String({ format: 'email', maxLength: 320 }), 'null: no emailed reports.');

const SEQUENCE_NOTE =
  'The whole new sequence: emails still to go follow it, emails already sent keep their content. It may rewrite any step and add steps, but not remove a step already sent to someone (a 400 says which).';

export const PatchCampaignBodyA = Type.Object(
  {
    name: Type.Optional(CampaignName('Not blank.')),
    target_audience: Type.Optional(Nullable(AudienceText('Who the emails are for; without `audience` its filters are read again from it by the built-in parser.'))),
    audience: Type.Optional(Nullable(AudienceFiltersSchema('snake', true), 'Explicit filters; null: read them from target_audience again.')),
    target_outcome: Type.Optional(Text(2000, 'What the campaign wants from a lead.')),
    value_for_target: Type.Optional(Text(2000, 'What the lead gains.')),
    sequence: Type.Optional(SequenceBody('snake')),
    tracking: Type.Optional(TrackingBody('snake')),
    plain_text_only: Type.Optional(Type.Boolean()),
    calendar_link: Type.Optional(HttpsUrl('https booking page; null: none.')),
    budget: Type.Optional(
      Type.Object(
        {
          max_daily_usd: Type.Optional(UsdLimit('Spend limit per UTC day; null: none. Below today\'s spend, a running campaign pauses at once (budget_exceeded).')),
          max_weekly_usd: Type.Optional(UsdLimit('Spend limit per week; null: none.')),
          max_monthly_usd: Type.Optional(UsdLimit('Spend limit per month; null: none.')),
        },
        { additionalProperties: false },
      ),
    ),
    schedule: Type.Optional(ScheduleA),
    reporting: Type.Optional(
      Type.Object(
        { frequency: Type.Optional(ReportFrequency), email: Type.Optional(ReportEmail), webhook_url: Type.Optional(HttpsUrl('HTTPS URL for this campaign\'s events; null: none.')) },
        { additionalProperties: false },
      ),
    ),
    ...LeadControlBody('snake').properties,
    max_first_emails_per_domain_per_day: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }), 'At most this many first emails per company domain per day; null: no cap.')),
    mailbox_ids: MailboxIdsPatch(),
  },
  { additionalProperties: false, description: `Only the members given change. sequence: ${SEQUENCE_NOTE}` },
);

export const PatchCampaignBodyB = Type.Object(
  {
    name: Type.Optional(CampaignName('Not blank.')),
    targetAudience: Type.Optional(Nullable(AudienceText('Who the emails are for; without `audience` its filters are read again from it by the built-in parser.'))),
    audience: Type.Optional(Nullable(AudienceFiltersSchema('camel', true), 'Explicit filters; null: read them from targetAudience again.')),
    targetOutcome: Type.Optional(Text(2000, 'What the campaign wants from a lead.')),
    valueForTarget: Type.Optional(Text(2000, 'What the lead gains.')),
    sequence: Type.Optional(SequenceBody('camel')),
    tracking: Type.Optional(TrackingBody('camel')),
    plainTextOnly: Type.Optional(Type.Boolean()),
    maxBudgetDailyUsd: Type.Optional(UsdLimit('Spend limit per UTC day; null: none. Below today\'s spend, a running campaign pauses at once (budget_exceeded).')),
    maxBudgetWeeklyUsd: Type.Optional(UsdLimit('Spend limit per week; null: none.')),
    maxBudgetMonthlyUsd: Type.Optional(UsdLimit('Spend limit per month; null: none.')),
    schedule: Type.Optional(ScheduleB),
    reporting: Type.Optional(Type.Object({ frequency: Type.Optional(ReportFrequency), email: Type.Optional(ReportEmail) }, { additionalProperties: false })),
    ...LeadControlBody('camel').properties,
    maxFirstEmailsPerDomainPerDay: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }), 'At most this many first emails per company domain per day; null: no cap.')),
    mailboxIds: MailboxIdsPatch(),
  },
  { additionalProperties: false, description: `Only the members given change. sequence: ${SEQUENCE_NOTE}` },
);

const Actor = (camel: boolean) =>
  Type.Object(
    {
      via: Type.Union([Type.Literal('api_a'), Type.Literal('api_b'), Type.Literal('dashboard')], { description: 'Surface A, Surface B, or the dashboard.' }),
      [camel ? 'keyId' : 'key_id']: Type.String({ description: 'The API key the change was made with (the dashboard: the key its session signed in with).' }),
      [camel ? 'keyPrefix' : 'key_prefix']: Type.String(),
    },
    { additionalProperties: false },
  );

const FieldChangeView = Type.Object({ field: Type.String({ description: 'The member, as this surface names it (schedule.days, budget.max_daily_usd ...).' }), from: Type.Unknown(), to: Type.Unknown() }, { additionalProperties: false });

const ChangeView = (camel: boolean) =>
  Type.Object(
    {
      id: Type.String(),
      at: Timestamp,
      kind: Type.Union([Type.Literal('edit'), Type.Literal('pause'), Type.Literal('stop'), Type.Literal('resume')]),
      by: Actor(camel),
      changes: Type.Array(FieldChangeView),
    },
    { additionalProperties: false },
  );

export const ChangesQueryA = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })), per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
);
export const ChangesQueryB = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })), perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
);

export const ChangesResponseA = Type.Object(
  { campaign_id: Type.String(), changes: Type.Array(ChangeView(false)), pagination: Type.Object({ total: Type.Integer(), page: Type.Integer(), per_page: Type.Integer() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export const ChangesResponseB = Type.Object(
  { campaignId: Type.String(), changes: Type.Array(ChangeView(true)), pagination: Type.Object({ total: Type.Integer(), page: Type.Integer(), perPage: Type.Integer() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
