import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSequelize } from '../../src/db/sequelize';
import { createLogger } from '../../src/log/logger';
import { serviceSecret } from '../../src/config/service-secret-repository';
import { TrackingLinks } from '../../src/tracking/links';
import { TrackingRecorder } from '../../src/tracking/recorder';
import { trackingJournalDir } from '../../src/tracking/tracking';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createSentEmail, eventsOf, outboxOf } from './fixtures/emails';
import { TcpProxy } from './fixtures/tcp-proxy';

const log = createLogger('silent', 'test');
const ROOT = path.join(__dirname, '..', '..');

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function journalLines(dir: string): Promise<number> {
  let n = 0;
  for (const f of await fs.readdir(dir)) n += (await fs.readFile(path.join(dir, f), 'utf8')).split('\n').filter((l) => l !== '').length;
  return n;
}

describe('tracking recorder: the journal keeps every hit until PostgreSQL has it', () => {
  let db: TestDatabase;
  let dir: string;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-journal-test-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('hits answered by a process that is then killed are written by the next recorder, from its journal', async function () {
    this.timeout(120_000);
    const email = await createSentEmail(db.sequelize);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures', 'tracking-api-child.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: db.url, TRACKING_JOURNAL_DIR: dir },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let base: string;
    try {
      const [msg] = (await Promise.race([once(child, 'message'), once(child, 'exit').then(() => Promise.reject(new Error('child exited early')))])) as [{ url: string }];
      base = msg.url;
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
    // The same deployment secret the child signs with (it lives in the database).
    const links = new TrackingLinks(await serviceSecret(db.sequelize, 'tracking', undefined), base);
    const before = Date.now();
    const pixel = await fetch(links.openPixelUrl(email.emailId));
    const click = await fetch(links.clickUrl(email.emailId, 0, 'https://example.com/a'), { redirect: 'manual' });
    const after = Date.now();
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(pixel.status).to.equal(200);
    expect(click.status).to.equal(302);

    // Nothing reached PostgreSQL; both hits are in the dead process's journal.
    expect(await eventsOf(db.sequelize, email.emailId)).to.deep.equal([]);
    const left = await fs.readdir(dir);
    expect(left).to.have.length(1);
    expect(await journalLines(dir)).to.equal(2);

    const recorder = new TrackingRecorder({ sequelize: db.sequelize, log, dir });
    await recorder.start();
    const events = await eventsOf(db.sequelize, email.emailId);
    expect(events.map((e) => e.type).sort()).to.deep.equal(['clicked', 'opened']);
    const open = events.find((e) => e.type === 'opened');
    expect(open?.data).to.deep.equal({}); // the pixel came first: a real open, not one implied by the click
    for (const e of events) expect(e.occurred_at.getTime()).to.be.within(before, after);
    expect((await outboxOf(db.sequelize, email.emailId)).map((o) => o.event).sort()).to.deep.equal(['email.clicked', 'email.opened']);
    expect(await fs.readdir(dir)).to.deep.equal([]);
    await recorder.close();

    // The same journal replayed again (a crash between commit and delete), with later times: nothing changes.
    const host = (left[0] ?? '').split('_')[0];
    const later = Date.now() + 60_000;
    await fs.writeFile(
      path.join(dir, `${host}_${process.pid}_deadbeef_1.ndjson`),
      `{"k":"o","e":"${email.emailId}","t":${later}}\n{"k":"c","e":"${email.emailId}","n":0,"u":"https://example.com/a","t":${later}}\n{"k":"o","e":"em_tor`,
    );
    const again = new TrackingRecorder({ sequelize: db.sequelize, log, dir });
    await again.start();
    expect(await eventsOf(db.sequelize, email.emailId)).to.deep.equal(events);
    expect(await outboxOf(db.sequelize, email.emailId)).to.have.length(2);
    expect(await fs.readdir(dir)).to.deep.equal([]);
    await again.close();
  });

  it('while PostgreSQL is unreachable, hits stay journaled (memory bounded) and are delivered once it is back', async function () {
    this.timeout(60_000);
    const pg = new URL(db.url);
    const proxy = new TcpProxy(pg.hostname, Number(pg.port));
    await proxy.start();
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    const sequelize = createSequelize({ url: viaProxy.href, poolMax: 2 });
    const recorder = new TrackingRecorder({
      sequelize,
      log,
      dir,
      flushIntervalMs: 20,
      maxInMemory: 2,
      retry: { initialMs: 50, maxMs: 200 },
      closeTimeoutMs: 300,
    });
    try {
      await recorder.start();
      const first = await createSentEmail(db.sequelize);
      recorder.recordOpen(first.emailId);
      expect(await recorder.flush()).to.equal(true); // the pool now holds a connection the outage will reset
      expect(await eventsOf(db.sequelize, first.emailId)).to.have.length(1);

      await proxy.stop();
      const emails = await Promise.all([1, 2, 3, 4, 5].map(() => createSentEmail(db.sequelize)));
      emails.forEach((e, i) => recorder.recordClick(e.emailId, i, `https://example.com/${i}`));
      expect(recorder.stats()).to.deep.include({ pending: 5 });
      expect(recorder.stats().inMemory).to.be.at.most(2);
      expect(await recorder.flush()).to.equal(false);
      expect(await journalLines(dir)).to.equal(5);
      for (const e of emails) expect(await eventsOf(db.sequelize, e.emailId)).to.deep.equal([]);

      // Back up: the recorder's own retry loop delivers everything, and the journal empties.
      await proxy.start();
      await until('all clicks delivered', async () => {
        const counts = await Promise.all(emails.map(async (e) => (await eventsOf(db.sequelize, e.emailId)).length));
        return counts.every((c) => c === 2) ? true : undefined;
      });
      await until('journal emptied', async () => ((await fs.readdir(dir)).length === 0 ? true : undefined));
      expect(recorder.stats()).to.deep.equal({ recorded: 6, pending: 0, inMemory: 0, segments: 0 });

      // Shut down while PostgreSQL is gone: the hit stays in the journal for the next start.
      await proxy.stop();
      const last = await createSentEmail(db.sequelize);
      recorder.recordOpen(last.emailId);
      await recorder.close();
      expect(await journalLines(dir)).to.equal(1);
      const next = new TrackingRecorder({ sequelize: db.sequelize, log, dir });
      await next.start();
      expect((await eventsOf(db.sequelize, last.emailId)).map((e) => e.type)).to.deep.equal(['opened']);
      await next.close();
    } finally {
      await recorder.close();
      await proxy.stop();
      await sequelize.close();
    }
  });

  it('when the journal cannot be written, hits still reach PostgreSQL while the process lives', async () => {
    const recorder = new TrackingRecorder({ sequelize: db.sequelize, log, dir, flushIntervalMs: 3_600_000 });
    try {
      await recorder.start();
      await fs.rm(dir, { recursive: true, force: true }); // the next segment cannot be created
      const email = await createSentEmail(db.sequelize);
      recorder.recordOpen(email.emailId);
      recorder.recordOpen(email.emailId);
      expect(recorder.stats()).to.deep.include({ recorded: 1, pending: 1, inMemory: 1 });
      expect(await recorder.flush()).to.equal(true);
      expect((await eventsOf(db.sequelize, email.emailId)).map((e) => e.type)).to.deep.equal(['opened']);
    } finally {
      await recorder.close();
    }
  });

  it('the journal lives in DATA_DIR, or under the temporary directory when DATA_DIR cannot be written', async () => {
    expect(trackingJournalDir(testConfig({ DATA_DIR: dir }), log)).to.equal(path.join(dir, 'tracking-journal'));
    const notADir = path.join(dir, 'file');
    await fs.writeFile(notADir, '');
    const fallback = trackingJournalDir(testConfig({ DATA_DIR: notADir }), log);
    expect(fallback.startsWith(path.join(os.tmpdir(), 'outreach-tracking-journal') + path.sep)).to.equal(true);
    // Scoped by deployment: another database gets another directory.
    expect(trackingJournalDir(testConfig({ DATA_DIR: notADir, DATABASE_URL: 'postgres://u@127.0.0.1:5/other' }), log)).not.to.equal(fallback);
  });
});
