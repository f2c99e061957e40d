import fs from 'node:fs';
import path from 'node:path';
import { AccountService } from '../../src/accounts/account-service';
import { loadConfig } from '../../src/config/config';
import { measureServer, Rounds } from '../lib/measure-server';
import { UNREACHED_RATE_LIMITS } from '../lib/rate-limits';
import type { RatioSpec, Scenario } from '../lib/scenario';

async function fileStats(file: string): Promise<{ lines: number; bytes: number }> {
  if (!fs.existsSync(file)) return { lines: 0, bytes: 0 };
  let lines = 0;
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    const buf = chunk as Buffer;
    bytes += buf.length;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
  }
  return { lines, bytes };
}

/**
 * GET /v1/me with a valid X-API-Key: the cheapest authenticated call, so it shows the fixed cost
 * of the stack (Koa, middleware, the auth lookup, request logging) per request.
 *
 *   stack           the real API role (src/runtime/api-role.ts) on the real config, LOG_LEVEL=info to a file
 *   ceiling         bare node:http answering the same bytes: the most this machine can do
 *   floor           bare node:http + pg.Pool (service's pool size) doing the same SELECT per request
 *   floor-prepared  the floor with the SELECT as a named prepared statement, as the service runs it:
 *                   the strict like-for-like floor, so its ratio is printed too
 *
 * With BENCH_COMPARE=<dir>, the stack of that other checkout runs too, as `stack@<dir name>`.
 * With BENCH_DIAG=1, more rows split the gap:
 *   floor-sequelize  the floor with the lookup through sequelize.query (the service's createSequelize)
 *   stack-silent     the stack with LOG_LEVEL=silent
 */
export const meScenario: Scenario = {
  name: 'me',
  description: 'authenticated GET /v1/me: real stack vs bare node:http (ceiling) and node:http + pg lookup (floor)',
  async run(ctx) {
    for (const dir of ctx.settings.compareDirs) {
      if (!fs.existsSync(path.join(dir, 'bench', 'servers', 'stack.ts'))) throw new Error(`BENCH_COMPARE: ${dir} has no bench/servers/stack.ts`);
    }
    const db = await ctx.database();
    const { key } = await new AccountService(db.sequelize).createAccount('Bench Co', 'pro');
    const request = { path: '/v1/me', headers: { 'x-api-key': key.apiKey } };

    // The service's own variables; everything else takes the service's defaults.
    const serviceEnv: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(ctx.tmpDir, 'data'),
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: '127.0.0.1:1', // nothing listens there; the client is lazy and /v1/me never uses it
      LOG_LEVEL: ctx.settings.serviceLogLevel,
      ...UNREACHED_RATE_LIMITS,
    };
    const poolMax = loadConfig(serviceEnv).databasePoolMax;
    const floorEnv = { BENCH_DATABASE_URL: db.url, BENCH_POOL_MAX: String(poolMax) };

    const rounds = new Rounds();
    let body: string | undefined;
    let log = { lines: 0, bytes: 0 };
    let stackServed = 0;
    for (let round = 0; round < ctx.settings.rounds; round++) {
      const stack = await measureServer(
        ctx,
        { name: 'stack', script: 'bench/servers/stack.ts', env: { BENCH_SERVICE_ENV: JSON.stringify(serviceEnv) }, logToFile: true },
        request,
        { body },
      );
      rounds.add(stack.measurement);
      body ??= stack.probe.body; // the first real answer is the reference every server must match
      if (round === 0) {
        log = await fileStats(path.join(ctx.tmpDir, 'stack.log'));
        stackServed = stack.served;
      }
      rounds.add((await measureServer(ctx, { name: 'ceiling', script: 'bench/servers/ceiling.ts', env: { BENCH_BODY: body } }, request, { body })).measurement);
      rounds.add((await measureServer(ctx, { name: 'floor', script: 'bench/servers/pg-floor.ts', env: floorEnv }, request, { body })).measurement);
      const prepared = { name: 'floor-prepared', script: 'bench/servers/pg-floor.ts', env: { ...floorEnv, BENCH_FLOOR_PREPARED: '1' } };
      rounds.add((await measureServer(ctx, prepared, request, { body })).measurement);
      for (const dir of ctx.settings.compareDirs) {
        const other = {
          name: `stack@${path.basename(dir)}`,
          cwd: dir,
          script: 'bench/servers/stack.ts',
          env: { BENCH_SERVICE_ENV: JSON.stringify(serviceEnv) },
          logToFile: true, // to its own file, like the stack: logging is part of the cost
        };
        rounds.add((await measureServer(ctx, other, request, { body })).measurement);
      }
      if (ctx.settings.diagnostics) {
        const sqlz = { name: 'floor-sequelize', script: 'bench/servers/pg-floor.ts', env: { ...floorEnv, BENCH_FLOOR_DRIVER: 'sequelize' } };
        rounds.add((await measureServer(ctx, sqlz, request, { body })).measurement);
        const silent = { name: 'stack-silent', script: 'bench/servers/stack.ts', env: { BENCH_SERVICE_ENV: JSON.stringify({ ...serviceEnv, LOG_LEVEL: 'silent' }) } };
        rounds.add((await measureServer(ctx, silent, request, { body })).measurement);
      }
    }

    const ratios: RatioSpec[] = [
      { numerator: 'stack', denominator: 'ceiling' },
      { numerator: 'stack', denominator: 'floor', target: 0.7 },
      { numerator: 'stack', denominator: 'floor-prepared', target: 0.7 },
    ];
    for (const dir of ctx.settings.compareDirs) {
      ratios.push({ numerator: `stack@${path.basename(dir)}`, denominator: 'floor', target: 0.7 }, { numerator: `stack@${path.basename(dir)}`, denominator: 'stack' });
    }
    if (ctx.settings.diagnostics) {
      ratios.push(
        { numerator: 'floor-sequelize', denominator: 'floor' },
        { numerator: 'stack', denominator: 'stack-silent' },
        { numerator: 'stack-silent', denominator: 'floor' },
      );
    }
    return {
      measurements: rounds.medians(),
      ratios,
      notes: [
        '',
        `body ${Buffer.byteLength(body ?? '')} bytes, identical on every server (every response checked); pool size ${poolMax}; service LOG_LEVEL=${ctx.settings.serviceLogLevel}`,
        `stack wrote ${log.lines} log lines (${(log.bytes / 1e6).toFixed(1)} MB) to its stdout file in round 1, for ${stackServed} requests served`,
        'CPU us/req: CPU time (user+system, all threads) during the measured run / responses; pg = postmaster and its backends',
        ...rounds.notes(),
      ],
    };
  },
};
