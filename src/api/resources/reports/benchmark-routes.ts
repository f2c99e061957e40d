import { benchmarks, type Distribution } from '../../../campaigns/reporting/benchmarks';
import { defineRoute } from '../../http/route';
import { ALL_TEMPLATES, BenchmarksQuery, BenchmarksResponse } from './benchmark-schemas';

const view = (d: Distribution) => ({ average: d.average, p25: d.p25, p50: d.p50, p75: d.p75 });

const getBenchmarks = defineRoute({
  method: 'get',
  path: '/benchmarks',
  auth: 'a',
  operationId: 'getBenchmarks',
  summary: 'How campaigns of a template perform across the service',
  description:
    'Average and quartiles of per-campaign delivery, open and reply rates (defined as in GET /campaigns/{id}/stats) and cost per ' +
    'email, over the campaigns of the template (every template without `mcp`) of all accounts that have sent at least one email. ' +
    'Only these aggregates are returned, never a campaign\'s own figures. Computed live on each request. An unknown template is a 400 listing the valid names.',
  tags: ['campaigns'],
  query: BenchmarksQuery,
  responses: { 200: { description: 'The benchmarks', schema: BenchmarksResponse } },
  handler: async ({ query }, { deps }) => {
    const mcp = query.mcp ?? ALL_TEMPLATES;
    const b = await benchmarks(deps.sequelize, mcp === ALL_TEMPLATES ? null : mcp);
    return {
      body: {
        mcp,
        sample_size: b.sampleSize,
        updated_at: new Date().toISOString(),
        benchmarks: {
          delivery_rate: view(b.deliveryRate),
          open_rate: view(b.openRate),
          reply_rate: view(b.replyRate),
          avg_cost_per_email_usd: view(b.avgCostPerEmailUsd),
        },
      },
    };
  },
});

export const benchmarkRoutes = [getBenchmarks];
