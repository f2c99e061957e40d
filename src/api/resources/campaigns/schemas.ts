import { Type, type TNumber, type TSchema } from '@sinclair/typebox';
import { CAMPAIGN_STATUSES } from '../../../db/models/campaign';
import { Timestamp } from '../../http/common-schemas';
import { cased, CasedObject, type Casing } from './casing';

/**
 * Schema pieces both surfaces' campaign routes share, written once. Those with field names are
 * built per casing (see casing.ts): schemas-a.ts builds them snake_case, schemas-b.ts camelCase.
 */

export const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
export const Count = (description?: string) => Type.Integer({ minimum: 0, ...(description === undefined ? {} : { description }) });
export const Usd = (description: string) => Type.Number({ minimum: 0, description });
const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const CampaignStatus = Type.Union(CAMPAIGN_STATUSES.map((s) => Type.Literal(s)));

/**
 * The campaign in the path, on every campaign route of both surfaces. Ids are opaque; one that
 * names no campaign of the account, well-formed or not, is a 404 worded like a missing one.
 */
export const CampaignId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const StatusReason = Nullable(
  Type.String(),
  'Why the campaign is in its status: manual, budget_exceeded or quota_exceeded (paused), trial_ended or schedule_complete (completed), a failure reason (failed); null otherwise.',
);

export const DailyLimit = Nullable(Type.Number({ minimum: 0 }), 'Null: no daily limit.');

export const DashboardUrl = Type.String({ format: 'uri', description: 'The campaign in the dashboard.' });

/** The counts shown with a campaign (HeadlineCounts of the read model). */
export function HeadlineStats<C extends Casing>(casing: C, description: string) {
  return CasedObject(
    casing,
    { emails_sent: Count(), delivered: Count(), opened: Count(), replied: Count(), meetings_booked: Count() },
    { additionalProperties: false, description },
  );
}

/** A campaign's statistics: GET /campaigns/{id}/stats (snake_case) and GET /v1/campaigns/{id}/stats (camelCase). */
export function CampaignStatsResponse<C extends Casing>(casing: C) {
  const name = (snake: string) => cased(casing, snake);
  // Surface A has always called the total total_byok_usd; Surface B calls it totalUsd.
  const total = (casing === 'snake' ? 'total_byok_usd' : 'total_usd') as C extends 'snake' ? 'total_byok_usd' : 'total_usd';
  return CasedObject(
    casing,
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
      stats: CasedObject(
        casing,
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
      rates: CasedObject(
        casing,
        {
          delivery_rate: Fraction(`delivered / ${name('emails_sent')}`),
          open_rate: Fraction('opened / delivered'),
          click_rate: Fraction('clicked / delivered'),
          reply_rate: Fraction('replied / delivered'),
          conversion_rate: Fraction(`${name('meetings_booked')} / delivered`),
        },
        { additionalProperties: false, description: 'Fractions in [0, 1], rounded to 4 decimals; 0 when the denominator is 0.' },
      ),
      costs: CasedObject(
        casing,
        {
          ...({ [total]: Usd('Everything recorded for the campaign: AI writing and qualification with the account\'s own keys, lead enrichment, sending.') } as Record<typeof total, TNumber>),
          breakdown: CasedObject(
            casing,
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
}

/** The answer of a pause, stop or resume: the campaign's new status and when it took effect, as `at`. */
export function ControlResponse<C extends Casing, At extends string>(casing: C, at: At) {
  return CasedObject(casing, { id: Type.String(), status: CampaignStatus, ...({ [at]: Timestamp } as Record<At, typeof Timestamp>) }, { additionalProperties: false });
}
