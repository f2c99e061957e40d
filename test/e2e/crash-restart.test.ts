import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { listProcesses, processInfo } from '../../src/embedded/process-table';
import { ensureTemporalCli } from '../../src/temporal/binaries';
import { campaignWorkflowId, statusQuery } from '../../workflows/campaign/contract';
import { request, surfaceA, surfaceB } from '../support/api';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { TestSmtpSink } from '../support/smtp-sink';
import { isAlive, runCli, stackEnv, stopStack, type RunningStack, type StackEnv } from '../support/stack';

const ROOT = path.join(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const HOME = '<html><head><title>Northwind Analytics</title></head><body><h1>Northwind Analytics</h1></body></html>';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * `npm start`'s entry point in a process group of its own (so the test can kill the group with
 * SIGKILL as a terminal or a supervisor would), waiting for its "ready" banner.
 */
async function startInOwnGroup(s: StackEnv, timeoutMs = 120_000): Promise<RunningStack> {
  const started = Date.now();
  const child = spawn(TSX, ['src/entry/start.ts'], { cwd: ROOT, env: s.env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service not ready after ${timeoutMs} ms:\n${err}`)), timeoutMs);
    child.stderr?.on('data', () => {
      if (/Campaign Outreach is ready/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with code ${code} before it was ready:\n${err}`));
    });
  });
  return { child, stderr: () => err, readyMs: Date.now() - started };
}

interface LockFile {
  pid: number;
  startedAt?: string;
  children: { postgres: number; temporal: number };
}

const readLock = async (s: StackEnv): Promise<LockFile> => JSON.parse(await fs.readFile(path.join(s.dataDir, 'service.pid'), 'utf8')) as LockFile;

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/** Until none of the pids runs (a killed process its new parent has not reaped yet counts as gone). */
async function gone(pids: number[]): Promise<void> {
  await until(`pids ${pids.join(', ')} gone`, async () => ((await Promise.all(pids.map(processInfo))).some((p) => p !== undefined) ? undefined : true), 30_000);
}

/**
 * A plain `npm start` after a crash, on the real embedded stack (its own PostgreSQL and Temporal
 * dev server in a temporary DATA_DIR), with a campaign that has sent its first emails and waits
 * for its next step: the service comes up with no manual cleanup, and the campaign and its
 * workflow carry on (the workflow answers a query and takes a pause and a resume from the API).
 */
describe('npm start after a crash', function () {
  this.timeout(5 * 60_000); // the first run on a fresh machine builds the Temporal CLI
  let s: StackEnv;
  let stack: RunningStack | undefined;
  let sink: TestSmtpSink;
  let site: FakeSite;
  let foreign: ChildProcess | undefined;
  let apiKey = '';
  let campaignId = '';

  const api = (p: string, init: RequestInit = {}) => request<Record<string, unknown>>(`${s.baseUrl}${p}`, { ...init, headers: { ...surfaceA(apiKey), ...(init.headers as Record<string, string> | undefined) } });

  /** The campaign as GET shows it, its emails in the SMTP server, and its workflow's own status. */
  async function campaignAfterRestart(): Promise<void> {
    const got = await api(`/campaigns/${campaignId}`);
    expect(got.status, got.text).to.equal(200);
    expect(got.body).to.include({ id: campaignId, status: 'running' });
    const stats = await api(`/campaigns/${campaignId}/stats`);
    expect((stats.body.stats as Record<string, number>).emails_sent).to.equal(3);
    expect(sink.messages.filter((m) => m.to.some((a) => a.endsWith('@crash.example')))).to.have.length(3);

    const connection = await Connection.connect({ address: `127.0.0.1:${s.env.TEMPORAL_DEV_PORT}` });
    try {
      const handle = new Client({ connection }).workflow.getHandle(campaignWorkflowId(campaignId));
      expect((await handle.describe()).status.name).to.equal('RUNNING');
      // A query is answered by a worker replaying the workflow: the restarted one has picked it up.
      expect((await handle.query(statusQuery)).status).to.equal('running');
      const paused = await api(`/campaigns/${campaignId}/pause`, { method: 'POST' });
      expect(paused.status, paused.text).to.equal(200);
      await until('the workflow paused', async () => ((await handle.query(statusQuery)).status === 'paused' ? true : undefined), 30_000);
      const resumed = await api(`/campaigns/${campaignId}/resume`, { method: 'POST' });
      expect(resumed.status, resumed.text).to.equal(200);
      await until('the workflow running again', async () => ((await handle.query(statusQuery)).status === 'running' ? true : undefined), 30_000);
    } finally {
      await connection.close();
    }
  }

  /**
   * Until the workflow has no activity under way. An activity a crash cuts short is retried once
   * its timeout has passed, and the signals that came meanwhile wait for it; that recovery is not
   * what these tests are about, so they crash the service while the campaign waits for its next step.
   */
  async function workflowIdle(): Promise<void> {
    const connection = await Connection.connect({ address: `127.0.0.1:${s.env.TEMPORAL_DEV_PORT}` });
    try {
      const handle = new Client({ connection }).workflow.getHandle(campaignWorkflowId(campaignId));
      await until('no activity under way', async () => ((await handle.describe()).raw.pendingActivities?.length ? undefined : true), 60_000);
    } finally {
      await connection.close();
    }
  }

  before(async () => {
    await ensureTemporalCli();
    [sink, site] = await Promise.all([TestSmtpSink.start(), startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }))]);
    s = await stackEnv();
    Object.assign(s.env, { SMTP_URL: sink.url, ALLOW_LOOPBACK_EGRESS: 'true' });
    stack = await startInOwnGroup(s);
    const out = await runCli(s, ['accounts', 'create', '--name', 'Crash Ltd', '--plan', 'pro']);
    expect(out.code, out.stderr).to.equal(0);
    apiKey = (JSON.parse(out.stdout) as { api_key: string }).api_key;
    const rows = [0, 1, 2].map((i) => `lead${i}@crash.example,Ada${i},Lovelace,Head of Finance,Company ${i}`);
    const imported = await request(`${s.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(apiKey), 'content-type': 'text/csv' }, body: ['email,first_name,last_name,title,company', ...rows].join('\n') });
    expect(imported.status, imported.text).to.equal(200);
    const created = await api('/campaigns', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mcp: 'sales_outreach', target_url: site.origin, target_audience: 'Finance leaders', schedule: { trial_days: 14, send_window: { start: '00:00', end: '24:00' } } }),
    });
    expect(created.status, created.text).to.equal(201);
    campaignId = created.body.id as string;
    await until('3 emails in the SMTP server', async () => (sink.messages.length >= 3 ? true : undefined));
    await until('running', async () => ((await api(`/campaigns/${campaignId}`)).body.status === 'running' ? true : undefined));
  });
  after(async () => {
    if (stack) await stopStack(stack).catch(() => stack?.child.kill('SIGKILL'));
    foreign?.kill('SIGKILL');
    await sink?.close();
    await site?.close();
    if (s) await fs.rm(s.dataDir, { recursive: true, force: true });
  });

  it('kill -9 of the service, its PostgreSQL and its Temporal dev server at once (a container killed); the pid files name another program by then', async () => {
    await workflowIdle();
    const lock = await readLock(s);
    const groups = [(stack as RunningStack).child.pid as number, lock.children.postgres, lock.children.temporal];
    // The three process groups (the service, PostgreSQL with its backends, the dev server) in one go.
    for (const pgid of groups) process.kill(-pgid, 'SIGKILL');
    await exited((stack as RunningStack).child);
    stack = undefined;
    await gone(groups);

    // After a restart the old pids belong to whatever started first: here, an unrelated program.
    foreign = spawn('sleep', ['300'], { stdio: 'ignore', detached: true });
    const other = foreign.pid as number;
    const pidFile = path.join(s.dataDir, 'postgres', 'postmaster.pid');
    const lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
    await fs.writeFile(pidFile, [String(other), ...lines.slice(1)].join('\n'));
    await fs.writeFile(path.join(s.dataDir, 'service.pid'), JSON.stringify({ ...lock, pid: other, children: { postgres: other, temporal: other } }));

    stack = await startInOwnGroup(s);
    expect(isAlive(other), 'the unrelated program is left alone').to.equal(true);
    const relocked = await readLock(s);
    expect(relocked.pid).to.not.equal(other);
    await campaignAfterRestart();
  });

  it('kill -9 of the service alone, its PostgreSQL and dev server left running, service.pid torn', async () => {
    stack ??= await startInOwnGroup(s);
    await workflowIdle();
    const lock = await readLock(s);
    const orphans = [lock.children.postgres, lock.children.temporal];
    process.kill(-((stack as RunningStack).child.pid as number), 'SIGKILL');
    await exited((stack as RunningStack).child);
    stack = undefined;
    expect(orphans.filter(isAlive), 'PostgreSQL and the dev server outlive the service').to.deep.equal(orphans);
    // A write cut short: the file names no process any more, the servers are found all the same.
    const text = JSON.stringify(lock);
    await fs.writeFile(path.join(s.dataDir, 'service.pid'), text.slice(0, text.length / 2));

    stack = await startInOwnGroup(s);
    await gone(orphans);
    const relocked = await readLock(s);
    expect(Object.values(relocked.children)).to.have.length(2);
    expect(Object.values(relocked.children).filter((pid) => orphans.includes(pid))).to.deep.equal([]);
    await campaignAfterRestart();
  });

  it('kill -9 during the very first start, while initdb creates the database cluster', async () => {
    const fresh = await stackEnv();
    const child = spawn(TSX, ['src/entry/start.ts'], { cwd: ROOT, env: fresh.env, stdio: 'ignore', detached: true });
    let second: RunningStack | undefined;
    try {
      await until(
        'initdb under way',
        async () => {
          if (child.exitCode !== null) throw new Error('the service exited');
          const initdb = (await listProcesses()).find((p) => path.basename(p.args[0] ?? '') === 'initdb' && p.args.some((a) => a.startsWith(`--pgdata=${fresh.dataDir}`)));
          return initdb === undefined ? undefined : true;
        },
        60_000,
      );
      process.kill(-(child.pid as number), 'SIGKILL'); // initdb runs in the service's group: it dies too
      await exited(child);
      const left = await fs.readdir(fresh.dataDir);
      expect(left, 'no half-made cluster where the real one goes').to.not.include('postgres');

      second = await startInOwnGroup(fresh);
      expect((await request(`${fresh.baseUrl}/readyz`)).status).to.equal(200);
      const now = await fs.readdir(fresh.dataDir);
      expect(now.filter((n) => n.startsWith('postgres')).sort(), 'the cluster and its password, nothing left over').to.deep.equal(['postgres', 'postgres.password']);
      const out = await runCli(fresh, ['accounts', 'create', '--name', 'After initdb', '--plan', 'free']);
      expect(out.code, out.stderr).to.equal(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), 'SIGKILL');
      if (second) await stopStack(second);
      await fs.rm(fresh.dataDir, { recursive: true, force: true });
    }
  });
});
