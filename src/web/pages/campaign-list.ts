import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../api/http/route';
import { campaignListPage } from '../../campaigns/campaign-repository';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../../campaigns/model/status';
import { definePage } from '../page-route';
import { renderTemplate } from '../render';
import { statusLabel } from '../view/status-label';
import { shownTime } from './account/format';

/** The account's campaigns: a status filter, a search over name, target and audience, and pages. */

const PER_PAGE = 25;

const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal(''), ...CAMPAIGN_STATUSES.map((s) => Type.Literal(s))])),
    q: Type.Optional(Type.String({ maxLength: 200 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);

/** A page's own address with one parameter changed, for the pager's links. */
function pageHref(status: string, q: string, page: number): string {
  const params = new URLSearchParams();
  if (status !== '') params.set('status', status);
  if (q !== '') params.set('q', q);
  if (page > 1) params.set('page', String(page));
  const s = params.toString();
  return `/dashboard/campaigns${s === '' ? '' : `?${s}`}`;
}

const list = definePage({
  path: '/dashboard/campaigns',
  summary: 'Campaigns',
  query: ListQuery,
  handler: async ({ query }, { session }) => {
    const status = (query.status as CampaignStatus | '' | undefined) ?? '';
    const q = ((query.q as string | undefined) ?? '').trim();
    const page = (query.page as number | undefined) ?? 1;
    const { rows, total } = await campaignListPage(session.accountId, {
      status: status === '' ? undefined : status,
      search: q,
      limit: PER_PAGE,
      offset: (page - 1) * PER_PAGE,
    });
    const pages = Math.max(1, Math.ceil(total / PER_PAGE));
    const campaigns = rows.map((c) => ({
      id: c.id,
      name: c.name,
      status: c.status,
      statusText: statusLabel(c.status, c.statusReason),
      template: c.mcp,
      target: c.targetUrl,
      audience: c.audienceSource === 'all_leads' ? 'all leads' : (c.targetAudience ?? 'filters'),
      matched: c.audienceMatchedLeads,
      reason: c.audienceReason,
      created: shownTime(c.createdAt).text,
    }));
    return {
      html: renderTemplate('campaigns', {
        title: 'Campaigns',
        session,
        nav: 'campaigns',
        campaigns,
        statuses: CAMPAIGN_STATUSES,
        status,
        q,
        page,
        pages,
        total,
        prev: page > 1 ? pageHref(status, q, page - 1) : null,
        next: page < pages ? pageHref(status, q, page + 1) : null,
      }),
    };
  },
});

export const campaignListRoutes: readonly AnyRoute[] = [list];
