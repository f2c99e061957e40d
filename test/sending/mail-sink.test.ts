import { expect } from 'chai';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { simpleParser } from 'mailparser';
import { startMailSink, type RunningMailSink } from '../../src/mail-sink/mail-sink';

/** A pino logger whose lines land in an array. */
function capturingLogger(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n')) if (l.trim() !== '') lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('local mail sink', () => {
  let dir: string;
  let sink: RunningMailSink | undefined;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mail-sink-'));
  });

  afterEach(async () => {
    await sink?.close();
    sink = undefined;
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('accepts any sender and recipient, keeps the newest messages as .eml files and logs one line each', async () => {
    const { log, lines } = capturingLogger();
    sink = await startMailSink({ port: 0, dir: path.join(dir, 'mail-sink'), keep: 3, log });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sink.port, secure: false });
    try {
      for (let i = 1; i <= 5; i++) {
        const info = await transport.sendMail({ from: `a${i}@anywhere.example`, to: [`b${i}@elsewhere.example`, 'c@elsewhere.example'], subject: `Message ${i}`, text: `body ${i}` });
        expect(info.accepted).to.deep.equal([`b${i}@elsewhere.example`, 'c@elsewhere.example']);
      }
    } finally {
      transport.close();
    }
    const files = (await fs.readdir(path.join(dir, 'mail-sink'))).sort();
    expect(files).to.have.length(3);
    const subjects = await Promise.all(files.map(async (f) => (await simpleParser(await fs.readFile(path.join(dir, 'mail-sink', f)))).subject));
    expect(subjects).to.deep.equal(['Message 3', 'Message 4', 'Message 5']);

    const accepted = lines.filter((l) => l.msg === 'mail sink accepted a message');
    expect(accepted).to.have.length(5);
    expect(accepted[4]).to.include({ from: 'a5@anywhere.example' });
    expect(accepted[4]?.to).to.deep.equal(['b5@elsewhere.example', 'c@elsewhere.example']);
    expect(accepted[4]?.messageId).to.match(/^<.+@.+>$/);
  });

  it('counts files left by an earlier run towards its bound', async () => {
    const store = path.join(dir, 'mail-sink');
    await fs.mkdir(store);
    for (const name of ['20200101T000000000Z-1-000001.eml', '20200101T000000000Z-1-000002.eml']) await fs.writeFile(path.join(store, name), 'Subject: old\r\n\r\nold\r\n');
    sink = await startMailSink({ port: 0, dir: store, keep: 2, log: capturingLogger().log });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sink.port, secure: false });
    try {
      await transport.sendMail({ from: 'a@x.example', to: 'b@y.example', subject: 'new', text: 'new' });
    } finally {
      transport.close();
    }
    const files = (await fs.readdir(store)).sort();
    expect(files).to.have.length(2);
    expect(files[0]).to.equal('20200101T000000000Z-1-000002.eml');
  });

  it('refuses a busy port with a message that names the setting', async () => {
    sink = await startMailSink({ port: 0, dir: null, log: capturingLogger().log });
    let error: Error | undefined;
    await startMailSink({ port: sink.port, dir: null, log: capturingLogger().log }).then(
      (s) => s.close(),
      (err: Error) => (error = err),
    );
    expect(error?.message).to.contain(`SMTP_SINK_PORT ${sink.port} is already in use`);
  });
});
