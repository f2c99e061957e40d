/**
 * `npm run chaos`: faults injected into the real stack while campaigns send, and the figures of
 * what became of every email and webhook event (docs/testing.md, "Chaos run").
 *
 * Several campaigns (each its own Pro account and leads, every lead due its first email now) send
 * through a deliberately slow SMTP relay this script runs (SMTP_URL), which counts every message it
 * commits by its Message-ID. Meanwhile, each striking while an SMTP transaction is in flight:
 *   1. kill -9 of the whole service run by `npm start` (Node, PostgreSQL, the Temporal dev server),
 *      then a plain `npm start` on the same DATA_DIR;
 *   2. kill -9 of the whole service again, then the same DATA_DIR run as separate processes (the
 *      embedded PostgreSQL, the dev server, `src/entry/worker.ts`, `src/entry/api.ts`);
 *   3. kill -9 of the worker process five times, each followed by a new worker;
 *   4. PostgreSQL restarted; 5. the Temporal dev server restarted.
 * Then the webhook receiver is down for CHAOS_WEBHOOK_DOWN_HOURS simulated hours (see
 * chaos/lib/webhook-outage.ts for how time is simulated). Printed: emails expected, received
 * (distinct Message-IDs), received copies, recorded as sent, lost, duplicated (and how many of
 * those were flagged possible_duplicate), unrecorded, webhook events lost, and the seconds from
 * each restart to the next email. Exit code 0 when every goal is met, 1 when one is missed, 2 when
 * the run itself could not be completed.
 *
 * Options (environment):
 *   CHAOS_CAMPAIGNS           campaigns (default 4, 1-10)
 *   CHAOS_LEADS               leads per campaign, each due one email now (default 30, the most a
 *                             template takes in a day)
 *   CHAOS_SMTP_DELAY_MS       time the relay spends on each message (default 250; each message
 *                             draws 0.5x to 1.5x, half before the data, half after its end); one
 *                             message at a time
 *   CHAOS_SEED                seeds the relay's delays and where each fault strikes (default 1)
 *   CHAOS_MAX_MINUTES         the whole run's deadline (default 15); faults that no longer fit
 *                             are reported as not run
 *   CHAOS_WEBHOOK_DOWN_HOURS  simulated outage of the webhook receiver (default 48)
 *   CHAOS_KEEP=1              keep DATA_DIR (PostgreSQL cluster, dev server database) afterwards;
 *                             it is also kept when a goal is missed. Logs are always kept.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { initModels } from '../src/db/models';
import { createSequelize } from '../src/db/sequelize';
import { pages, startFakeSite, type FakeSite } from '../test/support/fake-site';
import { seedCampaigns, type ChaosCampaign } from './lib/campaigns';
import { runFault, type FaultSpec } from './lib/faults';
import { emailFigures, emailRows, formatEmailFigures, formatFaults, formatGoals, goalChecks, type FaultFigure } from './lib/figures';
import { chaosOptions, seededRandom, type ChaosOptions } from './lib/options';
import { waitForSendingToSettle, webhookEventsDelivered, type DeliveredFigures } from './lib/settle';
import { SlowSmtpServer, type SmtpStage } from './lib/slow-smtp';
import { ChaosStack } from './lib/stack';
import { formatOutage, simulateWebhookOutage, type OutageFigures } from './lib/webhook-outage';
import { ChaosWebhookReceiver } from './lib/webhook-receiver';

const HOME = '<html><head><title>Chaos Analytics</title><meta name="description" content="Dashboards that stay up"></head><body><h1>Chaos Analytics</h1></body></html>';
/** How long a fault waits for a transaction to strike in, and the longest wait for sending to come back. */
const STRIKE_WAIT_MS = 20_000;
const RESUME_WAIT_MS = 90_000;
/** Time kept back from the faults for the rest: the drain, the webhook outage and the report. */
const RESERVE_MS = 4 * 60_000;
/** A fault is started only with at least this long left before the reserve. */
const FAULT_MIN_MS = 60_000;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/** Polls `probe` every 200 ms; false when `timeoutMs` ran out first. */
async function waitFor(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

interface Resources {
  stack?: ChaosStack;
  smtp?: SlowSmtpServer;
  receiver?: ChaosWebhookReceiver;
  site?: FakeSite;
  sequelize?: Sequelize;
}

async function closeAll(r: Resources): Promise<void> {
  await r.stack?.stop().catch(() => r.stack?.killEverythingNow());
  await r.sequelize?.close().catch(() => undefined);
  await Promise.allSettled([r.smtp?.close(), r.receiver?.close(), r.site?.close()]);
}

/** The faults in order, where each strikes drawn from the seed (each stage at least twice among the worker kills). */
function faultPlan(stack: ChaosStack, random: () => number): FaultSpec[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const stages: SmtpStage[] = ['rcpt', 'data-end'];
  const workerStages: SmtpStage[] = ['rcpt', 'data-end', 'rcpt', 'data-end', pick(stages)];
  for (let i = workerStages.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [workerStages[i], workerStages[j]] = [workerStages[j] as SmtpStage, workerStages[i] as SmtpStage];
  }
  const skip = (): number => Math.floor(random() * 3);
  return [
    { name: 'kill -9 of the whole service, npm start', stage: pick(stages), skip: skip(), strike: () => stack.crashService(), restart: () => stack.startService() },
    { name: 'kill -9 of the whole service, as processes', stage: pick(stages), skip: skip(), strike: () => stack.crashService(), restart: () => stack.startRoles() },
    ...workerStages.map((stage, i): FaultSpec => ({ name: `kill -9 of the worker (${i + 1}/5)`, stage, skip: skip(), strike: () => stack.killWorker(), restart: () => stack.startWorker() })),
    { name: 'PostgreSQL restarted', stage: 'rcpt', skip: skip(), strike: () => stack.stopPostgres(), restart: () => stack.startPostgres() },
    { name: 'Temporal dev server restarted', stage: 'rcpt', skip: skip(), strike: () => stack.stopTemporal(), restart: () => stack.startTemporal() },
  ];
}

async function run(opts: ChaosOptions, runDir: string, r: Resources): Promise<number> {
  const started = Date.now();
  const deadline = started + opts.maxMinutes * 60_000;
  const since = (): string => `[+${((Date.now() - started) / 1000).toFixed(0)} s]`;
  const notes: string[] = [];
  const note = (line: string): void => {
    notes.push(`${since()} ${line}`);
    out(`${since()} note: ${line}`);
  };
  const random = seededRandom(opts.seed);
  r.smtp = await SlowSmtpServer.start(opts.smtpDelayMs, seededRandom(opts.seed ^ 0x5eed));
  r.receiver = await ChaosWebhookReceiver.start();
  r.site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
  const smtp = r.smtp;
  const receiver = r.receiver;
  const stack = await ChaosStack.create({
    dataDir: path.join(runDir, 'data'),
    logsDir: path.join(runDir, 'logs'),
    // SMTP_URL is the operator's relay, used as configured; loopback egress lets the worker scrape the
    // local target site and post to the local receiver (dev and tests only).
    env: { SMTP_URL: smtp.url, ALLOW_LOOPBACK_EGRESS: 'true' },
    note,
  });
  r.stack = stack;

  out(`${since()} npm start on a fresh DATA_DIR`);
  await stack.startService();
  r.sequelize = createSequelize({ url: await stack.databaseUrl(), poolMax: 4 });
  initModels(r.sequelize);
  const sequelize = r.sequelize;
  const campaigns: ChaosCampaign[] = await seedCampaigns({
    sequelize,
    baseUrl: stack.baseUrl,
    campaigns: opts.campaigns,
    leads: opts.leads,
    siteOrigin: r.site.origin,
    webhookUrl: (i) => receiver.url(`/hooks/c${i}`),
  });
  const expected = new Set(campaigns.flatMap((c) => c.leads.map((l) => l.toLowerCase())));
  out(`${since()} ${campaigns.length} campaigns (${campaigns.map((c) => c.template).join(', ')}), ${expected.size} emails due now`);
  const first = await smtp.acceptedSince(0, 180_000);
  if (first === null) throw new Error('no email reached the SMTP server within 180 s of the campaigns being created');
  const received = (): Set<string> => new Set(smtp.accepted.flatMap((m) => m.to.map((t) => t.toLowerCase())));
  // Faults strike once every campaign is in its sending day's batch, not while one is still preparing.
  const sendingAll = async (): Promise<boolean> => {
    const got = received();
    return campaigns.every((c) => c.leads.some((l) => got.has(l.toLowerCase())));
  };
  const allSending = await waitFor(sendingAll, 120_000);
  out(`${since()} ${allSending ? 'every campaign is sending' : 'not every campaign sent within 120 s'}; faults begin`);

  const faults: FaultFigure[] = [];
  for (const spec of faultPlan(stack, random)) {
    const left = deadline - RESERVE_MS - Date.now();
    if (left < FAULT_MIN_MS) {
      faults.push({ name: spec.name, atSeconds: (Date.now() - first.acceptedAt) / 1000, struck: 'not run: out of time', resumeSeconds: null, waitedSeconds: 0, notRun: true });
      out(`${since()} ${spec.name}: not run, CHAOS_MAX_MINUTES reached`);
      continue;
    }
    const f = await runFault(
      { smtp, firstEmailAt: first.acceptedAt, strikeWaitMs: STRIKE_WAIT_MS, resumeWaitMs: Math.min(RESUME_WAIT_MS, left), sendingLeft: () => [...expected].some((a) => !received().has(a)) },
      spec,
    );
    faults.push(f);
    const resume = f.resumeSeconds === null ? `no email within ${f.waitedSeconds.toFixed(0)} s` : `next email ${f.resumeSeconds.toFixed(1)} s after the restart began`;
    const took = f.strikeSeconds === undefined || f.strikeSeconds < 0.5 ? '' : ` (the ${spec.name.startsWith('kill') ? 'kill' : 'stop'} took ${f.strikeSeconds.toFixed(1)} s)`;
    out(`${since()} ${f.name}: struck ${f.struck}${took}; ${resume}${f.note === undefined ? '' : ` (${f.note})`}`);
  }

  const settleMs = Math.max(30_000, deadline - Date.now() - 3 * 60_000);
  out(`${since()} waiting for the sending to settle (up to ${(settleMs / 1000).toFixed(0)} s)`);
  const settled = await waitForSendingToSettle(sequelize, campaigns, smtp, settleMs);
  if (!settled) note('the sending had not settled by the deadline: emails not sent by then count as lost');

  const outageStart = new Date();
  const during: DeliveredFigures = await webhookEventsDelivered(sequelize, campaigns, receiver, outageStart, 90_000);
  out(`${since()} webhook receiver down for ${opts.webhookDownHours} simulated hours`);
  const outage: OutageFigures = await simulateWebhookOutage({
    sequelize,
    receiver,
    campaigns,
    baseUrl: stack.baseUrl,
    temporalAddress: stack.temporalAddress,
    downHours: opts.webhookDownHours,
    log: (line) => out(`${since()} ${line}`),
  });

  const e = emailFigures(campaigns, smtp.accepted, await emailRows(sequelize, campaigns.map((c) => c.campaignId)));
  const goals = goalChecks(e, faults);
  const met = goals.every((g) => g.met);
  const minutes = (Date.now() - started) / 60_000;

  const kinds = Object.entries(during.kinds).map(([k, v]) => `${v} ${k}`).join(', ');
  const undelivered = Object.entries(during.undelivered).map(([k, v]) => `${v} ${k}`).join(', ');
  out();
  out(`Chaos run: ${opts.campaigns} campaigns x ${opts.leads} leads, SMTP ${opts.smtpDelayMs} ms/message, seed ${opts.seed} (${minutes.toFixed(1)} min)`);
  out();
  out('Emails (counted at the SMTP server by Message-ID; recorded = emails.status in PostgreSQL)');
  for (const line of formatEmailFigures(e)) out(line);
  out();
  out('Restarts (at: seconds after the first email; next email: from the start of the restart to the first email');
  out('accepted whose SMTP transaction began after it)');
  for (const line of formatFaults(faults)) out(line);
  out();
  out('Webhook events');
  out(`  receiver up during the faults: ${during.events} events (${kinds || 'none'})`);
  out(`    delivered                                  ${during.delivered}`);
  out(`    webhook events lost                        ${during.events - during.delivered}${undelivered === '' ? '' : ` (not delivered by the end: ${undelivered})`}`);
  for (const line of formatOutage(outage)) out(line);
  out('  simulated time: each delivery\'s retry workflow was moved, with its input, from the dev server to a');
  out('  Temporal time-skipping server that ran the service\'s own activities against the same database and');
  out('  receiver, which answered 503 until the simulated clock passed the outage; only the clock is simulated');
  out('  (chaos/lib/webhook-outage.ts).');
  out();
  out('Goals');
  for (const line of formatGoals(goals)) out(line);
  if (notes.length > 0) {
    out();
    out('Notes');
    for (const line of notes) out(`  ${line}`);
  }
  out();

  await closeAll(r);
  const dataDir = path.join(runDir, 'data');
  if (met && !opts.keep) await fs.rm(dataDir, { recursive: true, force: true });
  out(`Logs: ${path.join(runDir, 'logs')}${met && !opts.keep ? '' : `; DATA_DIR kept: ${dataDir}`}`);
  out(met ? 'chaos: every goal met' : `chaos: goal(s) missed: ${goals.filter((g) => !g.met).map((g) => g.goal).join('; ')}`);
  return met ? 0 : 1;
}

async function main(): Promise<void> {
  let opts: ChaosOptions;
  try {
    opts = chaosOptions();
  } catch (err) {
    process.stderr.write(`chaos: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const runDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-chaos-'));
  // The embedded cluster may run as the `postgres` user: it must reach DATA_DIR inside.
  await fs.chmod(runDir, 0o755);
  const r: Resources = {};
  // Whatever happens to this script, nothing it started outlives it.
  process.once('exit', () => r.stack?.killEverythingNow());
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      process.stderr.write(`chaos: ${sig}, stopping everything (logs: ${path.join(runDir, 'logs')})\n`);
      r.stack?.killEverythingNow();
      process.exit(130);
    });
  }
  // The run's deadline, with room for a slow teardown: nothing waits forever.
  const watchdog = setTimeout(() => {
    process.stderr.write(`chaos: still running ${opts.maxMinutes + 5} minutes after the start; stopped (logs: ${path.join(runDir, 'logs')})\n`);
    r.stack?.killEverythingNow();
    process.exit(2);
  }, (opts.maxMinutes + 5) * 60_000);
  watchdog.unref();
  try {
    const code = await run(opts, runDir, r);
    process.exit(code);
  } catch (err) {
    process.stderr.write(`chaos: the run could not be completed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.stderr.write(`chaos: logs and DATA_DIR kept in ${runDir}\n`);
    await closeAll(r).catch(() => undefined);
    process.exit(2);
  }
}

void main();
