import { expect } from 'chai';
import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createLogger } from '../../src/log/logger';
import { EmailSender, type SenderHooks } from '../../src/sending/email-sender';
import { SendInProgress } from '../../src/sending/send-failures';
import { smtpTransports } from '../../src/sending/transports';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TestSmtpSink } from '../support/smtp-sink';
import { count, input, newAccountWithCampaign, newLead } from './fixtures';

/**
 * Each send is tracked through its SMTP transaction, so a crash at any moment recovers without
 * losing the email and duplicates it only when the server may already have it (docs/reliability.md).
 */

const log = createLogger('silent', 'test');

interface Row {
  id: string;
  status: string;
  smtp_phase: string | null;
  possible_duplicate: boolean;
  message_id: string;
  attempts: number;
}

async function rowFor(db: TestDatabase, campaignId: string): Promise<Row> {
  const [row] = await db.sequelize.query<Row>(`SELECT id, status, smtp_phase, possible_duplicate, message_id, attempts FROM emails WHERE campaign_id = $1`, {
    bind: [campaignId],
    type: 'SELECT' as never,
  });
  if (row === undefined) throw new Error('no email row');
  return row;
}

function senderTo(db: TestDatabase, port: number, hooks?: SenderHooks): EmailSender {
  return new EmailSender({ sequelize: db.sequelize, config: testConfig({ SMTP_SINK_PORT: String(port), DEFAULT_FROM_EMAIL: 'outreach@sender.example' }), log }, hooks);
}

/** A real SMTP server (smtp-server) that, when the data's terminating dot arrives, reads the email's row before it answers 250. */
async function startInspectingServer(atDot: () => Promise<void>): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        atDot().then(
          () => callback(),
          (err: unknown) => callback(err as Error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A scripted SMTP peer that takes the whole message and then drops the connection instead of
 * answering the dot: the one moment after which the sender cannot know whether the server kept it.
 */
async function startDroppingServer(): Promise<{ port: number; dots: () => number; close: () => Promise<void> }> {
  let dots = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let inData = false;
    let buffered = '';
    socket.write('220 dropping.test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          if (!buffered.includes('\r\n.\r\n')) return;
          dots += 1;
          socket.destroy();
          return;
        }
        const end = buffered.indexOf('\r\n');
        if (end < 0) return;
        const line = buffered.slice(0, end).toUpperCase();
        buffered = buffered.slice(end + 2);
        if (line.startsWith('EHLO') || line.startsWith('HELO')) socket.write('250 dropping.test\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    dots: () => dots,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('SMTP transaction tracking (real PostgreSQL, real SMTP servers)', () => {
  let db: TestDatabase;
  let sink: TestSmtpSink;

  before(async () => {
    db = await createTestDatabase();
    sink = await TestSmtpSink.start();
  });

  after(async () => {
    await smtpTransports.closeAll();
    await sink.close();
    await db.drop();
  });

  it('records the end of data durably before the server receives the terminating dot', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'dot@lead.example');
    const phasesAtDot: Array<string | null> = [];
    const server = await startInspectingServer(async () => {
      phasesAtDot.push((await rowFor(db, campaignId)).smtp_phase);
    });
    try {
      const sent = await senderTo(db, server.port).send(input(accountId, campaignId, leadId));
      expect(sent.outcome).to.equal('sent');
    } finally {
      await server.close();
    }
    expect(phasesAtDot).to.deep.equal(['data_sent']);
    const row = await rowFor(db, campaignId);
    expect(row).to.include({ status: 'sent', smtp_phase: 'accepted', possible_duplicate: false, attempts: 1 });
  });

  it('a crash in the middle of the data loses nothing: the server discards it, the retry sends it once with the same Message-ID', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'middle@lead.example');
    const crashing = senderTo(db, sink.port, {
      beforeDataEnd: () => {
        throw new Error('worker killed');
      },
    });
    let crashed: unknown;
    await crashing.send(input(accountId, campaignId, leadId)).catch((err: unknown) => (crashed = err));
    expect((crashed as Error | undefined)?.message).to.equal('worker killed');
    const left = await rowFor(db, campaignId);
    expect(left).to.include({ status: 'sending', smtp_phase: 'reserved' });
    expect(sink.to('middle@lead.example'), 'a message without its dot is not delivered').to.have.length(0);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE campaign_id = $1`, [campaignId])).to.equal(0);

    const retried = await senderTo(db, sink.port).send(input(accountId, campaignId, leadId));
    expect(retried).to.include({ outcome: 'sent', emailId: left.id, messageId: left.message_id });
    const copies = sink.to('middle@lead.example');
    expect(copies).to.have.length(1);
    expect((await sink.parse(copies[0]!)).messageId).to.equal(left.message_id);
    expect(await rowFor(db, campaignId)).to.include({ status: 'sent', smtp_phase: 'accepted', possible_duplicate: false, attempts: 2 });
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE campaign_id = $1 AND type = 'sent'`, [campaignId])).to.equal(1);
  });

  it('a connection lost after the end of data is not counted as sent; the resend is marked a possible duplicate', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'dropped@lead.example');
    const dropping = await startDroppingServer();
    try {
      const failed = await senderTo(db, dropping.port)
        .send(input(accountId, campaignId, leadId))
        .then(
          () => null,
          (err: unknown) => err as Error,
        );
      expect(failed?.name).to.equal('SmtpTemporaryFailure');
      expect(dropping.dots()).to.equal(1);
    } finally {
      await dropping.close();
    }
    const left = await rowFor(db, campaignId);
    expect(left).to.include({ status: 'deferred', smtp_phase: 'data_sent', possible_duplicate: false });
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE campaign_id = $1`, [campaignId]), 'nothing counts as sent').to.equal(0);

    const retried = await senderTo(db, sink.port).send(input(accountId, campaignId, leadId));
    expect(retried).to.include({ outcome: 'sent', messageId: left.message_id });
    expect(await rowFor(db, campaignId)).to.include({ status: 'sent', possible_duplicate: true });
  });

  it('a later attempt that takes the row over keeps an earlier one, still running, from completing its transaction', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'twice@lead.example');
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let reachedEnd: () => void = () => undefined;
    const firstAtEnd = new Promise<void>((resolve) => (reachedEnd = resolve));
    let calls = 0;
    const sender = senderTo(db, sink.port, {
      beforeDataEnd: async () => {
        if (++calls > 1) return;
        reachedEnd();
        await firstHeld;
      },
    });
    const first = sender.send(input(accountId, campaignId, leadId)).then(
      (r) => r,
      (err: unknown) => err,
    );
    await firstAtEnd;
    // The first attempt has handed over its whole message and waits before its end of data.
    const second = await sender.send(input(accountId, campaignId, leadId));
    expect(second.outcome).to.equal('sent');
    releaseFirst();
    expect(await first).to.be.instanceOf(SendInProgress);
    expect(sink.to('twice@lead.example'), 'only the attempt that owned the row completed').to.have.length(1);
    expect(await rowFor(db, campaignId)).to.include({ status: 'sent', possible_duplicate: false, attempts: 2 });
  });
});
