import path from 'node:path';
import { QueryTypes } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { newId } from '../../src/accounts/ids';
import { loadConfig } from '../../src/config/config';
import { measureServer, Rounds } from '../lib/measure-server';
import { UNREACHED_RATE_LIMITS } from '../lib/rate-limits';
import type { Measurement } from '../lib/load';
import type { Scenario } from '../lib/scenario';

/**
 * Cores kept busy during a measured run by anything but the server, PostgreSQL and the load
 * generator (other test runs on a shared machine): those runs' figures are not comparable.
 */
function otherCores(m: Measurement): string {
  const c = m.cpuUsPerRequest;
  if (c?.machine === undefined || c.server === undefined || c.postgres === undefined || c.loadgen === undefined) return '-';
  // Clamped: the machine's counters and the processes' are read at slightly different instants.
  return Math.max(0, ((c.machine - c.server - c.postgres - c.loadgen) * m.requestsPerSec) / 1e6).toFixed(2);
}

/**
 * GET /campaigns/:id on Surface A: authenticated (Bearer key), rate-limited (the account's count
 * in PostgreSQL), validated (the id in the path) and read (one prepared statement: the row, its
 * counts and today's spend). The account's limit is set where the bench never reaches it, so the
 * limiter's cost is measured and not its 429s.
 *
 *   stack    the real API role (src/runtime/api-role.ts), LOG_LEVEL=info to a file
 *   ceiling  bare node:http answering the same bytes
 *   floor    bare node:http + pg.Pool (service's pool size) doing the same read as the same
 *            prepared statement and rendering the same body, with no authentication or limit
 *   floor-service-driver (BENCH_DIAG=1)  the floor with the read through the service's own
 *            driver path (src/db/prepared-query.ts), which skips pg's describe on every execution
 *
 * With BENCH_COMPARE=<dir>, the stack of that other checkout runs too, as `stack@<dir name>`
 * (e.g. a checkout from before a change, to see what the change costs).
 */
export const campaignReadScenario: Scenario = {
  name: 'campaign-read',
  description: 'authenticated, rate-limited GET /campaigns/:id: real stack vs bare node:http (ceiling) and node:http + the same pg read (floor)',
  async run(ctx) {
    const db = await ctx.database();
    const { account, key } = await new AccountService(db.sequelize).createAccount('Bench Reader', 'pro');
    const campaignId = newId('cmp');
    await db.sequelize.query(
      `INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url, brand_id, target_audience, budget_max_daily_usd, schedule_trial_days, status, started_at)
       VALUES ($1, $2, 'a', 'Read bench', 'sales_outreach', 'https://acme.example', 'acme.example', 'CTOs of fintechs', 25, 14, 'running', now())`,
      { bind: [campaignId, account.id] },
    );
    const request = { path: `/campaigns/${campaignId}`, headers: { authorization: `Bearer ${key.apiKey}` } };

    const serviceEnv: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(ctx.tmpDir, 'data'),
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: '127.0.0.1:1', // nothing listens there; the client is lazy and this read never uses it
      LOG_LEVEL: ctx.settings.serviceLogLevel,
      ...UNREACHED_RATE_LIMITS,
    };
    const config = loadConfig(serviceEnv);
    const floorEnv = {
      BENCH_DATABASE_URL: db.url,
      BENCH_POOL_MAX: String(config.databasePoolMax),
      BENCH_ACCOUNT_ID: account.id,
      BENCH_PUBLIC_BASE_URL: config.publicBaseUrl,
    };

    // bigint: pg returns it as a string.
    const commits = async (): Promise<number> =>
      Number((await db.sequelize.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()', { type: QueryTypes.SELECT }))[0]!.n);
    const rounds = new Rounds();
    const perRound: { stack: Measurement; floor: Measurement }[] = [];
    let body: string | undefined;
    let statementsPerRequest = 0;
    for (let round = 0; round < ctx.settings.rounds; round++) {
      const before = await commits();
      const stack = await measureServer(
        ctx,
        { name: 'stack', script: 'bench/servers/stack.ts', env: { BENCH_SERVICE_ENV: JSON.stringify(serviceEnv) }, logToFile: true },
        request,
        { body },
      );
      rounds.add(stack.measurement);
      // Statistics reach pg_stat_database when a backend goes idle; the stack's pool has closed by now.
      if (round === 0) statementsPerRequest = ((await commits()) - before) / stack.served;
      body ??= stack.probe.body;
      rounds.add((await measureServer(ctx, { name: 'ceiling', script: 'bench/servers/ceiling.ts', env: { BENCH_BODY: body } }, request, { body })).measurement);
      const floor = (await measureServer(ctx, { name: 'floor', script: 'bench/servers/campaign-floor.ts', env: floorEnv }, request, { body })).measurement;
      rounds.add(floor);
      perRound.push({ stack: stack.measurement, floor });
      if (ctx.settings.diagnostics) {
        const serviceDriver = { name: 'floor-service-driver', script: 'bench/servers/campaign-floor.ts', env: { ...floorEnv, BENCH_FLOOR_DRIVER: 'service' } };
        rounds.add((await measureServer(ctx, serviceDriver, request, { body })).measurement);
      }
      for (const dir of ctx.settings.compareDirs) {
        const other = { name: `stack@${path.basename(dir)}`, cwd: dir, script: 'bench/servers/stack.ts', env: { BENCH_SERVICE_ENV: JSON.stringify(serviceEnv) }, logToFile: true };
        rounds.add((await measureServer(ctx, other, request, { body })).measurement);
      }
    }
    const [counted] = await db.sequelize.query<{ points: number }>(`SELECT points FROM rate_limits WHERE key = $1`, {
      bind: [`a:${account.id}`],
      type: QueryTypes.SELECT,
    });
    return {
      measurements: rounds.medians(),
      ratios: [
        { numerator: 'stack', denominator: 'ceiling' },
        { numerator: 'stack', denominator: 'floor', target: 0.7 },
        ...(ctx.settings.diagnostics ? [{ numerator: 'stack', denominator: 'floor-service-driver' }] : []),
        ...ctx.settings.compareDirs.map((dir) => ({ numerator: 'stack', denominator: `stack@${path.basename(dir)}` })),
      ],
      notes: [
        '',
        `body ${Buffer.byteLength(body ?? '')} bytes, identical on every server (every response checked); pool size ${config.databasePoolMax}; service LOG_LEVEL=${ctx.settings.serviceLogLevel}`,
        `stack: ${statementsPerRequest.toFixed(2)} PostgreSQL transactions per request (auth lookups shared by concurrent requests of one key, limiter upserts by batch, one read each; the floor: 1)`,
        `rate limit: Pro account at ${UNREACHED_RATE_LIMITS.RATE_LIMIT_PRO_PER_MINUTE}/min, never reached; its counter in PostgreSQL reads ${counted?.points ?? 0} for the current window`,
        'CPU us/req: CPU time (user+system, all threads) during the measured run / responses; pg = postmaster and its backends',
        ...rounds.notes(),
        ...(perRound.length > 1 ? [`stack/floor per round: ${perRound.map((r) => (r.stack.requestsPerSec / r.floor.requestsPerSec).toFixed(2)).join(', ')}`] : []),
        `other work on the machine while measured (cores busy outside the server, PostgreSQL and the load generator), per round: ${perRound
          .map((r) => `stack ${otherCores(r.stack)}, floor ${otherCores(r.floor)}`)
          .join('; ')}`,
      ],
    };
  },
};
