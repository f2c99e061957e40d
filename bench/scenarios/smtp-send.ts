import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { newId } from '../../src/accounts/ids';
import { loadConfig } from '../../src/config/config';
import { createSequelize } from '../../src/db/sequelize';
import { composeMessage, newMessageId } from '../../src/sending/compose';
import { EmailSender } from '../../src/sending/email-sender';
import { POOL_MAX_CONNECTIONS, SMTP_TIMEOUTS, smtpTransports } from '../../src/sending/transports';
import type { SendEmailInput } from '../../src/sending/types';
import { TrackingLinks } from '../../src/tracking/links';
import { processCpuMs, processTreeCpuMs, selfCpuMs } from '../lib/cpu-usage';
import type { Measurement } from '../lib/load';
import { Rounds } from '../lib/measure-server';
import type { Scenario } from '../lib/scenario';
import { intFromEnv } from '../lib/settings';

const SUBJECT = 'A faster way to qualify inbound leads';
const HTML = `<p>Hi Ada,</p>
<p>I noticed <b>Example Corp</b> is hiring three SDRs this quarter. Teams your size usually spend a third of
their week sorting inbound replies; we cut that to minutes with a classifier trained on your own pipeline.</p>
<p>Here is a <a href="https://product.example/case-studies/acme?utm_source=outreach">two-minute case study</a>
from a team like yours, and our <a href="https://product.example/pricing">pricing</a> is public.</p>
<p>Would a 15-minute call next week be useful? You can <a href="https://cal.example/sam/15min">pick a time here</a>.</p>
<p>Best,<br>Sam<br>Product Example &middot; 1 Market St, San Francisco</p>`;
const TEXT = `Hi Ada,

I noticed Example Corp is hiring three SDRs this quarter. Teams your size usually spend a third of their
week sorting inbound replies; we cut that to minutes with a classifier trained on your own pipeline.

Case study: https://product.example/case-studies/acme
Pricing: https://product.example/pricing
Pick a time: https://cal.example/sam/15min

Best,
Sam`;

/** Sends `count` items with `concurrency` in flight; returns each one's latency (ms) and the wall time. */
async function drive(count: number, concurrency: number, one: (i: number) => Promise<void>): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = new Array<number>(count);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t0 = process.hrtime.bigint();
        await one(i);
        latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      }
    }),
  );
  return { latencies, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface CpuProbe {
  readonly sink: () => number | undefined;
  readonly postgres: () => number | undefined;
}

/** Runs one measured batch and reduces it to the bench's row format (req/s here is emails/s). */
async function measure(label: string, count: number, concurrency: number, cpu: CpuProbe, one: (i: number) => Promise<void>): Promise<Measurement> {
  const before = { sink: cpu.sink(), pg: cpu.postgres(), self: selfCpuMs() };
  const { latencies, seconds } = await drive(count, concurrency, one);
  const after = { sink: cpu.sink(), pg: cpu.postgres(), self: selfCpuMs() };
  const per = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined || b === undefined ? undefined : ((b - a) * 1000) / count);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    label,
    requestsPerSec: count / seconds,
    latencyP50Ms: percentile(sorted, 50),
    latencyP99Ms: percentile(sorted, 99),
    latencyMaxMs: sorted[sorted.length - 1] ?? 0,
    total: count,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    statusCodes: {},
    // "server" is the SMTP sink's process; "loadgen" is this process, where both senders run.
    cpuUsPerRequest: { server: per(before.sink, after.sink), postgres: per(before.pg, after.pg), loadgen: per(before.self, after.self) },
  };
}

/**
 * Where PostgreSQL's write position is: the next transaction id (so the difference counts the
 * write transactions committed in between, read without taking an id) and the WAL position.
 */
async function writePosition(sequelize: Sequelize): Promise<{ xid: bigint; walBytes: bigint }> {
  const [row] = await sequelize.query<{ xid: string; wal: string }>(
    `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xid, (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS wal`,
    { type: QueryTypes.SELECT },
  );
  return { xid: BigInt(row?.xid ?? 0), walBytes: BigInt((row?.wal ?? '0').split('.')[0] ?? '0') };
}

async function newCampaign(sequelize: Sequelize, accountId: string): Promise<string> {
  const id = newId('cmp');
  await sequelize.query(`INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url) VALUES ($1, $2, 'b', 'Bench', 'sales', 'https://product.example')`, {
    bind: [id, accountId],
  });
  return id;
}

/**
 * Emails per second through EmailSender, as the campaign batch sends (real PostgreSQL: idempotency row,
 * suppression check, facts, cost and outbox in one transaction; the default transport; the local
 * sink in its own process) against pooled nodemailer alone sending the same composed messages to
 * the same sink with the same pool settings. The ratio is what the service's bookkeeping costs on
 * top of SMTP itself.
 *
 *   activity    new EmailSender(deps).send(input) for `count` distinct leads, `concurrency` in flight
 *   nodemailer  transporter.sendMail(message) for as many pre-composed equivalent messages
 *
 * Settings: BENCH_SMTP_MESSAGES (2000 per round), BENCH_SMTP_WARMUP (200), BENCH_SMTP_CONCURRENCY
 * (16), and BENCH_ROUNDS.
 */
export const smtpSendScenario: Scenario = {
  name: 'smtp-send',
  description: 'emails/s through EmailSender (PostgreSQL + pooled SMTP) vs pooled nodemailer alone, same local sink',
  async run(ctx) {
    const count = intFromEnv('BENCH_SMTP_MESSAGES', 2000, 10, 100_000);
    const warmup = intFromEnv('BENCH_SMTP_WARMUP', 200, 0, 10_000);
    const concurrency = intFromEnv('BENCH_SMTP_CONCURRENCY', 16, 1, 256);
    const db = await ctx.database();
    const sinkDir = path.join(ctx.tmpDir, 'mail-sink');
    const sink = await ctx.startServer({ name: 'smtp-sink', script: 'bench/servers/smtp-sink.ts', env: { BENCH_SINK_DIR: sinkDir }, logToFile: true });
    const sinkPort = Number(new URL(sink.url).port);
    const pgPid = await ctx.postgresPid();
    const cpu: CpuProbe = { sink: () => processCpuMs(sink.pid), postgres: () => (pgPid === undefined ? undefined : processTreeCpuMs(pgPid)) };

    const config = loadConfig({
      PORT: '0',
      DATABASE_URL: db.url,
      DATA_DIR: path.join(ctx.tmpDir, 'data'),
      SMTP_SINK_PORT: String(sinkPort),
      PUBLIC_BASE_URL: 'https://track.bench.example',
      TRACKING_SECRET: 'bench-tracking-secret',
      DEFAULT_FROM_EMAIL: 'sam@product.example',
      LOG_LEVEL: ctx.settings.serviceLogLevel,
    });
    // The worker's own pool (DATABASE_POOL_MAX), separate from the harness's small one.
    const sequelize = createSequelize({ url: db.url, poolMax: config.databasePoolMax });
    const logFile = path.join(ctx.tmpDir, 'activity.log');
    const log = pino({ level: config.logLevel, base: { role: 'worker' } }, pino.destination({ dest: logFile, sync: false, minLength: 4096 }));
    const sender = new EmailSender({ sequelize, config, log });
    const send = (input: SendEmailInput) => sender.send(input);
    const baseline = nodemailer.createTransport({ pool: true, maxConnections: POOL_MAX_CONNECTIONS, host: '127.0.0.1', port: sinkPort, secure: false, ...SMTP_TIMEOUTS });
    baseline.on('error', () => undefined);

    try {
      const { account } = await new AccountService(db.sequelize).createAccount('Bench Co', 'pro');
      const leadCount = Math.max(count, warmup);
      const leads = await db.sequelize.query<{ id: string }>(
        `INSERT INTO leads (id, account_id, email, first_name, last_name, source)
         SELECT 'lead_bench' || g, $1, 'lead' || g || '@prospect.example', 'Ada', 'Lovelace', 'api' FROM generate_series(1, $2::int) g
         RETURNING id`,
        { bind: [account.id, leadCount], type: QueryTypes.SELECT },
      );
      const leadIds = leads.map((l) => l.id);
      const input = (campaignId: string, i: number): SendEmailInput => ({
        accountId: account.id,
        campaignId,
        leadId: leadIds[i] as string,
        step: 0,
        content: { subject: SUBJECT, html: HTML, text: TEXT },
      });
      const activityBatch = async (n: number): Promise<{ campaignId: string; one: (i: number) => Promise<void> }> => {
        const campaignId = await newCampaign(db.sequelize, account.id);
        return {
          campaignId,
          one: async (i) => {
            const r = await send(input(campaignId, i % n));
            if (r.outcome !== 'sent') throw new Error(`activity: email ${i} came back ${r.outcome}`);
          },
        };
      };

      // The baseline sends what the activity sends: the same composed message (tracked links,
      // pixel, unsubscribe headers), composed before the clock starts.
      const links = new TrackingLinks('bench-tracking-secret', config.publicBaseUrl);
      const messages = Array.from({ length: leadCount }, (_v, i) => {
        const emailId = newId('em');
        return composeMessage(
          {
            emailId,
            messageId: newMessageId(emailId, 'sam@product.example'),
            from: { address: 'sam@product.example', name: null },
            to: { address: `lead${i + 1}@prospect.example`, name: 'Ada Lovelace' },
            subject: SUBJECT,
            html: HTML,
            text: TEXT,
            dkim: null,
            campaignId: 'cmp_bench',
          },
          links,
          config.publicBaseUrl,
        );
      });
      const baselineOne = async (i: number): Promise<void> => {
        const info = await baseline.sendMail(messages[i % messages.length]!);
        if (info.accepted.length !== 1) throw new Error(`nodemailer: message ${i} not accepted: ${info.response}`);
      };

      if (warmup > 0) {
        const w = await activityBatch(warmup);
        await drive(warmup, concurrency, w.one);
        await drive(warmup, concurrency, baselineOne);
      }
      const rounds = new Rounds();
      let sentRows = 0;
      // What the activity rows cost PostgreSQL in writes, per email and round (see writePosition).
      const writes: string[] = [];
      for (let round = 0; round < ctx.settings.rounds; round++) {
        const batch = await activityBatch(count);
        const before = await writePosition(db.sequelize);
        rounds.add(await measure('activity', count, concurrency, cpu, batch.one));
        const after = await writePosition(db.sequelize);
        writes.push(`${(Number(after.xid - before.xid) / count).toFixed(2)} transactions, ${(Number(after.walBytes - before.walBytes) / count / 1024).toFixed(1)} KB of WAL`);
        const rows = await db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM emails WHERE campaign_id = $1 AND status = 'sent'`, {
          bind: [batch.campaignId],
          type: QueryTypes.SELECT,
        });
        sentRows = Number(rows[0]?.n ?? 0);
        if (sentRows !== count) throw new Error(`activity: ${sentRows} emails recorded as sent, expected ${count}`);
        rounds.add(await measure('nodemailer', count, concurrency, cpu, baselineOne));
      }

      // Every message must have reached the sink: it logs one line per accepted message.
      await sink.stop();
      const expected = 2 * (warmup + count * ctx.settings.rounds);
      const sinkLog = path.join(ctx.tmpDir, 'smtp-sink.log');
      const accepted = fs.existsSync(sinkLog) ? fs.readFileSync(sinkLog, 'utf8').split('\n').filter((l) => l.includes('mail sink accepted a message')).length : 0;
      if (accepted !== expected) throw new Error(`the sink accepted ${accepted} messages, expected ${expected}`);

      return {
        measurements: rounds.medians(),
        ratios: [{ numerator: 'activity', denominator: 'nodemailer', target: 0.8 }],
        notes: [
          '',
          `req/s = emails/s; ${count} emails per round, ${concurrency} in flight, ${warmup} warm-up emails each; pool of ${POOL_MAX_CONNECTIONS} SMTP connections on both rows`,
          `server CPU = the mail sink process (writes every message as .eml); loadgen CPU = this process, where the activity and nodemailer run`,
          `checked: every activity call returned 'sent' (${sentRows} rows 'sent' in the last round), the sink logged all ${accepted} messages`,
          `PostgreSQL writes per email of the activity, per round: ${writes.join('; ')}`,
          ...rounds.notes(),
        ],
      };
    } finally {
      baseline.close();
      await smtpTransports.closeAll();
      log.flush();
      await sequelize.close();
      await sink.stop();
    }
  },
};
