import { Type } from '@sinclair/typebox';

export const UsageQuery = Type.Object(
  {
    period: Type.Optional(
      Type.String({
        // Years from 1970: before it, JavaScript's Date.UTC reads years 0-99 as 1900-1999.
        pattern: '^(month|(19[7-9][0-9]|[2-9][0-9]{3})-(0[1-9]|1[0-2]))$',
        default: 'month',
        description: '`month` (the current UTC calendar month, the default) or a month as YYYY-MM.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UsageResponse = Type.Object(
  {
    period: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', description: 'The UTC calendar month reported, YYYY-MM.' }),
    usage: Type.Object(
      {
        campaigns_created: Type.Integer({ minimum: 0, description: 'Campaigns created in the month (on either surface).' }),
        emails_sent: Type.Integer({ minimum: 0, description: 'Emails sent in the month, by every campaign of the account: what the plan\'s quota counts.' }),
        emails_remaining: Type.Integer({ minimum: 0, description: 'plan.email_limit minus emails_sent, never below 0. At 0, sending stops and running campaigns pause (quota_exceeded).' }),
        byok_cost_usd: Type.Number({ minimum: 0, description: 'Costs recorded in the month (AI with the account\'s own keys, lead enrichment, sending), USD rounded to 6 decimals.' }),
      },
      { additionalProperties: false },
    ),
    plan: Type.Object(
      {
        name: Type.String({ description: 'free or pro.' }),
        email_limit: Type.Integer({ minimum: 0, description: 'Emails the plan allows per UTC calendar month.' }),
        price_usd: Type.Number({ minimum: 0, description: 'Monthly price.' }),
      },
      { additionalProperties: false, description: 'The account\'s current plan (also for a past period).' },
    ),
  },
  { additionalProperties: false },
);
