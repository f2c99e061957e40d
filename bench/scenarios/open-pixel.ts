import autocannon from 'autocannon';
import fs from 'node:fs';
import path from 'node:path';
import { QueryTypes, type Sequelize } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { newId } from '../../src/accounts/ids';
import { Campaign } from '../../src/db/models';
import { PIXEL_HEADERS, TRANSPARENT_GIF } from '../../src/tracking/pixel';
import { TrackingLinks } from '../../src/tracking/links';
import type { RecorderStats } from '../../src/tracking/recorder';
import type { ServerSpec } from '../lib/child-server';
import type { BenchContext } from '../lib/context';
import { processCpuMs, processTreeCpuMs, selfCpuMs } from '../lib/cpu-usage';
import { assertClean, toMeasurement, type LoadOptions, type Measurement } from '../lib/load';
import { Rounds } from '../lib/measure-server';
import type { RatioSpec, Scenario } from '../lib/scenario';
import { intFromEnv } from '../lib/settings';

/**
 * The workload, from the environment (read here: only this scenario has them):
 *   BENCH_PIXEL_EMAILS  sent emails with valid pixel tokens (default 60,000: enough that a 2 s + 10 s
 *                       run at ~10,000 req/s does not wrap around to pixels already taken)
 *   BENCH_PIXEL_LOADS   loads of each pixel (default 2: half the requests are first opens, which are
 *                       journaled and written to PostgreSQL, half are repeats; 1 = every request a first open)
 */
const EMAILS = intFromEnv('BENCH_PIXEL_EMAILS', 60_000, 100, 1_000_000);
const LOADS = intFromEnv('BENCH_PIXEL_LOADS', 2, 1, 100);
/** Emails whose loads are interleaved: a repeat comes about this many requests after the first load. */
const BLOCK = 1000;
const SECRET = 'bench-tracking-secret';

/** Each email's pixel LOADS times, block by block: [block 1 x LOADS, block 2 x LOADS, ...]. */
function loadSequence(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < paths.length; i += BLOCK) {
    const block = paths.slice(i, i + BLOCK);
    for (let k = 0; k < LOADS; k++) out.push(...block);
  }
  return out;
}

/**
 * Inserts one account, one campaign and EMAILS leads with one sent email each, in three statements.
 * Returns the email ids.
 */
async function createSentEmails(sequelize: Sequelize): Promise<string[]> {
  const { account } = await new AccountService(sequelize).createAccount('Pixel Bench Co', 'pro');
  const campaign = await Campaign.create({ id: newId('cmp'), accountId: account.id, createdVia: 'a', name: 'Pixel bench', mcp: 'sales_outreach', targetUrl: 'https://example.com' });
  const tag = newId('em').slice(3, 11);
  await sequelize.query(
    `INSERT INTO leads (id, account_id, email, source) SELECT 'lead_' || $2 || g, $1, 'p' || g || '-' || lower($2) || '@example.com', 'import' FROM generate_series(1, $3::int) g`,
    { bind: [account.id, tag, EMAILS] },
  );
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status, sent_at)
     SELECT 'em_' || $3 || g, $1, $2, 'lead_' || $3 || g, 0, 'sender@example.org', 'p' || g || '-' || lower($3) || '@example.com', 'Hello',
            '<' || $3 || g || '@example.org>', 'sent', now()
     FROM generate_series(1, $4::int) g RETURNING id`,
    { bind: [account.id, campaign.id, tag, EMAILS], type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.id);
}

/**
 * autocannon with each request taking the next path of the list (one cursor shared by all
 * connections), every body checked against the GIF. bench/lib/load.ts fires a single URL.
 */
async function runRotating(label: string, baseUrl: string, next: () => string, opts: LoadOptions): Promise<Measurement> {
  const expected = TRANSPARENT_GIF.toString(); // autocannon compares the body as it decoded it
  const result = await autocannon({
    url: baseUrl,
    connections: opts.connections,
    pipelining: opts.pipelining,
    duration: opts.durationS,
    timeout: 10,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: next() }) }],
    verifyBody: (body) => body === expected,
  });
  return toMeasurement(label, result);
}

/**
 * Starts a server, checks one pixel answer (status, type, bytes), warms up, measures with the CPU
 * probes around the measured run, and stops the server whatever happens. Returns how many pixel
 * requests were issued in all (the cursor), for the recording check.
 */
async function measurePixel(
  ctx: BenchContext,
  spec: Omit<ServerSpec, 'stdoutFile' | 'cpuProfileDir'> & { readonly logToFile?: boolean },
  paths: readonly string[],
): Promise<{ measurement: Measurement; issued: number }> {
  const server = await ctx.startServer(spec);
  try {
    let cursor = 0;
    const next = (): string => paths[cursor++ % paths.length] as string;
    const probe = await fetch(`${server.url}${next()}`);
    const bytes = Buffer.from(await probe.arrayBuffer());
    if (probe.status !== 200 || probe.headers.get('content-type') !== PIXEL_HEADERS['Content-Type'] || !bytes.equals(TRANSPARENT_GIF)) {
      throw new Error(`${spec.name}: the pixel answered ${probe.status} ${probe.headers.get('content-type')} with ${bytes.length} bytes, not the GIF`);
    }
    const { durationS, warmupS, connections, pipelining } = ctx.settings;
    if (warmupS > 0) assertClean(await runRotating(`${spec.name} (warm-up)`, server.url, next, { durationS: warmupS, connections, pipelining }));
    const pgPid = await ctx.postgresPid();
    const probes = { server: () => processCpuMs(server.pid), postgres: () => (pgPid === undefined ? undefined : processTreeCpuMs(pgPid)), loadgen: selfCpuMs };
    const before = Object.fromEntries(Object.entries(probes).map(([k, read]) => [k, read()]));
    const m = await runRotating(spec.name, server.url, next, { durationS, connections, pipelining });
    assertClean(m);
    const cpu: Record<string, number> = {};
    for (const [k, read] of Object.entries(probes)) {
      const a = before[k];
      const b = read();
      if (a !== undefined && b !== undefined && m.total > 0) cpu[k] = ((b - a) * 1000) / m.total;
    }
    return { measurement: { ...m, cpuUsPerRequest: cpu }, issued: cursor };
  } finally {
    await server.stop();
  }
}

/**
 * After the stack has stopped (its shutdown drains the recorder): every open it took is in
 * PostgreSQL with its outbox event, the journal is empty, and no more opens were recorded than
 * distinct pixels were requested, nor fewer than were certainly answered.
 */
async function checkRecorded(sequelize: Sequelize, stats: RecorderStats & { journalDir: string }, issued: number, inFlight: number): Promise<string> {
  const [row] = await sequelize.query<{ opened: number; events: number }>(
    `SELECT (SELECT count(*)::int FROM email_events WHERE type = 'opened') AS opened, (SELECT count(*)::int FROM outbox WHERE event = 'email.opened') AS events`,
    { type: QueryTypes.SELECT },
  );
  const opened = row?.opened ?? 0;
  // Requests cycle through the sequence; the first `issued` of it name this many distinct emails.
  const distinct = Math.min(EMAILS, Math.floor(issued / (LOADS * BLOCK)) * BLOCK + Math.min(BLOCK, issued % (LOADS * BLOCK)));
  const problems: string[] = [];
  if (opened !== stats.recorded) problems.push(`the stack took ${stats.recorded} opens but PostgreSQL has ${opened}`);
  if (row?.events !== opened) problems.push(`${opened} opens but ${row?.events} email.opened outbox events`);
  if (stats.pending !== 0) problems.push(`${stats.pending} hits still pending at shutdown`);
  const left = fs.existsSync(stats.journalDir) ? fs.readdirSync(stats.journalDir) : [];
  if (left.length > 0) problems.push(`journal not empty after shutdown: ${left.join(', ')}`);
  if (opened > distinct || opened < distinct - 2 * inFlight) problems.push(`${opened} opens recorded for ${distinct} distinct pixels requested`);
  if (problems.length > 0) throw new Error(`open-pixel: recording check failed: ${problems.join('; ')}`);
  return (
    `stack took ${stats.recorded} first opens in ${issued} requests (${((100 * stats.recorded) / issued).toFixed(0)}%; ${distinct} distinct pixels requested); ` +
    'all in PostgreSQL with their outbox events; journal empty'
  );
}

/**
 * GET /t/o/<emailId>.<sig>.gif under load: the real API role (valid tokens of EMAILS real sent
 * emails, so opens are really journaled and flushed to PostgreSQL) against bare node:http answering
 * the same GIF. Each email's pixel is loaded LOADS times (a first open, then repeats the recorder
 * skips), so the share of first opens stays the same for the whole run, however fast the server.
 *
 *   stack    the real API role (src/runtime/api-role.ts), LOG_LEVEL as BENCH_LOG_LEVEL, pino to a file
 *   ceiling  bare node:http answering the GIF with the same headers
 * With BENCH_DIAG=1:
 *   koa      Koa + @koa/router with one route answering the GIF: what the framework alone costs (the
 *            service answers pixels before Koa, see src/api/resources/tracking/open-pixel.ts)
 */
export const openPixelScenario: Scenario = {
  name: 'open-pixel',
  description: 'GET /t/o/<token>.gif: real stack (opens journaled, flushed to PostgreSQL) vs bare node:http answering the same GIF',
  async run(ctx) {
    const db = await ctx.database();
    const emailIds = await createSentEmails(db.sequelize);
    const links = new TrackingLinks(SECRET, '');
    const paths = loadSequence(emailIds.map((id) => links.openPixelUrl(id)));
    const serviceEnv: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(ctx.tmpDir, 'pixel-data'),
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      LOG_LEVEL: ctx.settings.serviceLogLevel,
      TRACKING_SECRET: SECRET,
    };
    const statsFile = path.join(ctx.tmpDir, 'pixel-stats.json');
    // Requests prepared at the end of the warm-up and the measured run that were never answered.
    const inFlight = ctx.settings.connections * (ctx.settings.pipelining + 1);
    const rounds = new Rounds();
    const checks: string[] = [];
    for (let round = 0; round < ctx.settings.rounds; round++) {
      // Each round starts with no opens recorded, so each one measures the same first-open share.
      await db.sequelize.query(`DELETE FROM email_events; DELETE FROM outbox`);
      const stack = await measurePixel(
        ctx,
        { name: 'stack', script: 'bench/servers/stack.ts', env: { BENCH_SERVICE_ENV: JSON.stringify(serviceEnv), BENCH_PIXEL_STATS: statsFile }, logToFile: true },
        paths,
      );
      rounds.add(stack.measurement);
      const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8')) as RecorderStats & { journalDir: string };
      checks.push(`round ${round + 1}: ${await checkRecorded(db.sequelize, stats, stack.issued, inFlight)}`);
      rounds.add((await measurePixel(ctx, { name: 'ceiling', script: 'bench/servers/pixel-ceiling.ts' }, paths)).measurement);
      if (ctx.settings.diagnostics) rounds.add((await measurePixel(ctx, { name: 'koa', script: 'bench/servers/pixel-koa.ts' }, paths)).measurement);
    }
    const ratios: RatioSpec[] = [{ numerator: 'stack', denominator: 'ceiling', target: 0.5 }];
    if (ctx.settings.diagnostics) ratios.push({ numerator: 'koa', denominator: 'ceiling' }, { numerator: 'stack', denominator: 'koa' });
    return {
      measurements: rounds.medians(),
      ratios,
      notes: [
        '',
        `${EMAILS} sent emails, each pixel loaded ${LOADS}x (blocks of ${BLOCK}); each request takes the next token (one cursor for all connections); ` +
          'every response checked to be the 43-byte GIF',
        ...checks,
        'CPU us/req: CPU time (user+system, all threads) during the measured run / responses; pg = postmaster and its backends',
        ...rounds.notes(),
      ],
    };
  },
};
