import { Type } from '@sinclair/typebox';
import { CAMPAIGN_STATUSES } from '../../../db/models/campaign';
import { PageQuery, Pagination, Timestamp } from '../../http/common-schemas';

export const CampaignStatus = Type.Union(CAMPAIGN_STATUSES.map((s) => Type.Literal(s)));

export const CampaignListItem = Type.Object(
  { id: Type.String(), status: CampaignStatus, mcp: Type.String(), target_url: Type.String(), created_at: Timestamp },
  { additionalProperties: false },
);

export const CampaignListQuery = Type.Object(
  {
    status: Type.Optional(CampaignStatus),
    mcp: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const CampaignListResponse = Type.Object(
  { campaigns: Type.Array(CampaignListItem), pagination: Pagination },
  { additionalProperties: false },
);
