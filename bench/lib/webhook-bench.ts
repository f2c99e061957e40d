import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { QueryTypes } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { newId } from '../../src/accounts/ids';
import { setWebhookUrl, signingSecrets, webhookSettings } from '../../src/webhooks/webhook-settings-repository';
import type { SigningSecrets } from '../../src/webhooks/signing';
import { normalizeWebhookUrl } from '../../src/webhooks/webhook-url';
import { startCampaignStack, temporalParentDirFromEnv, type CampaignStack } from './campaign-stack';
import type { RunningServer } from './child-server';
import type { BenchContext } from './context';
import { machineBusyMs, processCpuMs, processTreeCpuMs, selfCpuMs } from './cpu-usage';
import { waitUntil } from './wait-until';

/** What bench/servers/webhook-receiver.ts reports. */
export interface ReceiverStats {
  readonly distinct: number;
  readonly requests: number;
  readonly unverified: number;
  readonly firstAt: number | null;
  readonly lastNewAt: number | null;
  readonly lastError: string | null;
}

/** The bench's handle on the receiver child. */
export class ReceiverClient {
  constructor(readonly server: RunningServer) {}

  /** Where webhooks go (what the account's global URL is set to). */
  get hookUrl(): string {
    return normalizeWebhookUrl(`${this.server.url}/hooks`);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.server.url}/_bench/${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`webhook receiver: ${method} /_bench/${path} answered ${res.status}`);
    return (await res.json()) as T;
  }

  stats(): Promise<ReceiverStats> {
    return this.call('GET', 'stats');
  }

  /** First arrival (epoch ms, the receiver's Date.now()) of every event id since the last reset. */
  async arrivals(): Promise<Map<string, number>> {
    return new Map(Object.entries(await this.call<Record<string, number>>('GET', 'arrivals')));
  }

  async reset(): Promise<void> {
    await this.call('POST', 'reset');
  }

  /** From now on every webhook is verified with these secrets (counted as unverified when it fails). */
  async verifyWith(secrets: readonly string[]): Promise<void> {
    await this.call('POST', 'secrets', secrets);
  }

  /** Waits (bounded) until `count` distinct events have arrived since the last reset; fails on any unverified one. */
  async waitForDistinct(count: number, timeoutMs: number, what: string): Promise<ReceiverStats> {
    let last: ReceiverStats | undefined;
    const stats = await waitUntil(
      async () => {
        last = await this.stats();
        if (last.unverified > 0) throw new Error(`${what}: ${last.unverified} webhooks did not verify (last: ${last.lastError})`);
        return last.distinct >= count ? last : undefined;
      },
      { what, timeoutMs, intervalMs: 50 },
      () => (last === undefined ? '' : `${last.distinct} of ${count} distinct events arrived, ${last.requests} requests`),
    );
    return stats;
  }
}

/**
 * CPU ms of PostgreSQL: the postmaster, its live backends, and the backends that have exited
 * (their time lands in the postmaster's cutime/cstime once reaped). processTreeCpuMs alone drops
 * a backend's time when a pool closes an idle connection between two readings.
 */
export function postgresCpuMs(postmasterPid: number): number | undefined {
  const live = processTreeCpuMs(postmasterPid);
  if (live === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${postmasterPid}/stat`, 'utf8');
    // Fields after the command name: state(3) ... utime(14) stime(15) cutime(16) cstime(17).
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const reapedTicks = Number(rest[13]) + Number(rest[14]);
    return Number.isFinite(reapedTicks) ? live + (reapedTicks * 1000) / clockTicks() : live;
  } catch {
    return live;
  }
}

let ticks: number | undefined;
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** CPU ms of every process taking part, and of the whole machine, read at one instant. */
export interface CpuSnapshot {
  readonly worker: number | undefined;
  readonly postgres: number | undefined;
  readonly temporal: number | undefined;
  readonly receiver: number | undefined;
  readonly bench: number;
  readonly machine: number | undefined;
}

export type CpuName = keyof CpuSnapshot;
/** The processes of the scenario (everything but `machine`). */
export const PROCESSES = ['worker', 'postgres', 'temporal', 'receiver', 'bench'] as const satisfies readonly CpuName[];

/**
 * The webhook scenarios' world: the campaign stack (PostgreSQL, Temporal dev server, the worker
 * role with its webhook dispatcher; no API), the receiver in its own process, and one account
 * whose global webhook URL is the receiver, with a campaign its events belong to.
 */
export interface WebhookBench {
  readonly stack: CampaignStack;
  readonly receiver: ReceiverClient;
  readonly accountId: string;
  readonly campaignId: string;
  /** The account's signing secrets, as the dispatcher signs with them. */
  readonly secrets: SigningSecrets;
  cpu(): CpuSnapshot;
  stop(): Promise<void>;
}

export async function startWebhookBench(ctx: BenchContext): Promise<WebhookBench> {
  const receiverServer = await ctx.startServer({ name: 'webhook-receiver', script: 'bench/servers/webhook-receiver.ts' });
  let stack: CampaignStack | undefined;
  try {
    stack = await startCampaignStack(ctx, { api: false, temporalParentDir: temporalParentDirFromEnv() });
    const receiver = new ReceiverClient(receiverServer);
    const sequelize = stack.db.sequelize;
    const { account } = await new AccountService(sequelize).createAccount('Webhook Bench Co', 'pro');
    await setWebhookUrl(sequelize, account.id, receiver.hookUrl);
    const settings = await webhookSettings(sequelize, account.id);
    const campaignId = newId('cmp');
    await sequelize.query(`INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url) VALUES ($1, $2, 'a', 'Webhook bench', 'sales_outreach', 'https://acme.example')`, {
      bind: [campaignId, account.id],
    });
    const secrets = signingSecrets(settings, new Date());
    await receiver.verifyWith([secrets.current]);
    const pgPid = await ctx.postgresPid();
    const s = stack;
    return {
      stack: s,
      receiver,
      accountId: account.id,
      campaignId,
      secrets,
      cpu: () => ({
        worker: processCpuMs(s.worker.pid),
        postgres: pgPid === undefined ? undefined : postgresCpuMs(pgPid),
        temporal: processTreeCpuMs(s.temporalLauncherPid),
        receiver: processCpuMs(receiverServer.pid),
        bench: selfCpuMs(),
        machine: machineBusyMs(),
      }),
      stop: async () => {
        await s.stop();
        await receiverServer.stop();
      },
    };
  } catch (err) {
    await stack?.stop();
    await receiverServer.stop();
    throw err;
  }
}

/** CPU ms each process used between two snapshots. */
export function cpuUsed(before: CpuSnapshot, after: CpuSnapshot): Record<CpuName, number | undefined> {
  const d = (k: CpuName): number | undefined => {
    const a = before[k];
    const b = after[k];
    return a === undefined || b === undefined ? undefined : b - a;
  };
  return { worker: d('worker'), postgres: d('postgres'), temporal: d('temporal'), receiver: d('receiver'), bench: d('bench'), machine: d('machine') };
}

/**
 * "worker 12.3 s (61% of a core), postgres ...; machine 1.9 of 2 cores busy, 1.5 of them these
 * processes": CPU seconds and share of one core over `wallMs`, then what the whole machine did.
 */
export function describeCpu(used: Record<CpuName, number | undefined>, wallMs: number): string {
  const each = PROCESSES.map((name) => {
    const ms = used[name];
    return ms === undefined ? `${name} -` : `${name} ${(ms / 1000).toFixed(1)} s (${((ms / wallMs) * 100).toFixed(0)}% of a core)`;
  });
  const ours = PROCESSES.reduce<number>((sum, name) => sum + (used[name] ?? 0), 0);
  const machine = used.machine === undefined ? '' : `; machine ${(used.machine / wallMs).toFixed(2)} of ${os.cpus().length} cores busy, ${(ours / wallMs).toFixed(2)} of them these processes`;
  return each.join(', ') + machine;
}

/** The full form of reply.received, as src/replies/reply-effects.ts writes it; `n` makes each one distinct. */
export function replyData(n: number): Record<string, unknown> {
  return {
    reply_id: `rep_${randomBytes(8).toString('hex')}`,
    email: `lead${n}@prospect.example`,
    name: 'Ada Lovelace',
    company: 'Analytical Engines',
    title: 'CTO',
    sentiment: 'positive',
    preview: 'Thanks for reaching out. Tuesday at 10 works for a short call; could you send an invite?',
    received_at: new Date().toISOString(),
  };
}

/** An outbox event the bench wrote, with the instant its transaction's COMMIT returned (Date.now()). */
export interface CommittedEvent {
  readonly id: string;
  readonly committedAt: number;
}

/**
 * Writes `count` reply.received events to the outbox in transactions of `batch` events (one
 * multi-row INSERT each, so the insert is not what the scenario measures; the outbox trigger
 * notifies once per statement). Returns the events in order with their commit instants.
 */
export async function insertOutboxEvents(bench: WebhookBench, count: number, batch: number): Promise<CommittedEvent[]> {
  const sequelize = bench.stack.db.sequelize;
  const out: CommittedEvent[] = [];
  for (let start = 0; start < count; start += batch) {
    const n = Math.min(batch, count - start);
    const ids = Array.from({ length: n }, () => newId('evt'));
    const data = Array.from({ length: n }, (_v, i) => JSON.stringify(replyData(start + i)));
    await sequelize.transaction(async (tx) => {
      await sequelize.query(
        `INSERT INTO outbox (id, account_id, campaign_id, event, data)
         SELECT id, $2, $3, 'reply.received', d::jsonb FROM unnest($1::text[], $4::text[]) AS x(id, d)`,
        { bind: [ids, bench.accountId, bench.campaignId, data], transaction: tx },
      );
    });
    const committedAt = Date.now();
    for (const id of ids) out.push({ id, committedAt });
  }
  return out;
}

/** Deliveries of the account by status (every one must end `delivered`). */
export async function deliveryStatuses(bench: WebhookBench): Promise<Record<string, number>> {
  const rows = await bench.stack.db.sequelize.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1 GROUP BY status`,
    { bind: [bench.accountId], type: QueryTypes.SELECT },
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Runs `one` for 0..count-1 with at most `concurrency` in flight. */
export async function forEachLimited(count: number, concurrency: number, one: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let i = next++; i < count; i = next++) await one(i);
    }),
  );
}

export { latencyRow } from './latency-row';

/** CPU microseconds per event of a process, from the ms it used over `events` events. */
export const usPerEvent = (ms: number | undefined, events: number): number | undefined => (ms === undefined ? undefined : (ms * 1000) / events);

/** PostgreSQL's own counter of committed transactions in the run's database. */
export async function dbCommits(bench: WebhookBench): Promise<number> {
  const [row] = await bench.stack.db.sequelize.query<{ commits: string }>(`SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()`, {
    type: QueryTypes.SELECT,
  });
  return Number(row?.commits ?? 0);
}
