import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import nodemailer from 'nodemailer';
import { createLogger } from '../../src/log/logger';
import { freePort } from '../../src/net/ports';
import { startApiRole } from '../../src/runtime/api-role';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { loadMime } from './mime-fixtures';
import { rows, seedSentEmail } from './seed';

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('the API role runs the inbound SMTP listener', () => {
  let db: TestDatabase;
  let dataDir: string;
  before(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'inbound-role-'));
  });
  after(async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes replies on INBOUND_SMTP_PORT while running and stops taking them on shutdown', async () => {
    const smtpPort = await freePort();
    const config = testConfig({ PORT: String(await freePort()), HOST: '127.0.0.1', INBOUND_SMTP_PORT: String(smtpPort), DATA_DIR: dataDir });
    const database = { sequelize: db.sequelize, url: db.url, embeddedPid: undefined, close: async () => undefined };
    const role = await startApiRole(config, createLogger('silent', 'test'), database, '127.0.0.1:1');
    try {
      const sent = await seedSentEmail(db.sequelize);
      const info = await nodemailer
        .createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true })
        .sendMail({ envelope: { from: sent.leadEmail, to: ['sam@outreach.test'] }, raw: loadMime('gmail-reply.eml', { SENT_ID: sent.messageId, LEAD: sent.leadEmail }) });
      expect(info.response).to.match(/^250 Stored as rpl_/);
      expect(await rows(db.sequelize, `SELECT kind FROM replies WHERE email_id = $1`, [sent.emailId])).to.deep.equal([{ kind: 'reply' }]);
    } finally {
      await role.http.close(1_000);
      await role.temporal.close();
    }
    expect(await refusesConnections(smtpPort)).to.equal(true);
  });
});
