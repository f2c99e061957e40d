import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../../api/http/route';
import { UsageQuery } from '../../../api/resources/reports/usage-schemas';
import { monthlyWindow } from '../../../campaigns/model/budget-windows';
import { costGroups } from '../../../campaigns/reporting/cost-groups';
import { accountUsage, usageMonth } from '../../../campaigns/reporting/usage';
import { listLeads } from '../../../leads/lead-repository';
import { definePage } from '../../page-route';
import { renderTemplate } from '../../render';
import { count, usd } from './format';

/**
 * Usage against the plan: a month's emails against the plan's quota (the figure that pauses
 * campaigns at 100%), campaigns created, leads stored and costs, from the same functions as
 * GET /usage (accountUsage) and GET /v1/runs/stats/costs (costGroups); the plan as GET /v1/me
 * shows it. Months are UTC calendar months, as everywhere the quota is counted.
 */

const MONTHS_OFFERED = 12;
/** The quota share from which the bar warns, as the budget warnings do. */
const WARN_SHARE = 0.8;

const FEATURE_LABELS: Readonly<Record<string, string>> = {
  'email-sending': 'Sending emails',
  'email-writing': 'AI email writing',
  'reply-qualification': 'Reply qualification',
  'lead-enrichment': 'Lead enrichment',
  'lead-search': 'Lead search',
  'email-preview': 'Email previews',
};

/** The last MONTHS_OFFERED months, newest first, as YYYY-MM. */
function recentMonths(now: Date): string[] {
  return Array.from({ length: MONTHS_OFFERED }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7));
}

function monthName(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

const page = definePage({
  path: '/dashboard/usage',
  summary: 'Usage against the plan',
  query: Type.Object({ period: Type.Optional(UsageQuery.properties.period) }, { additionalProperties: false }),
  handler: async ({ query }, { deps, session }) => {
    const now = new Date();
    const month = usageMonth(query.period as string | undefined, now);
    const window = monthlyWindow(month);
    const [usage, costs, leads] = await Promise.all([
      accountUsage(deps.sequelize, session.accountId, session.plan, deps.config.planEmailLimits, month),
      costGroups(deps.sequelize, session.accountId, { groupBy: 'featureSlug', brandId: null, from: new Date(window.start), to: new Date(window.end) }),
      listLeads(deps.sequelize, session.accountId, 1, 1),
    ]);
    const limit = usage.plan.emailLimit;
    const share = limit === 0 ? (usage.emailsSent > 0 ? 1 : 0) : usage.emailsSent / limit;
    const percent = Math.round(share * 1000) / 10;
    const current = usageMonth(undefined, now);
    const months = recentMonths(now);
    if (!months.includes(month)) months.push(month);
    return {
      html: renderTemplate('usage', {
        title: 'Usage',
        session,
        nav: 'usage',
        month,
        monthName: monthName(month),
        isCurrent: month === current,
        months: months.map((m) => ({ value: m, label: monthName(m), selected: m === month })),
        plan: { name: usage.plan.name, price: usd(usage.plan.priceUsd), limit: count(limit) },
        sent: count(usage.emailsSent),
        remaining: count(usage.emailsRemaining),
        percent,
        barWidth: Math.min(100, percent),
        barState: share >= 1 ? 'over' : share >= WARN_SHARE ? 'warn' : '',
        campaigns: count(usage.campaignsCreated),
        leads: count(leads.total),
        costTotal: usd(usage.byokCostUsd),
        costs: costs.groups.map((g) => ({
          label: g.key === null ? 'Other' : (FEATURE_LABELS[g.key] ?? g.key),
          quantity: count(g.quantity),
          amount: usd(g.totalCostUsd),
        })),
        keyPrefix: session.keyPrefix,
      }),
    };
  },
});

export const usagePageRoutes: readonly AnyRoute[] = [page];
