import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { createAccount, request, surfaceB, useTestApi, type JsonResponse } from '../support/api';

interface Mailbox {
  id: string;
  fromEmail: string;
  fromName: string | null;
  signature: string | null;
  dailyCap: number;
  minGapSeconds: number;
  active: boolean;
  error?: string;
}

const SMTP = 'smtp://u:p@smtp.sender.example:587';
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('/v1/mailboxes: sender name and signature, and PATCH', () => {
  const t = useTestApi();
  const json = (key: string) => ({ ...surfaceB(key), 'Content-Type': 'application/json' });
  const post = (key: string, body: unknown): Promise<JsonResponse<Mailbox>> =>
    request<Mailbox>(`${t.api.baseUrl}/v1/mailboxes`, { method: 'POST', headers: json(key), body: JSON.stringify(body) });
  const patch = (key: string, id: string, body: unknown): Promise<JsonResponse<Mailbox>> =>
    request<Mailbox>(`${t.api.baseUrl}/v1/mailboxes/${id}`, { method: 'PATCH', headers: json(key), body: JSON.stringify(body) });
  const list = async (key: string): Promise<Mailbox[]> =>
    (await request<{ mailboxes: Mailbox[] }>(`${t.api.baseUrl}/v1/mailboxes`, { headers: surfaceB(key) })).body.mailboxes;

  it('POST takes a signature (normalised) and every answer shows it, null when none', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const created = await post(apiKey, { fromEmail: 'sam@sender.example', fromName: '  Sam Lee ', smtpUrl: SMTP, signature: 'Sam Lee  \r\nAcme\r\n\r\n' });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.deep.include({ fromName: 'Sam Lee', signature: 'Sam Lee\nAcme' });

    const bare = await post(apiKey, { fromEmail: 'bare@sender.example', smtpUrl: SMTP });
    expect(bare.body).to.deep.include({ fromName: null, signature: null });
    // Blank is none, for the signature as for a blank name on create (which always showed as no name).
    const blank = await post(apiKey, { fromEmail: 'blank@sender.example', fromName: '   ', smtpUrl: SMTP, signature: ' \n ' });
    expect(blank.status, blank.text).to.equal(201);
    expect(blank.body).to.deep.include({ fromName: null, signature: null });

    expect((await list(apiKey)).map((m) => [m.fromEmail, m.fromName, m.signature])).to.deep.equal([
      ['sam@sender.example', 'Sam Lee', 'Sam Lee\nAcme'],
      ['bare@sender.example', null, null],
      ['blank@sender.example', null, null],
    ]);
    const removed = await request<Mailbox>(`${t.api.baseUrl}/v1/mailboxes/${created.body.id}`, { method: 'DELETE', headers: surfaceB(apiKey) });
    expect(removed.body).to.deep.include({ active: false, signature: 'Sam Lee\nAcme' });

    // Added again, the mailbox takes the new body's signature (none here).
    const again = await post(apiKey, { fromEmail: 'sam@sender.example', smtpUrl: SMTP });
    expect(again.body).to.deep.include({ id: created.body.id, active: true, fromName: null, signature: null });
  });

  it('POST refuses a fromName that could pass for an address or a header, and a bad signature, creating nothing', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ fromName: 'ceo@bank.example' }, /^fromName must not contain <, >, " or @/],
      [{ fromName: 'Sam <ceo@bank.example>' }, /^fromName must not contain <, >, " or @/],
      [{ fromName: '"Sam"' }, /^fromName must not contain <, >, " or @/],
      [{ fromName: 'Sam\r\nBcc: x@y.example' }, 'fromName must be a single line (no line breaks)'],
      [{ fromName: '' }, /^body\.fromName must NOT have fewer than 1 characters/],
      [{ fromName: 'n'.repeat(101) }, /^body\.fromName must NOT have more than 100 characters/],
      [{ signature: lines(16) }, 'signature must be at most 15 lines (this one has 16)'],
      [{ signature: 's'.repeat(2001) }, /^body\.signature must NOT have more than 2000 characters/],
    ];
    for (const [override, error] of cases) {
      const res = await post(apiKey, { fromEmail: 'x@sender.example', smtpUrl: SMTP, ...override });
      expect(res.status, JSON.stringify(override)).to.equal(400);
      if (typeof error === 'string') expect(res.body.error).to.equal(error);
      else expect(res.body.error).to.match(error);
    }
    expect(await list(apiKey)).to.deep.equal([]);
  });

  it('PATCH changes fromName, signature, dailyCap and minGapSeconds, each alone, keeping the rest; null clears a name or signature', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const { body: created } = await post(apiKey, { fromEmail: 'sam@sender.example', fromName: 'Sam', smtpUrl: SMTP, dailyCap: 40, minGapSeconds: 30 });

    const named = await patch(apiKey, created.id, { fromName: '  Sam Lee, Acme ' });
    expect(named.status, named.text).to.equal(200);
    expect(named.body).to.deep.include({ fromName: 'Sam Lee, Acme', signature: null, dailyCap: 40, minGapSeconds: 30 });
    const signed = await patch(apiKey, created.id, { signature: 'Sam Lee\r\nHead of Sales  ' });
    expect(signed.body).to.deep.include({ fromName: 'Sam Lee, Acme', signature: 'Sam Lee\nHead of Sales', dailyCap: 40 });
    expect((await patch(apiKey, created.id, { dailyCap: 10_000 })).body).to.deep.include({ dailyCap: 10_000, minGapSeconds: 30, signature: 'Sam Lee\nHead of Sales' });
    expect((await patch(apiKey, created.id, { minGapSeconds: 0 })).body).to.deep.include({ dailyCap: 10_000, minGapSeconds: 0 });
    const all = await patch(apiKey, created.id, { fromName: 'Sam', signature: lines(15), dailyCap: 1, minGapSeconds: 86_400 });
    expect(all.body).to.deep.include({ fromName: 'Sam', signature: lines(15), dailyCap: 1, minGapSeconds: 86_400 });

    const cleared = await patch(apiKey, created.id, { fromName: null, signature: null });
    expect(cleared.body).to.deep.include({ id: created.id, fromEmail: 'sam@sender.example', fromName: null, signature: null, dailyCap: 1, active: true });
    expect(await list(apiKey)).to.deep.equal([cleared.body]);
  });

  it('PATCH refuses bad input with a 400 naming the member, and changes nothing', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const { body: created } = await post(apiKey, { fromEmail: 'sam@sender.example', fromName: 'Sam', smtpUrl: SMTP, signature: 'Sam' });
    const cases: Array<[unknown, string | RegExp]> = [
      [{}, 'body must set at least one of fromName, signature, dailyCap and minGapSeconds'],
      [{ fromName: '  ' }, 'body.fromName must not be blank'],
      [{ fromName: 'sam@sender.example' }, /^fromName must not contain <, >, " or @/],
      [{ fromName: 'Sam\nLee' }, 'fromName must be a single line (no line breaks)'],
      [{ fromName: 'n'.repeat(101) }, /^body\.fromName must NOT have more than 100 characters/],
      [{ signature: lines(16) }, 'signature must be at most 15 lines (this one has 16)'],
      [{ dailyCap: 0 }, /^body\.dailyCap must be >= 1/],
      [{ dailyCap: 10_001 }, /^body\.dailyCap must be <= 10000/],
      [{ dailyCap: null }, /^body\.dailyCap must be integer/],
      [{ minGapSeconds: -1 }, /^body\.minGapSeconds must be >= 0/],
      [{ minGapSeconds: 86_401 }, /^body\.minGapSeconds must be <= 86400/],
      [{ smtpUrl: SMTP }, 'body has unknown field "smtpUrl"'],
      [{ dailyCap: 5, active: false }, 'body has unknown field "active"'],
    ];
    for (const [body, error] of cases) {
      const res = await patch(apiKey, created.id, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      if (typeof error === 'string') expect(res.body.error, JSON.stringify(body)).to.equal(error);
      else expect(res.body.error, JSON.stringify(body)).to.match(error);
    }
    // A valid member next to a refused one is not applied either.
    expect((await patch(apiKey, created.id, { dailyCap: 5, fromName: 'a@b.example' })).status).to.equal(400);
    expect(await list(apiKey)).to.deep.equal([created]);
  });

  it("PATCH answers 404 Mailbox not found for another account's, a missing or a deactivated mailbox", async () => {
    const a = await createAccount(t.db.sequelize);
    const b = await createAccount(t.db.sequelize);
    const { body: mine } = await post(a.apiKey, { fromEmail: 'mine@sender.example', fromName: 'Mine', smtpUrl: SMTP });
    const { body: gone } = await post(a.apiKey, { fromEmail: 'gone@sender.example', smtpUrl: SMTP });
    await request(`${t.api.baseUrl}/v1/mailboxes/${gone.id}`, { method: 'DELETE', headers: surfaceB(a.apiKey) });

    for (const [key, id] of [
      [b.apiKey, mine.id],
      [a.apiKey, 'mbx_doesnotexist'],
      [a.apiKey, gone.id],
    ] as const) {
      const res = await patch(key, id, { fromName: 'Taken Over' });
      expect(res.status, id).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Mailbox not found' });
    }
    expect((await list(a.apiKey)).map((m) => m.fromName)).to.deep.equal(['Mine']);
    const [row] = await t.db.sequelize.query<{ from_name: string | null }>(`SELECT from_name FROM mailboxes WHERE id = $1`, { bind: [gone.id], type: QueryTypes.SELECT });
    expect(row).to.deep.equal({ from_name: null });
  });
});
