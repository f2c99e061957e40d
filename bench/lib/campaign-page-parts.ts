import { performance } from 'node:perf_hooks';
import { ownedCampaign } from '../../src/campaigns/campaign-repository';
import { spendInWindows } from '../../src/campaigns/control/spend-windows';
import { addDays, localDate } from '../../src/campaigns/model/calendar';
import { campaignCounts } from '../../src/campaigns/reporting/campaign-counts';
import { readCampaign } from '../../src/campaigns/reporting/campaign-read-model';
import { campaignStepReport } from '../../src/campaigns/reporting/campaign-step-report';
import { campaignCosts } from '../../src/campaigns/reporting/cost-breakdown';
import { dailyActivity } from '../../src/campaigns/reporting/daily-activity';
import { repliesPage } from '../../src/campaigns/reporting/replies-page';
import { reportPage } from '../../src/campaigns/reporting/report-repository';
import { stepCounts } from '../../src/campaigns/reporting/step-stats';
import { loadConfig } from '../../src/config/config';
import { createSequelize } from '../../src/db/sequelize';
import { CHART_DAYS, campaignPageData, PAGE_REPLIES, PAGE_REPORTS } from '../../src/web/pages/campaign/campaign-page-data';
import { campaignView } from '../../src/web/pages/campaign/campaign-view';
import { renderTemplate } from '../../src/web/render';
import { dailyChartSvg } from '../../src/web/view/daily-chart';
import { percentile } from './wait-until';

/**
 * Where the campaign page's time goes: each read of campaignPageData timed alone (one at a time,
 * so each is its own cost, not its wait for a pooled connection), then the whole read (its reads
 * in parallel, as the page runs them), the view (the chart drawn) and the template, in this process
 * on a pool of the service's size. The server runs the same code; its process adds the session
 * lookup, routing and the response.
 */
const RUNS = 15;

export async function timePageParts(databaseUrl: string, accountId: string, campaignId: string): Promise<string[]> {
  const config = loadConfig({ PORT: '0', DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: '127.0.0.1:1', TEMPORAL_UI_URL: 'http://127.0.0.1:8233' });
  const sequelize = createSequelize({ url: databaseUrl, poolMax: config.databasePoolMax });
  try {
    const row = await ownedCampaign(accountId, campaignId);
    const now = new Date();
    const today = localDate(now.getTime(), row.timezone);
    const data = await campaignPageData(sequelize, config, accountId, campaignId, now);
    const view = await campaignView(data, null);
    const session = { accountId, accountName: 'Bench Pages', plan: 'pro' as const, accountCreatedAt: now, keyId: 'key', keyPrefix: 'ok_bench', sessionId: 'ses', csrfToken: 'csrf' };
    const parts: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
      ['ownedCampaign (the row)', () => ownedCampaign(accountId, campaignId)],
      ['readCampaign', () => readCampaign(sequelize, accountId, campaignId, now)],
      ['campaignCounts (stats)', () => campaignCounts(sequelize, campaignId)],
      ['campaignCosts (stats)', () => campaignCosts(sequelize, campaignId)],
      ['dailyActivity (30 days)', () => dailyActivity(sequelize, campaignId, addDays(today, -(CHART_DAYS - 1)), today, row.timezone)],
      ['stepCounts (per step)', () => stepCounts(sequelize, campaignId)],
      ['campaignStepReport', () => campaignStepReport(sequelize, accountId, campaignId)],
      ['spendInWindows', () => spendInWindows(sequelize, campaignId, undefined, now.getTime())],
      ['repliesPage', () => repliesPage(sequelize, campaignId, { page: 1, perPage: PAGE_REPLIES })],
      ['reportPage', () => reportPage(sequelize, campaignId, PAGE_REPORTS, 0)],
      ['campaignPageData (all, parallel)', () => campaignPageData(sequelize, config, accountId, campaignId, now)],
      ['dailyChartSvg (the chart)', () => dailyChartSvg(data.days)],
      ['campaignView (chart included)', () => campaignView(data, null)],
      ['renderTemplate campaign', async () => renderTemplate('campaign', { title: data.campaign.name, session, nav: 'campaigns', notice: null, ...view })],
    ];
    const lines = [`where the page's time goes (in the bench process, pool of ${config.databasePoolMax}; ${RUNS} runs each after 3 unmeasured, one at a time; ms):`];
    const width = Math.max(...parts.map(([name]) => name.length));
    for (const [name, once] of parts) {
      for (let i = 0; i < 3; i++) await once();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await once();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      lines.push(`  ${name.padEnd(width)}  p50 ${percentile(times, 50).toFixed(1).padStart(6)}  p95 ${percentile(times, 95).toFixed(1).padStart(6)}`);
    }
    return lines;
  } finally {
    await sequelize.close().catch(() => undefined);
  }
}
