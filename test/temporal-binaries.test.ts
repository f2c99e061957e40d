import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ensureTemporalCli, ensureTestServer, TEMPORAL_CLI_VERSION } from '../src/temporal/binaries';
import { ensureBinary, type BinarySource } from '../src/temporal/binaries/ensure-binary';
import { withLock } from '../src/temporal/binaries/lock';
import { extractTarGzEntry } from '../src/temporal/binaries/tar';

const silent = (): void => undefined;

async function writeExecutable(file: string, body = '#!/bin/sh\nexit 0\n'): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, body, { mode: 0o755 });
}

/** Runs `fn` with some env vars replaced, restoring them afterwards. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) Reflect.deleteProperty(process.env, k);
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

describe('temporal binaries', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-binaries-test-'));
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('TEMPORAL_CLI_PATH wins over the cache and is returned as an absolute path', async () => {
    const override = path.join(dir, 'my-temporal');
    await writeExecutable(override);
    await writeExecutable(path.join(dir, 'cache', `cli-${TEMPORAL_CLI_VERSION}`, 'temporal'));
    const result = await withEnv({ TEMPORAL_CLI_PATH: path.relative(process.cwd(), override) }, () =>
      ensureTemporalCli({ cacheDir: path.join(dir, 'cache'), onProgress: silent }),
    );
    expect(result).to.equal(override);
  });

  it('rejects an override that is not executable, naming the variable', async () => {
    const override = path.join(dir, 'not-executable');
    await fs.writeFile(override, 'x', { mode: 0o644 });
    const err = await withEnv({ TEMPORAL_TEST_SERVER_PATH: override }, () =>
      ensureTestServer({ cacheDir: dir, onProgress: silent }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.contain('TEMPORAL_TEST_SERVER_PATH');
  });

  it('returns a cached binary at once, without progress output or network', async () => {
    const cached = path.join(dir, `cli-${TEMPORAL_CLI_VERSION}`, 'temporal');
    await writeExecutable(cached);
    const lines: string[] = [];
    const started = process.hrtime.bigint();
    const result = await withEnv({ TEMPORAL_CLI_PATH: undefined }, () =>
      ensureTemporalCli({ cacheDir: dir, onProgress: (l) => lines.push(l) }),
    );
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    expect(result).to.equal(cached);
    expect(statSync(result).mode & 0o111).to.not.equal(0);
    expect(lines).to.deep.equal([]);
    expect(elapsedMs).to.be.below(100);
  });

  it('serialises concurrent callers: the binary is produced once and both get it', async () => {
    let produced = 0;
    let running = 0;
    let maxRunning = 0;
    const source: BinarySource = {
      label: 'fake',
      dir: 'fake-1',
      file: 'bin/fake',
      async produce(staging) {
        produced++;
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, 200));
        await writeExecutable(path.join(staging, 'bin', 'fake'));
        running--;
      },
    };
    const spec = { what: 'fake binary', envVar: 'FAKE_BINARY_PATH_UNSET', lockName: 'fake', sources: [source], remedy: '' };
    const [a, b] = await Promise.all([
      ensureBinary(spec, { cacheDir: dir, onProgress: silent }),
      ensureBinary(spec, { cacheDir: dir, onProgress: silent }),
    ]);
    expect(produced).to.equal(1);
    expect(maxRunning).to.equal(1);
    expect(a).to.equal(path.join(dir, 'fake-1', 'bin', 'fake'));
    expect(b).to.equal(a);
    // Nothing but the published entry is left behind (no staging dir, no lock).
    expect(await fs.readdir(dir)).to.deep.equal(['fake-1']);
  });

  it('breaks a lock whose owner process is gone', async () => {
    const lockDir = path.join(dir, 'x.lock');
    await fs.mkdir(lockDir);
    const deadPid = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
    await fs.writeFile(
      path.join(lockDir, 'owner.json'),
      JSON.stringify({ pid: deadPid, host: os.hostname(), token: 'old', since: new Date().toISOString() }),
    );
    const result = await withLock(lockDir, () => Promise.resolve('acquired'), { what: 'testing', pollMs: 10 });
    expect(result).to.equal('acquired');
    await fs.access(lockDir).then(
      () => expect.fail('lock should have been released'),
      () => undefined,
    );
  });

  it('says what to install when neither download nor build is possible', async () => {
    const err = await withEnv(
      { PATH: dir, JAVA_HOME: undefined, TEMPORAL_TEST_SERVER_PATH: undefined, OUTREACH_TEMPORAL_NO_DOWNLOAD: '1' },
      () =>
        ensureTestServer({ cacheDir: dir, onProgress: silent }).then(
          () => undefined,
          (e: unknown) => e,
        ),
    );
    expect(err).to.be.instanceOf(Error);
    const message = (err as Error).message;
    expect(message).to.contain('Java is not installed');
    expect(message).to.match(/JDK >= 11/);
    expect(message).to.contain('Maven');
    expect(message).to.contain('TEMPORAL_TEST_SERVER_PATH');
  });

  it('extracts one executable from a .tar.gz as published on temporal.download', async function () {
    const src = path.join(dir, 'src');
    await writeExecutable(path.join(src, 'temporal'), '#!/bin/sh\necho hello\n');
    await fs.writeFile(path.join(src, 'LICENSE'), 'license text');
    const archive = path.join(dir, 'a.tar.gz');
    try {
      execFileSync('tar', ['-czf', archive, '-C', src, 'LICENSE', 'temporal']);
    } catch {
      this.skip(); // no tar executable to build the fixture with
    }
    const dest = path.join(dir, 'out');
    expect(await extractTarGzEntry(archive, 'temporal', dest)).to.equal(true);
    expect(readFileSync(dest, 'utf8')).to.equal('#!/bin/sh\necho hello\n');
    expect(statSync(dest).mode & 0o111).to.not.equal(0);
    expect(await extractTarGzEntry(archive, 'missing', path.join(dir, 'none'))).to.equal(false);
  });
});
