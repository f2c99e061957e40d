import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import { createLogger } from '../../src/log/logger';
import { startMailSink, type RunningMailSink } from '../../src/mail-sink/mail-sink';

const ROOT = path.join(__dirname, '..', '..');
const SINK_PROCESS = path.join(__dirname, 'support', 'mail-sink-process.ts');

/** The sink in its own node process (no wrapper in between, so signals reach it), and its port. */
async function spawnSink(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SINK_PROCESS, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /port (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`mail sink exited with ${code}: ${out}`)));
  });
  return { child, port };
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

const notEml = (names: string[]): string[] => names.filter((n) => !n.endsWith('.eml'));

/** A few MB of text, so that writing it to disk takes long enough to be caught in the middle. */
function bigBody(n: number): string {
  const line = `message ${n} `.padEnd(75, '.') + '\n';
  return line.repeat(60_000) + `end of message ${n}\n`;
}

describe('local mail sink, killed while writing a message', function () {
  this.timeout(120_000);
  let dir: string;
  let sink: RunningMailSink | undefined;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mail-sink-crash-'));
  });
  afterEach(async () => {
    await sink?.close();
    sink = undefined;
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('leaves no empty or partial .eml; the next start removes what the killed write left', async () => {
    // Kill -9 the sink at the moment a message is on its way to disk: when its directory shows a
    // file that is not a complete message, stop the sink (SIGSTOP) and kill it if the file is still
    // incomplete. A write can finish between the look and the stop; then the sink goes on.
    const complete = new Set<string>();
    const incomplete = async (): Promise<string[]> => {
      const found: string[] = [];
      for (const name of await fs.readdir(dir)) {
        if (complete.has(name)) continue;
        if (name.endsWith('.eml') && /end of message \d+/.test((await fs.readFile(path.join(dir, name), 'latin1')).slice(-100))) complete.add(name);
        else found.push(name);
      }
      return found;
    };
    let stopped = false;
    let sent = 0;
    for (let attempt = 1; attempt <= 20 && !stopped; attempt++) {
      const { child, port } = await spawnSink(dir);
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false });
      const sending = (async () => {
        for (let i = 0; i < 30 && child.exitCode === null && child.signalCode === null; i++) {
          const n = ++sent;
          await transport.sendMail({ from: 'a@x.example', to: 'b@y.example', subject: `Message ${n}`, text: bigBody(n) }).catch(() => undefined);
        }
      })();
      for (let look = 0; look < 20_000 && !stopped && child.exitCode === null; look++) {
        if ((await incomplete()).length === 0) continue;
        child.kill('SIGSTOP');
        if ((await incomplete()).length > 0) {
          child.kill('SIGKILL');
          stopped = true;
        } else child.kill('SIGCONT');
      }
      if (!stopped) child.kill('SIGKILL');
      await exited(child);
      transport.close();
      await sending;
    }
    expect(stopped, 'the sink was caught in the middle of a write').to.equal(true);

    const before = await fs.readdir(dir);
    const emls = before.filter((n) => n.endsWith('.eml')).sort();
    for (const name of emls) {
      const raw = await fs.readFile(path.join(dir, name));
      expect(raw.length, `${name} is empty`).to.be.greaterThan(0);
      const parsed = await simpleParser(raw);
      const n = /^Message (\d+)$/.exec(parsed.subject ?? '')?.[1];
      expect(n, `${name} has its subject`).to.be.a('string');
      expect(parsed.text, `${name} is complete`).to.match(new RegExp(`end of message ${n}\\n?$`));
    }
    expect(notEml(before), 'the killed write left its temporary file').to.have.length.greaterThan(0);

    sink = await startMailSink({ port: 0, dir, log: createLogger('silent', 'test') });
    const after = await fs.readdir(dir);
    expect(notEml(after)).to.deep.equal([]);
    expect(after.sort()).to.deep.equal(emls);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sink.port, secure: false });
    try {
      await transport.sendMail({ from: 'a@x.example', to: 'b@y.example', subject: 'after the crash', text: 'hello again' });
    } finally {
      transport.close();
    }
    const last = (await fs.readdir(dir)).filter((n) => !emls.includes(n));
    expect(last).to.have.length(1);
    expect((await simpleParser(await fs.readFile(path.join(dir, last[0] as string)))).subject).to.equal('after the crash');
  });
});
