import { expect } from 'chai';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ensureTemporalCli } from '../../src/temporal/binaries';
import { request, surfaceA, surfaceB } from '../support/api';
import { isAlive, runCli, startStack, stackEnv, stopStack, type RunningStack, type StackEnv } from '../support/stack';

/**
 * The real stack as `npm start` runs it: its own PostgreSQL and Temporal dev server as child
 * processes, the worker and the API; the operator CLI against the same embedded database.
 */
describe('the whole service, end to end', function () {
  this.timeout(20 * 60_000); // the first run on a fresh machine builds the Temporal CLI
  let s: StackEnv;
  let stack: RunningStack | undefined;

  before(async () => {
    await ensureTemporalCli();
    s = await stackEnv();
  });
  after(async () => {
    if (stack) await stopStack(stack).catch(() => stack?.child.kill('SIGKILL'));
    await fs.rm(s.dataDir, { recursive: true, force: true });
  });

  it('starts, prints its three addresses and reports ready', async () => {
    stack = await startStack(s);
    const banner = stack.stderr();
    expect(banner).to.match(new RegExp(`API: +http://localhost:${s.env.PORT}`));
    expect(banner).to.match(new RegExp(`Dashboard: +http://localhost:${s.env.PORT}/dashboard`));
    expect(banner).to.match(new RegExp(`Temporal Web UI: +http://localhost:${s.env.TEMPORAL_UI_PORT}`));
    expect((await request(`${s.baseUrl}/readyz`)).body).to.deep.equal({ status: 'ready', checks: { postgres: 'ok', temporal: 'ok' } });
    const ui = await fetch(`http://127.0.0.1:${s.env.TEMPORAL_UI_PORT}/`);
    expect(ui.status).to.equal(200);
  });

  it('a second copy runs beside it with its own PORT and DATA_DIR; one on the same DATA_DIR is refused', async () => {
    const fresh = await stackEnv();
    await fs.rm(fresh.dataDir, { recursive: true, force: true });
    const same = { ...fresh, dataDir: s.dataDir, env: { ...fresh.env, DATA_DIR: s.dataDir } };
    let refused = '';
    await startStack(same, 60_000).catch((err: Error) => (refused = err.message));
    expect(refused).to.match(/Another copy of the service \(pid \d+\) is running with DATA_DIR=/);

    const other = await stackEnv();
    const second = await startStack(other);
    try {
      for (const url of [s.baseUrl, other.baseUrl]) expect((await request(`${url}/readyz`)).status, url).to.equal(200);
    } finally {
      expect(await stopStack(second)).to.equal(0);
      await fs.rm(other.dataDir, { recursive: true, force: true });
    }
    expect((await request(`${s.baseUrl}/readyz`)).status).to.equal(200);
  });

  let accountId = '';
  let apiKey = '';

  it('the CLI creates an account and prints exactly one JSON object', async () => {
    const out = await runCli(s, ['accounts', 'create', '--name', 'E2E Ltd', '--plan', 'free']);
    expect(out.code, out.stderr).to.equal(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines).to.have.length(1);
    const parsed = JSON.parse(lines[0] as string) as { account_id: string; api_key: string };
    expect(Object.keys(parsed)).to.deep.equal(['account_id', 'api_key']);
    ({ account_id: accountId, api_key: apiKey } = parsed);
    expect(accountId).to.match(/^acc_/);
    expect(apiKey).to.match(/^ok_/);
  });

  it('the key works on both surfaces; a wrong key is 401 on both', async () => {
    const me = await request<{ organization: { id: string; name: string; plan: string; emailLimit: number } }>(`${s.baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
    expect(me.status).to.equal(200);
    expect(me.body.organization).to.include({ id: accountId, name: 'E2E Ltd', plan: 'free', emailLimit: 1000 });
    expect((await request(`${s.baseUrl}/campaigns`, { headers: surfaceA(apiKey) })).status).to.equal(200);
    const wrong = apiKey.slice(0, -4) + 'zzzz';
    for (const res of [
      await request(`${s.baseUrl}/v1/me`, { headers: surfaceB(wrong) }),
      await request(`${s.baseUrl}/campaigns`, { headers: surfaceA(wrong) }),
    ]) {
      expect(res.status).to.equal(401);
      expect(Object.keys(res.body)).to.deep.equal(['error']);
    }
  });

  it('the CLI issues, lists and revokes keys; a revoked key stops working at once', async () => {
    const created = JSON.parse((await runCli(s, ['keys', 'create', '--account', accountId])).stdout) as { key_id: string; api_key: string };
    expect((await request(`${s.baseUrl}/v1/me`, { headers: surfaceB(created.api_key) })).status).to.equal(200);
    const list = JSON.parse((await runCli(s, ['keys', 'list', '--account', accountId])).stdout) as Array<{ key_id: string; revoked_at: string | null }>;
    expect(list.map((k) => k.key_id)).to.include(created.key_id);
    expect(JSON.stringify(list)).not.to.include(created.api_key);
    const revoked = await runCli(s, ['keys', 'revoke', created.key_id]);
    expect(revoked.code).to.equal(0);
    expect((JSON.parse(revoked.stdout) as { revoked_at: string | null }).revoked_at).to.be.a('string');
    expect((await request(`${s.baseUrl}/v1/me`, { headers: surfaceB(created.api_key) })).status).to.equal(401);
    const bad = await runCli(s, ['keys', 'revoke', 'key_doesnotexist']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('No API key key_doesnotexist');
  });

  it('SIGTERM stops everything it started, and a restart keeps the data', async () => {
    const lock = JSON.parse(await fs.readFile(path.join(s.dataDir, 'service.pid'), 'utf8')) as { children: Record<string, number> };
    const children = Object.values(lock.children);
    expect(children).to.have.length(2); // PostgreSQL and the Temporal dev server
    expect(await stopStack(stack as RunningStack)).to.equal(0);
    expect(children.filter(isAlive)).to.deep.equal([]);

    stack = await startStack(s);
    const me = await request(`${s.baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
    expect(me.status).to.equal(200);
    // Later starts skip initdb and the binary build; printed for the closing note, not asserted.
    console.log(`      (restart ready in ${(stack.readyMs / 1000).toFixed(1)} s)`);
  });
});
