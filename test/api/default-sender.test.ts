import { expect } from 'chai';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';

interface Sender {
  name: string | null;
  signature: string | null;
  error?: string;
}

describe('default sender: /v1/default-sender', () => {
  const t = useTestApi();
  const url = () => `${t.api.baseUrl}/v1/default-sender`;
  const get = (key: string) => request<Sender>(url(), { headers: surfaceB(key) });
  const patch = (key: string, body: unknown) =>
    request<Sender>(url(), { method: 'PATCH', headers: { ...surfaceB(key), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('is unset at first, then set (name trimmed, signature normalised), changed member by member and cleared with null', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const first = await get(apiKey);
    expect(first.status).to.equal(200);
    expect(first.body).to.deep.equal({ name: null, signature: null });

    const set = await patch(apiKey, { name: '  Sam Lee at Acme  ', signature: '\r\nSam Lee   \r\nHead of Sales, Acme\t\r\n\r\n' });
    expect(set.status, set.text).to.equal(200);
    expect(set.body).to.deep.equal({ name: 'Sam Lee at Acme', signature: 'Sam Lee\nHead of Sales, Acme' });
    expect((await get(apiKey)).body).to.deep.equal(set.body);

    // A member left out keeps its value.
    const signatureOnly = await patch(apiKey, { signature: 'Sam\n\nacme.example' });
    expect(signatureOnly.body).to.deep.equal({ name: 'Sam Lee at Acme', signature: 'Sam\n\nacme.example' });

    // 15 lines is the most; blank lines at the end do not count.
    const fifteen = Array.from({ length: 15 }, (_, i) => `line ${i + 1}`).join('\n');
    expect((await patch(apiKey, { signature: `${fifteen}\n\n\n` })).body.signature).to.equal(fifteen);
    expect((await patch(apiKey, { name: 'n'.repeat(100) })).body.name).to.equal('n'.repeat(100));

    const clearedName = await patch(apiKey, { name: null });
    expect(clearedName.body).to.deep.equal({ name: null, signature: fifteen });
    // A blank signature is none.
    const blankSignature = await patch(apiKey, { signature: '  \r\n \t ' });
    expect(blankSignature.body).to.deep.equal({ name: null, signature: null });
    await patch(apiKey, { signature: 'kept' });
    expect((await patch(apiKey, { name: 'Sam', signature: null })).body).to.deep.equal({ name: 'Sam', signature: null });
    expect((await get(apiKey)).body).to.deep.equal({ name: 'Sam', signature: null });
  });

  it('refuses bad input with a 400 naming the member, and changes nothing', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const before = (await patch(apiKey, { name: 'Acme Sales', signature: 'The Acme team' })).body;
    const sixteen = Array.from({ length: 16 }, (_, i) => `line ${i + 1}`).join('\n');
    const cases: Array<[unknown, string | RegExp]> = [
      [{ name: '' }, 'body.name must not be blank'],
      [{ name: '   ' }, 'body.name must not be blank'],
      [{ name: 'n'.repeat(101) }, 'body.name must NOT have more than 100 characters'],
      [{ name: 'Sam\nLee' }, 'name must be a single line (no line breaks)'],
      [{ name: 'Sam\r\nBcc: someone' }, 'name must be a single line (no line breaks)'],
      [{ name: 'Sam\u2028Lee' }, 'name must be a single line (no line breaks)'],
      [{ name: 'ceo@bank.example' }, /^name must not contain <, >, " or @/],
      [{ name: 'Sam <ceo@bank.example>' }, /^name must not contain <, >, " or @/],
      [{ name: 'Sam "the boss"' }, /^name must not contain <, >, " or @/],
      [{ name: 42 }, /^body\.name must be string/],
      [{ signature: sixteen }, 'signature must be at most 15 lines (this one has 16)'],
      [{ signature: 's'.repeat(2001) }, 'body.signature must NOT have more than 2000 characters'],
      [{ signature: 'Sam\u0007' }, 'signature must be plain text: no control characters other than tabs and line breaks'],
      [{ signature: ['Sam'] }, /^body\.signature must be string/],
      [{ name: 'Sam', from: 'sam@acme.example' }, 'body has unknown field "from"'],
      [{}, 'body must set name, signature or both'],
    ];
    for (const [body, error] of cases) {
      const res = await patch(apiKey, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(Object.keys(res.body)).to.deep.equal(['error']);
      if (typeof error === 'string') expect(res.body.error, JSON.stringify(body)).to.equal(error);
      else expect(res.body.error, JSON.stringify(body)).to.match(error);
    }
    // A valid member next to a refused one is not applied either.
    expect((await patch(apiKey, { name: 'Other Name', signature: sixteen })).status).to.equal(400);
    expect((await get(apiKey)).body).to.deep.equal(before);
  });

  it("is the account's own: another account never sees it, and only the Surface B key reaches it", async () => {
    const a = await createAccount(t.db.sequelize);
    const b = await createAccount(t.db.sequelize);
    await patch(a.apiKey, { name: 'Alpha Sales', signature: 'Alpha' });
    expect((await get(b.apiKey)).body).to.deep.equal({ name: null, signature: null });
    await patch(b.apiKey, { name: 'Beta Sales' });
    expect((await get(a.apiKey)).body).to.deep.equal({ name: 'Alpha Sales', signature: 'Alpha' });
    expect((await get(b.apiKey)).body).to.deep.equal({ name: 'Beta Sales', signature: null });

    expect((await request(url(), { headers: surfaceA(a.apiKey) })).status).to.equal(401);
    expect((await request(url())).status).to.equal(401);
  });

  it('is documented in the OpenAPI document, with what the default sender is for', () => {
    const path = (t.api.openapi.paths as Record<string, Record<string, { description?: string; operationId: string }>>)['/v1/default-sender'];
    expect(path).to.have.keys('get', 'patch');
    expect(path!.get!.operationId).to.equal('getDefaultSender');
    expect(path!.patch!.description).to.include('without a mailbox').and.include('never a bare address');
  });
});
