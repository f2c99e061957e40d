import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';

const PASSWORD = 'sup3r-secret-pw';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

describe('/v1/mailboxes', () => {
  const t = useTestApi();

  const post = (key: string, body: unknown) =>
    request(`${t.api.baseUrl}/v1/mailboxes`, { method: 'POST', headers: { ...surfaceB(key), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('adds, lists and deactivates a mailbox, never showing its password or DKIM key', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const created = await post(apiKey, {
      fromEmail: 'Sam@Sender.example',
      fromName: 'Sam',
      smtpUrl: `smtps://sam%40sender.example:${PASSWORD}@smtp.sender.example`,
      dailyCap: 40,
      dkim: { domain: 'Sender.example', selector: 's2026', privateKey: rsa },
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.deep.include({
      fromEmail: 'sam@sender.example',
      fromName: 'Sam',
      smtp: { host: 'smtp.sender.example', port: 465, secure: true, user: 'sam@sender.example' },
      dailyCap: 40,
      minGapSeconds: 60,
      dkim: { domain: 'sender.example', selector: 's2026' },
      active: true,
      sentToday: 0,
      lastSentAt: null,
    });
    expect(created.body.id).to.match(/^mbx_/);
    expect(created.text).to.not.contain(PASSWORD);
    expect(created.text).to.not.contain('PRIVATE KEY');

    const listed = await request(`${t.api.baseUrl}/v1/mailboxes`, { headers: surfaceB(apiKey) });
    expect(listed.status).to.equal(200);
    expect(listed.body).to.deep.equal({ mailboxes: [created.body] });
    expect(listed.text).to.not.contain(PASSWORD);

    const removed = await request(`${t.api.baseUrl}/v1/mailboxes/${created.body.id as string}`, { method: 'DELETE', headers: surfaceB(apiKey) });
    expect(removed.status).to.equal(200);
    expect(removed.body).to.deep.include({ id: created.body.id, active: false });
    expect((await request(`${t.api.baseUrl}/v1/mailboxes`, { headers: surfaceB(apiKey) })).body).to.deep.equal({ mailboxes: [] });
    // Idempotent.
    expect((await request(`${t.api.baseUrl}/v1/mailboxes/${created.body.id as string}`, { method: 'DELETE', headers: surfaceB(apiKey) })).status).to.equal(200);

    // The same address again brings the row back with the new settings.
    const again = await post(apiKey, { fromEmail: 'sam@sender.example', smtpUrl: `smtp://sam:${PASSWORD}@smtp.sender.example:587` });
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.include({ id: created.body.id, active: true, dkim: null, dailyCap: 50, smtp: { host: 'smtp.sender.example', port: 587, secure: false, user: 'sam' } });
  });

  it('refuses a second active mailbox with the same address (409)', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const body = { fromEmail: 'dup@sender.example', smtpUrl: 'smtp://u:p@smtp.sender.example:587' };
    expect((await post(apiKey, body)).status).to.equal(201);
    const second = await post(apiKey, { ...body, fromEmail: 'DUP@sender.example' });
    expect(second.status).to.equal(409);
    expect(second.body).to.deep.equal({ error: 'A mailbox for dup@sender.example already exists' });
  });

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a bad PEM', { dkim: { domain: 'sender.example', selector: 's1', privateKey: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n' } }, /not a PEM private key/],
    ['a non-RSA DKIM key', { dkim: { domain: 'sender.example', selector: 's1', privateKey: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string } }, /must be an RSA key/],
    ['an http URL', { smtpUrl: 'http://u:p@smtp.sender.example' }, /smtp:\/\/ or smtps:\/\//],
    ['a URL without credentials', { smtpUrl: 'smtp://smtp.sender.example:587' }, /user and a password/],
    ['a private host', { smtpUrl: 'smtp://u:p@10.1.2.3:587' }, /private address/],
    ['a daily cap of 0', { dailyCap: 0 }, /dailyCap/],
    ['a daily cap above 10000', { dailyCap: 10_001 }, /dailyCap/],
    ['a negative gap', { minGapSeconds: -1 }, /minGapSeconds/],
    ['a gap above a day', { minGapSeconds: 86_401 }, /minGapSeconds/],
    ['a bad From address', { fromEmail: 'not-an-address' }, /fromEmail/],
    ['an unknown field', { password: 'x' }, /unknown field "password"/],
  ];
  for (const [what, override, message] of bad) {
    it(`answers 400 for ${what}`, async () => {
      const { apiKey } = await createAccount(t.db.sequelize);
      const res = await post(apiKey, { fromEmail: 'x@sender.example', smtpUrl: 'smtp://u:p@smtp.sender.example:587', ...override });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.match(message);
      expect((await request(`${t.api.baseUrl}/v1/mailboxes`, { headers: surfaceB(apiKey) })).body).to.deep.equal({ mailboxes: [] });
    });
  }

  it('keeps accounts apart and needs the Surface B key', async () => {
    const a = await createAccount(t.db.sequelize);
    const b = await createAccount(t.db.sequelize);
    const created = await post(a.apiKey, { fromEmail: 'mine@sender.example', smtpUrl: 'smtp://u:p@smtp.sender.example:587' });
    expect((await request(`${t.api.baseUrl}/v1/mailboxes`, { headers: surfaceB(b.apiKey) })).body).to.deep.equal({ mailboxes: [] });
    const foreign = await request(`${t.api.baseUrl}/v1/mailboxes/${created.body.id as string}`, { method: 'DELETE', headers: surfaceB(b.apiKey) });
    expect(foreign.status).to.equal(404);
    expect((await request(`${t.api.baseUrl}/v1/mailboxes`, { headers: surfaceB(a.apiKey) })).body.mailboxes).to.have.length(1);
    expect((await request(`${t.api.baseUrl}/v1/mailboxes`, { headers: surfaceA(a.apiKey) })).status).to.equal(401);
  });
});
