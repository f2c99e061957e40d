import { Type } from '@sinclair/typebox';
import { CAMPAIGN_STATUSES } from '../../../db/models/campaign';
import { PageQuery, Pagination, Timestamp } from '../../http/common-schemas';

export const CampaignStatus = Type.Union(CAMPAIGN_STATUSES.map((s) => Type.Literal(s)));

export const CampaignId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

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

const Usd = (description: string) => Type.Number({ minimum: 0, maximum: 1_000_000, description });
const HourMinute = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description: 'HH:MM, 24-hour clock.' });

export const CreateCampaignBody = Type.Object(
  {
    mcp: Type.String({ minLength: 1, maxLength: 100, description: 'Outreach template: sales_outreach, partnerships, recruiting, fundraising or customer_feedback.' }),
    target_url: Type.String({ minLength: 1, maxLength: 2048, description: 'Domain (acme.com) or http(s) URL of the company the campaign speaks for.' }),
    target_audience: Type.Optional(Type.String({ maxLength: 2000 })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Defaults to "<template> for <target host>".' })),
    calendar_link: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'https booking page (Cal.com, Calendly, ...) the emails invite leads to; bookings through it count as meetings.' })),
    budget: Type.Optional(
      Type.Object(
        {
          max_daily_usd: Type.Optional(Usd('Spend limit per UTC day.')),
          max_weekly_usd: Type.Optional(Usd('Spend limit per week (Monday 00:00 UTC).')),
          max_monthly_usd: Type.Optional(Usd('Spend limit per calendar month (UTC).')),
        },
        { additionalProperties: false },
      ),
    ),
    schedule: Type.Optional(
      Type.Object(
        {
          frequency: Type.Optional(Type.Union([Type.Literal('daily'), Type.Literal('weekdays'), Type.Literal('weekly')], { description: 'Sending days. Default daily.' })),
          trial_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
          start_date: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD; nothing is sent before 00:00 UTC of this date.' })),
          timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the sending window. Default UTC.' })),
          send_window: Type.Optional(
            Type.Object({ start: HourMinute, end: HourMinute }, { additionalProperties: false, description: 'Local hours emails leave in. Default 09:00-17:00.' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
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
  },
  { additionalProperties: false },
);

export const CreateCampaignResponse = Type.Object(
  { id: Type.String(), status: CampaignStatus, mcp: Type.String(), target_url: Type.String(), created_at: Timestamp, dashboard_url: Type.String({ format: 'uri' }) },
  { additionalProperties: false },
);

export const PauseResponse = Type.Object({ id: Type.String(), status: CampaignStatus, paused_at: Timestamp }, { additionalProperties: false });
export const ResumeResponse = Type.Object({ id: Type.String(), status: CampaignStatus, resumed_at: Timestamp }, { additionalProperties: false });
