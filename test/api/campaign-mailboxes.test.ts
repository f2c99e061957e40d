import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { createAccount, request, surfaceA, surfaceB } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { eventually } from '../support/eventually';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

const HOME = '<html><head><title>Acme Analytics</title></head><body><h1>Acme Analytics</h1></body></html>';

interface Change {
  kind: string;
  changes: Array<{ field: string; from: unknown; to: unknown }>;
}

/**
 * Mailboxes per campaign (issue 29 point 4) through both surfaces on the real stack (Temporal dev
 * server and worker, PostgreSQL, the API over HTTP): `mailbox_ids` / `mailboxIds` on create, GET,
 * PATCH (through the campaign's Update) and the copy; a set that names anything but the account's
 * active mailboxes, each once, is a 400 naming the field and the id, and changes nothing.
 * test/sending/campaign-mailboxes-sending.test.ts covers where the emails then go.
 */
describe('campaign mailboxes on create, GET, PATCH and copy (real Temporal dev server)', () => {
  const t = useCampaignStack();
  let site: FakeSite;
  before(async () => {
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
  });
  after(async () => {
    await site?.close();
  });

  const call = <T>(method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    request<T & { error?: string }>(`${t.api.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const allDay = { send_window: { start: '00:00', end: '24:00' } };

  /** A mailbox of the account, added through the API (its server is never reached: these campaigns have no leads). */
  async function addMailbox(apiKey: string, name: string): Promise<string> {
    const res = await call<{ id: string }>('POST', '/v1/mailboxes', surfaceB(apiKey), {
      fromEmail: `${name}.${Math.random().toString(36).slice(2, 8)}@sender.example`,
      smtpUrl: `smtp://u:p@127.0.0.1:${t.sink.port}`,
    });
    expect(res.status, res.text).to.equal(201);
    return res.body.id;
  }

  /** An account with three active mailboxes and a deactivated one. */
  async function accountWithMailboxes(): Promise<{ apiKey: string; accountId: string; boxes: [string, string, string]; gone: string }> {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const boxes: [string, string, string] = [await addMailbox(apiKey, 'one'), await addMailbox(apiKey, 'two'), await addMailbox(apiKey, 'three')];
    const gone = await addMailbox(apiKey, 'gone');
    expect((await call('DELETE', `/v1/mailboxes/${gone}`, surfaceB(apiKey))).status).to.equal(200);
    return { apiKey, accountId, boxes, gone };
  }

  const campaignCount = async (accountId: string): Promise<number> =>
    (await t.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT }))[0]!.n;
  const waitForRunning = (id: string, apiKey: string) =>
    eventually(async () => ((await call<{ status: string }>('GET', `/campaigns/${id}`, surfaceA(apiKey))).body.status === 'running' ? true : undefined));

  async function createdOnA(apiKey: string, extra: Record<string, unknown>): Promise<string> {
    const created = await call<{ id: string }>('POST', '/campaigns', surfaceA(apiKey), { mcp: 'sales_outreach', target_url: site.origin, schedule: allDay, ...extra });
    expect(created.status, created.text).to.equal(201);
    await waitForRunning(created.body.id, apiKey);
    return created.body.id;
  }

  /** What both surfaces' GET show of the campaign's mailboxes. */
  async function shown(id: string, apiKey: string): Promise<{ a: unknown; aReason: unknown; b: unknown; bReason: unknown }> {
    const a = await call<{ mailbox_ids: unknown; mailboxes_reason: unknown }>('GET', `/campaigns/${id}`, surfaceA(apiKey));
    const b = await call<{ mailboxIds: unknown; mailboxesReason: unknown }>('GET', `/v1/campaigns/${id}`, surfaceB(apiKey));
    expect(a.status, a.text).to.equal(200);
    expect(b.status, b.text).to.equal(200);
    return { a: a.body.mailbox_ids, aReason: a.body.mailboxes_reason, b: b.body.mailboxIds, bReason: b.body.mailboxesReason };
  }

  it('Surface A: created with mailbox_ids, shown on both surfaces; PATCH to another set, then null (every mailbox again), each in the history', async () => {
    const { apiKey, boxes } = await accountWithMailboxes();
    const id = await createdOnA(apiKey, { mailbox_ids: [boxes[0], boxes[1]] });
    expect(await shown(id, apiKey)).to.deep.equal({ a: [boxes[0], boxes[1]], aReason: null, b: [boxes[0], boxes[1]], bReason: null });

    const patched = await call<{ mailbox_ids: string[] }>('PATCH', `/campaigns/${id}`, surfaceA(apiKey), { mailbox_ids: [boxes[2], boxes[0]] });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.mailbox_ids).to.deep.equal([boxes[2], boxes[0]]);
    expect((await shown(id, apiKey)).b).to.deep.equal([boxes[2], boxes[0]]);

    // The same set in another order is no change: no history row.
    const same = await call<{ mailbox_ids: string[] }>('PATCH', `/campaigns/${id}`, surfaceA(apiKey), { mailbox_ids: [boxes[0], boxes[2]] });
    expect(same.status, same.text).to.equal(200);
    expect(same.body.mailbox_ids).to.deep.equal([boxes[2], boxes[0]]);

    const cleared = await call<{ mailbox_ids: null }>('PATCH', `/campaigns/${id}`, surfaceA(apiKey), { mailbox_ids: null });
    expect(cleared.status, cleared.text).to.equal(200);
    expect(await shown(id, apiKey)).to.deep.equal({ a: null, aReason: null, b: null, bReason: null });

    const history = await call<{ changes: Change[] }>('GET', `/campaigns/${id}/changes`, surfaceA(apiKey));
    expect(history.body.changes.map((c) => c.changes)).to.deep.equal([
      [{ field: 'mailbox_ids', from: [boxes[2], boxes[0]], to: null }],
      [{ field: 'mailbox_ids', from: [boxes[0], boxes[1]], to: [boxes[2], boxes[0]] }],
    ]);
    const onB = await call<{ changes: Change[] }>('GET', `/v1/campaigns/${id}/changes`, surfaceB(apiKey));
    expect(onB.body.changes[0]?.changes[0]?.field).to.equal('mailboxIds');
  });

  it('Surface B: created with mailboxIds, PATCH to a set and back to null; created without, every active mailbox (null)', async () => {
    const { apiKey, boxes } = await accountWithMailboxes();
    const created = await call<{ id: string; mailboxIds: string[] | null; mailboxesReason: string | null }>('POST', '/v1/campaigns', surfaceB(apiKey), {
      name: 'Two mailboxes',
      brandUrl: site.origin,
      schedule: { sendWindow: { start: '00:00', end: '24:00' } },
      mailboxIds: [boxes[1], boxes[2]],
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ mailboxesReason: null });
    expect(created.body.mailboxIds).to.deep.equal([boxes[1], boxes[2]]);
    const id = created.body.id;
    await waitForRunning(id, apiKey);
    expect(await shown(id, apiKey)).to.deep.equal({ a: [boxes[1], boxes[2]], aReason: null, b: [boxes[1], boxes[2]], bReason: null });

    const patched = await call<{ mailboxIds: string[] }>('PATCH', `/v1/campaigns/${id}`, surfaceB(apiKey), { mailboxIds: [boxes[0], boxes[2]] });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.mailboxIds).to.deep.equal([boxes[0], boxes[2]]);
    const cleared = await call<{ mailboxIds: null }>('PATCH', `/v1/campaigns/${id}`, surfaceB(apiKey), { mailboxIds: null });
    expect(cleared.status, cleared.text).to.equal(200);
    expect(cleared.body.mailboxIds).to.equal(null);

    const plain = await call<{ id: string; mailboxIds: null }>('POST', '/v1/campaigns', surfaceB(apiKey), { name: 'All mailboxes', brandUrl: site.origin });
    expect(plain.status, plain.text).to.equal(201);
    expect(plain.body.mailboxIds).to.equal(null);
  });

  it('create: an unknown, another account\'s, a deactivated or a repeated id is a 400 naming the field and the id, and nothing is created', async () => {
    const { apiKey, accountId, boxes, gone } = await accountWithMailboxes();
    const stranger = await accountWithMailboxes();
    const before = await campaignCount(accountId);
    const cases: Array<[string, unknown, RegExp]> = [
      ['unknown', [boxes[0], 'mbx_nope'], /no active mailbox of the account has the id "mbx_nope"/],
      ['another account\'s', [stranger.boxes[0]], new RegExp(`no active mailbox of the account has the id "${stranger.boxes[0]}"`)],
      ['deactivated', [boxes[1], gone], new RegExp(`no active mailbox of the account has the id "${gone}"`)],
      ['repeated', [boxes[0], boxes[1], boxes[0]], new RegExp(`"${boxes[0]}" is named more than once`)],
      ['empty', [], /fewer than 1 items/],
    ];
    for (const [what, ids, message] of cases) {
      const onA = await call('POST', '/campaigns', surfaceA(apiKey), { mcp: 'sales_outreach', target_url: site.origin, mailbox_ids: ids });
      expect(onA.status, `A ${what}: ${onA.text}`).to.equal(400);
      expect(onA.body.error, `A ${what}`).to.match(/^(body\.)?mailbox_ids/).and.to.match(message);
      const onB = await call('POST', '/v1/campaigns', surfaceB(apiKey), { name: 'x', brandUrl: site.origin, mailboxIds: ids });
      expect(onB.status, `B ${what}: ${onB.text}`).to.equal(400);
      expect(onB.body.error, `B ${what}`).to.match(/^(body\.)?mailboxIds/).and.to.match(message);
    }
    expect(await campaignCount(accountId)).to.equal(before);
  });

  it('PATCH: the same bad ids are a 400 naming the field and the id; the set and the history stay as they were', async () => {
    const { apiKey, boxes, gone } = await accountWithMailboxes();
    const stranger = await accountWithMailboxes();
    const id = await createdOnA(apiKey, { mailbox_ids: [boxes[0]] });
    const bad: Array<[unknown, RegExp]> = [
      [['mbx_nope'], /no active mailbox of the account has the id "mbx_nope"/],
      [[stranger.boxes[1]], new RegExp(`"${stranger.boxes[1]}"`)],
      [[boxes[1], gone], new RegExp(`no active mailbox of the account has the id "${gone}"`)],
      [[boxes[1], boxes[1]], new RegExp(`"${boxes[1]}" is named more than once`)],
    ];
    for (const [ids, message] of bad) {
      const onA = await call('PATCH', `/campaigns/${id}`, surfaceA(apiKey), { name: 'Renamed', mailbox_ids: ids });
      expect(onA.status, onA.text).to.equal(400);
      expect(onA.body.error).to.match(/^mailbox_ids: /).and.to.match(message);
      const onB = await call('PATCH', `/v1/campaigns/${id}`, surfaceB(apiKey), { mailboxIds: ids });
      expect(onB.status, onB.text).to.equal(400);
      expect(onB.body.error).to.match(/^mailboxIds: /).and.to.match(message);
    }
    expect(await shown(id, apiKey)).to.deep.equal({ a: [boxes[0]], aReason: null, b: [boxes[0]], bReason: null });
    const b = await call<{ name: string }>('GET', `/v1/campaigns/${id}`, surfaceB(apiKey));
    expect(b.body.name, 'nothing of a refused PATCH is written').to.be.a('string').and.not.equal('Renamed');
    const history = await call<{ changes: Change[] }>('GET', `/campaigns/${id}/changes`, surfaceA(apiKey));
    expect(history.body.changes).to.deep.equal([]);
  });

  it('the copy sends from the same mailboxes (started and draft, both surfaces); a set whose mailboxes were all deactivated shows why nothing is sent', async () => {
    const { apiKey, boxes } = await accountWithMailboxes();
    const id = await createdOnA(apiKey, { mailbox_ids: [boxes[0], boxes[2]] });
    const started = await call<{ id: string }>('POST', `/campaigns/${id}/duplicate`, surfaceA(apiKey), {});
    expect(started.status, started.text).to.equal(201);
    expect((await shown(started.body.id, apiKey)).a).to.deep.equal([boxes[0], boxes[2]]);
    const draft = await call<{ id: string; status: string; mailboxIds: string[] }>('POST', `/v1/campaigns/${id}/duplicate`, surfaceB(apiKey), { start: false });
    expect(draft.status, draft.text).to.equal(201);
    expect(draft.body).to.include({ status: 'draft' });
    expect(draft.body.mailboxIds).to.deep.equal([boxes[0], boxes[2]]);

    for (const box of [boxes[0], boxes[2]]) expect((await call('DELETE', `/v1/mailboxes/${box}`, surfaceB(apiKey))).status).to.equal(200);
    expect(await shown(id, apiKey)).to.deep.include({ aReason: 'no_active_mailbox', bReason: 'no_active_mailbox' });
    // A draft is edited without a workflow: to the account's remaining mailbox, and the reason goes.
    const moved = await call<{ mailboxIds: string[]; mailboxesReason: null }>('PATCH', `/v1/campaigns/${draft.body.id}`, surfaceB(apiKey), { mailboxIds: [boxes[1]] });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body).to.deep.include({ mailboxIds: [boxes[1]], mailboxesReason: null });
  });
});
