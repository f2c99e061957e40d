import { Type } from '@sinclair/typebox';
import { TEMPLATE_NAMES } from '../../../campaigns/model/templates';
import { StringEnum } from '../string-enum';

/** Benchmarks of every template together. */
export const ALL_TEMPLATES = 'all';

export const BenchmarksQuery = Type.Object(
  {
    mcp: Type.Optional(
      StringEnum([...TEMPLATE_NAMES, ALL_TEMPLATES], { description: 'A template name, or `all` (the default) for campaigns of every template.' }),
    ),
  },
  { additionalProperties: false },
);

const Distribution = (what: string, unit: string) =>
  Type.Object(
    {
      average: Type.Number({ minimum: 0, description: `Mean of the campaigns' ${what}.` }),
      p25: Type.Number({ minimum: 0, description: 'First quartile (continuous percentile).' }),
      p50: Type.Number({ minimum: 0, description: 'Median.' }),
      p75: Type.Number({ minimum: 0, description: 'Third quartile.' }),
    },
    { additionalProperties: false, description: `${what} (${unit}); all 0 when sample_size is 0.` },
  );

export const BenchmarksResponse = Type.Object(
  {
    mcp: Type.String({ description: 'The template, or `all`.' }),
    sample_size: Type.Integer({ minimum: 0, description: 'Campaigns compared: those of the template, of any account, that have sent at least one email.' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the figures were computed: they are computed live, so this is the time of the request.' }),
    benchmarks: Type.Object(
      {
        delivery_rate: Distribution('delivery rate (delivered / sent)', 'fraction, 4 decimals'),
        open_rate: Distribution('open rate (opened / delivered)', 'fraction, 4 decimals'),
        reply_rate: Distribution('reply rate (replied / delivered)', 'fraction, 4 decimals'),
        avg_cost_per_email_usd: Distribution('cost per email sent (all recorded costs / emails sent)', 'USD, 6 decimals'),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
