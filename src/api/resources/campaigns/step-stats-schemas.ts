import { Type } from '@sinclair/typebox';
import { VARIANT_IDS } from '../../../campaigns/model/sequence';
import { StringEnum } from '../string-enum';
import { CasedObject, type Casing } from './casing';
import { Count, Nullable } from './schemas';

/** GET /campaigns/{id}/stats/steps (snake_case) and GET /v1/campaigns/{id}/stats/steps (camelCase). */

const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

function Counts<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      emails_sent: Count('Emails sent.'),
      delivered: Count('Accepted by the receiving server and not bounced later.'),
      opened: Count('Opened at least once (a click counts as an open).'),
      clicked: Count('With at least one link clicked.'),
      replied: Count('Answered by a person.'),
      positive_replies: Count('With a reply qualified interested, meeting_booked or closed.'),
      bounced: Count(),
      unsubscribed: Count(),
      meetings_booked: Count(),
      skipped: Count('Leads for whom the step was passed over (a merge variable without a value, no thread to reply in).'),
    },
    { additionalProperties: false },
  );
}

function Rates<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      delivery_rate: Fraction('delivered / emails sent'),
      open_rate: Fraction('opened / delivered'),
      click_rate: Fraction('clicked / delivered'),
      reply_rate: Fraction('replied / delivered'),
      positive_reply_rate: Fraction('positive replies / delivered'),
      bounce_rate: Fraction('bounced / emails sent'),
      unsubscribe_rate: Fraction('unsubscribed / delivered'),
    },
    { additionalProperties: false, description: 'Fractions rounded to 4 decimals; 0 when the denominator is 0.' },
  );
}

export function StepStatsResponse<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      campaign_id: Type.String(),
      steps: Type.Array(
        CasedObject(
          casing,
          {
            step: Type.Integer({ minimum: 1, description: '1 for the first email.' }),
            stats: Counts(casing),
            rates: Rates(casing),
            variants: Type.Array(
              CasedObject(
                casing,
                {
                  variant: Nullable(StringEnum(VARIANT_IDS), 'Null for emails sent before variants were recorded.'),
                  weight: Nullable(Type.Number({ minimum: 0 }), 'The variant\'s weight in the sequence; null for emails of a variant it no longer names.'),
                  winner: Type.Boolean({ description: 'The variant test of the step chose this variant.' }),
                  stats: Counts(casing),
                  rates: Rates(casing),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        { description: 'Every step of the sequence in use, oldest first, with every variant (zeros where nothing went out yet).' },
      ),
    },
    { additionalProperties: false },
  );
}
