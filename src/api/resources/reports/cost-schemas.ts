import { Type } from '@sinclair/typebox';
import { COST_GROUP_BY } from '../../../campaigns/reporting/cost-groups';
import { StringEnum } from '../string-enum';
import { BrandId } from './brand-id';

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Day = (description: string) => Type.String({ format: 'date', description });

// --- GET /v1/runs/stats/costs ---

export const CostStatsQuery = Type.Object(
  {
    groupBy: Type.Optional(StringEnum(COST_GROUP_BY, { default: 'costName', description: 'costName (default), brandId or featureSlug.' })),
    brandId: Type.Optional(BrandId),
    from: Type.Optional(Day('First UTC day, YYYY-MM-DD, inclusive. Default: no lower bound.')),
    to: Type.Optional(Day('Last UTC day, YYYY-MM-DD, inclusive. Default: no upper bound.')),
  },
  { additionalProperties: false },
);

export const CostStatsResponse = Type.Object(
  {
    groupBy: StringEnum(COST_GROUP_BY),
    brandId: Type.Union([Type.String(), Type.Null()], { description: 'The brand filter as applied (normalised), or null.' }),
    from: Type.Union([Day('The from day as given.'), Type.Null()]),
    to: Type.Union([Day('The to day as given.'), Type.Null()]),
    totalCostUsd: Type.Number({ minimum: 0, description: 'Every cost in scope, rounded to 6 decimals.' }),
    groups: Type.Array(
      Type.Object(
        {
          key: Type.Union([Type.String(), Type.Null()], {
            description: 'The cost name (openai:gpt-4o-mini, apollo:people_match, smtp), brand id or feature slug (email-writing, reply-qualification, lead-enrichment, email-sending); null for costs that belong to no brand.',
          }),
          totalCostUsd: Type.Number({ minimum: 0, description: 'USD, rounded to 6 decimals.' }),
          quantity: Count('Units bought: emails sent, LLM calls, provider matches.'),
          events: Count('Cost records.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Most expensive first; equal costs ordered by key, the null key last.' },
    ),
  },
  { additionalProperties: false },
);
