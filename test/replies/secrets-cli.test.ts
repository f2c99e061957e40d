import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { serviceSecret } from '../../src/config/service-secret-repository';
import { createTestDatabase, type TestDatabase } from '../support/database';

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..');

async function secretsShow(env: Record<string, string>): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'secrets', 'show'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'error', PORT: '4100', ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('outreach secrets show', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db?.drop());

  it('prints the generated inbound secret the API checks, and where a relay delivers', async () => {
    const out = await secretsShow({ DATABASE_URL: db.url, INBOUND_SECRET: '' });
    expect(out.inbound_secret).to.equal(await serviceSecret(db.sequelize, 'inbound', undefined));
    expect(out).to.deep.include({ http_endpoint: 'http://localhost:4100/inbound/mime' });
    expect(out.smtp).to.deep.include({ port: 4100 + 2026, user: 'inbound' });
    expect(out).to.not.have.property('tracking_secret');
  });

  it('prints INBOUND_SECRET when the operator set one', async () => {
    const out = await secretsShow({ DATABASE_URL: db.url, INBOUND_SECRET: 'operator-chosen-secret-1234' });
    expect(out).to.include({ inbound_secret: 'operator-chosen-secret-1234', source: 'INBOUND_SECRET' });
  });
});
