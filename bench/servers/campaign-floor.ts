/**
 * Database floor for GET /campaigns/:id: bare node:http plus a pg.Pool of the service's size,
 * doing the read the service does for that route (CAMPAIGN_READ_QUERY of
 * src/campaigns/reporting/campaign-read-model.ts, as the same named prepared statement, for the
 * account in BENCH_ACCOUNT_ID) and answering the same body through the service's own rendering.
 * No authentication, no rate limit, no framework: what the stack costs above this is those.
 *
 * With BENCH_FLOOR_DRIVER=service (the `floor-service-driver` row of BENCH_DIAG=1) the read goes
 * through the service's own driver path instead (src/db/prepared-query.ts on a Sequelize pool of
 * the same size, which does not have pg describe the statement on every execution): the
 * difference between the two floors is what that path saves, whatever the framework costs.
 *
 * Env: BENCH_DATABASE_URL, BENCH_POOL_MAX, BENCH_ACCOUNT_ID, BENCH_PUBLIC_BASE_URL, BENCH_FLOOR_DRIVER.
 */
import http from 'node:http';
import pg from 'pg';
import { campaignA } from '../../src/api/resources/campaigns/present-a';
import { CAMPAIGN_READ_QUERY, CAMPAIGN_READ_STATEMENT, campaignReadValues, readModelOf, type CampaignReadRow } from '../../src/campaigns/reporting/campaign-read-model';
import { preparedQuery } from '../../src/db/prepared-query';
import { createSequelize } from '../../src/db/sequelize';
import { applyServiceTimeouts, listenLocal, runChild } from './child';

const PATH = /^\/campaigns\/([A-Za-z0-9_]{1,64})$/;

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

runChild(async () => {
  const connectionString = process.env.BENCH_DATABASE_URL;
  const max = Number(process.env.BENCH_POOL_MAX);
  const accountId = process.env.BENCH_ACCOUNT_ID;
  const publicBaseUrl = process.env.BENCH_PUBLIC_BASE_URL;
  if (!connectionString || !Number.isInteger(max) || max < 1 || !accountId || !publicBaseUrl) {
    throw new Error('BENCH_DATABASE_URL, BENCH_POOL_MAX, BENCH_ACCOUNT_ID and BENCH_PUBLIC_BASE_URL are required');
  }
  const serviceDriver = process.env.BENCH_FLOOR_DRIVER === 'service';
  const pool = serviceDriver ? undefined : new pg.Pool({ connectionString, max, idleTimeoutMillis: 10_000 });
  const sequelize = serviceDriver ? createSequelize({ url: connectionString, poolMax: max }) : undefined;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const m = PATH.exec(req.url ?? '');
    if (!m) return send(res, 404, '{"error":"Campaign not found"}');
    const now = new Date();
    const values = campaignReadValues(m[1] as string, accountId, now);
    const rows = sequelize
      ? await preparedQuery<CampaignReadRow>(sequelize, CAMPAIGN_READ_STATEMENT, CAMPAIGN_READ_QUERY, values)
      : (await (pool as pg.Pool).query<CampaignReadRow>({ name: CAMPAIGN_READ_STATEMENT, text: CAMPAIGN_READ_QUERY, values })).rows;
    const row = rows[0];
    if (row === undefined) return send(res, 404, '{"error":"Campaign not found"}');
    send(res, 200, JSON.stringify(campaignA(readModelOf(row, now), { publicBaseUrl })));
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, JSON.stringify({ error: (err as Error).message })));
  });
  applyServiceTimeouts(server);
  await listenLocal(server);
  return { server, close: async () => (sequelize ? sequelize.close() : pool?.end()) };
});
