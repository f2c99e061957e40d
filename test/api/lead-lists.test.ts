import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { addLeadsToList, checkListsOwned, leadsOfListsSql } from '../../src/leads/lists/list-repository';
import { createAccount, request, surfaceA, surfaceB, useTestApi, type JsonResponse } from '../support/api';

interface ListB {
  id: string;
  name: string;
  leadCount: number;
  createdAt: string;
  updatedAt: string;
}

interface AddResultB {
  added: number;
  alreadyInList: number;
  notFound: { leadIds: string[]; emails: string[] };
}

describe('lead lists (/v1/lead-lists and /lead-lists)', () => {
  const t = useTestApi();

  const call = <T = Record<string, unknown>>(key: string, method: string, path: string, body?: unknown, surface: 'a' | 'b' = 'b'): Promise<JsonResponse<T & { error?: string }>> =>
    request<T & { error?: string }>(`${t.api.baseUrl}${path}`, {
      method,
      headers: { ...(surface === 'a' ? surfaceA(key) : surfaceB(key)), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /**
   * An account with leads <prefix>.a@, .b@, .c@example.com, their ids by letter. Written straight to
   * the table: the import has tests of its own, and these tests are about lists.
   */
  async function accountWithLeads(prefix: string): Promise<{ accountId: string; apiKey: string; ids: Record<'a' | 'b' | 'c', string> }> {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const ids = { a: '', b: '', c: '' };
    for (const [letter, name] of [['a', 'Ada'], ['b', 'Bob'], ['c', 'Cy']] as const) {
      ids[letter] = newId('lead');
      await t.db.sequelize.query(`INSERT INTO leads (id, account_id, email, first_name, source) VALUES ($1, $2, $3, $4, 'import')`, {
        bind: [ids[letter], accountId, `${prefix}.${letter}@example.com`, name],
      });
    }
    return { accountId, apiKey, ids };
  }

  it('creates, lists with counts, gets, renames and deletes a list on Surface B; a name is taken once per account whatever its case', async () => {
    const { apiKey, ids } = await accountWithLeads('crud');
    const created = await call<ListB>(apiKey, 'POST', '/v1/lead-lists', { name: '  Q3 prospects ' });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ name: 'Q3 prospects', leadCount: 0 });
    expect(created.body.id).to.match(/^list_/);

    const taken = await call(apiKey, 'POST', '/v1/lead-lists', { name: 'q3 PROSPECTS' });
    expect(taken.status).to.equal(409);
    expect(taken.body).to.deep.equal({ error: 'A lead list named "q3 PROSPECTS" already exists' });

    const other = await call<ListB>(apiKey, 'POST', '/v1/lead-lists', { name: 'Partners' });
    expect(other.status).to.equal(201);
    const added = await call<AddResultB>(apiKey, 'POST', `/v1/lead-lists/${created.body.id}/leads`, { leadIds: [ids.a, ids.b] });
    expect(added.body).to.deep.equal({ added: 2, alreadyInList: 0, notFound: { leadIds: [], emails: [] } });

    const page = await call<{ leadLists: ListB[]; pagination: unknown }>(apiKey, 'GET', '/v1/lead-lists');
    expect(page.status).to.equal(200);
    expect(page.body.leadLists.map((l) => [l.name, l.leadCount])).to.deep.equal([
      ['Q3 prospects', 2],
      ['Partners', 0],
    ]);
    expect(page.body.pagination).to.deep.equal({ page: 1, perPage: 20, total: 2 });
    const second = await call<{ leadLists: ListB[] }>(apiKey, 'GET', '/v1/lead-lists?page=2&perPage=1');
    expect(second.body.leadLists.map((l) => l.name)).to.deep.equal(['Partners']);

    const got = await call<ListB>(apiKey, 'GET', `/v1/lead-lists/${created.body.id}`);
    expect(got.body).to.include({ id: created.body.id, name: 'Q3 prospects', leadCount: 2 });

    // Its own name in another case is no conflict; another list's name is.
    const recased = await call<ListB>(apiKey, 'PATCH', `/v1/lead-lists/${created.body.id}`, { name: 'Q3 Prospects' });
    expect(recased.status, recased.text).to.equal(200);
    expect(recased.body).to.include({ name: 'Q3 Prospects', leadCount: 2 });
    const clash = await call(apiKey, 'PATCH', `/v1/lead-lists/${created.body.id}`, { name: 'partners' });
    expect(clash.status).to.equal(409);
    expect((await call<ListB>(apiKey, 'GET', `/v1/lead-lists/${created.body.id}`)).body.name).to.equal('Q3 Prospects');

    const deleted = await call(apiKey, 'DELETE', `/v1/lead-lists/${created.body.id}`);
    expect(deleted.status).to.equal(204);
    expect((await call(apiKey, 'GET', `/v1/lead-lists/${created.body.id}`)).status).to.equal(404);
    expect((await call(apiKey, 'DELETE', `/v1/lead-lists/${created.body.id}`)).status).to.equal(404);
    // Its leads stay.
    expect((await call(apiKey, 'GET', `/v1/leads/${ids.a}`)).status).to.equal(200);
    const [counted] = await t.db.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM lead_list_members WHERE list_id = $1', {
      bind: [created.body.id],
      type: QueryTypes.SELECT,
    });
    expect(Number(counted!.n)).to.equal(0);
  });

  it('adds leads by id and by address, counting those added, already in the list and not found; pages and removes them', async () => {
    const mine = await accountWithLeads('members');
    const theirs = await accountWithLeads('theirs');
    const list = (await call<ListB>(mine.apiKey, 'POST', '/v1/lead-lists', { name: 'Members' })).body;

    const first = await call<AddResultB>(mine.apiKey, 'POST', `/v1/lead-lists/${list.id}/leads`, { leadIds: [mine.ids.a] });
    expect(first.body).to.deep.equal({ added: 1, alreadyInList: 0, notFound: { leadIds: [], emails: [] } });

    const res = await call<AddResultB>(mine.apiKey, 'POST', `/v1/lead-lists/${list.id}/leads`, {
      // a again (by id), b by id and by address in another case, another account's lead by id and by address, unknowns.
      leadIds: [mine.ids.a, mine.ids.b, theirs.ids.a, 'lead_doesnotexist'],
      emails: ['MEMBERS.B@example.com', 'members.c@example.com', 'theirs.b@example.com', 'nobody@example.com'],
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({
      added: 2,
      alreadyInList: 1,
      notFound: { leadIds: [theirs.ids.a, 'lead_doesnotexist'], emails: ['theirs.b@example.com', 'nobody@example.com'] },
    });

    const page = await call<{ leads: Array<{ id: string; email: string; addedAt: string; customFields: object }>; pagination: unknown }>(
      mine.apiKey,
      'GET',
      `/v1/lead-lists/${list.id}/leads?perPage=2`,
    );
    expect(page.status, page.text).to.equal(200);
    expect(page.body.pagination).to.deep.equal({ page: 1, perPage: 2, total: 3 });
    expect(page.body.leads[0]).to.include({ id: mine.ids.a, email: 'members.a@example.com' });
    expect(page.body.leads).to.have.length(2);
    const rest = await call<{ leads: Array<{ email: string }> }>(mine.apiKey, 'GET', `/v1/lead-lists/${list.id}/leads?page=2&perPage=2`);
    expect(rest.body.leads).to.have.length(1);

    const removed = await call(mine.apiKey, 'DELETE', `/v1/lead-lists/${list.id}/leads/${mine.ids.b}`);
    expect(removed.status).to.equal(204);
    const again = await call(mine.apiKey, 'DELETE', `/v1/lead-lists/${list.id}/leads/${mine.ids.b}`);
    expect(again.status).to.equal(404);
    expect(again.body).to.deep.equal({ error: 'The lead is not in this list' });
    expect((await call<ListB>(mine.apiKey, 'GET', `/v1/lead-lists/${list.id}`)).body.leadCount).to.equal(2);
    // The lead stays in the account.
    expect((await call(mine.apiKey, 'GET', `/v1/leads/${mine.ids.b}`)).status).to.equal(200);
  });

  it("answers 404 for another account's list on every route, without revealing it or changing it", async () => {
    const owner = await accountWithLeads('owner');
    const other = await accountWithLeads('other');
    const list = (await call<ListB>(owner.apiKey, 'POST', '/v1/lead-lists', { name: 'Private' })).body;
    await call(owner.apiKey, 'POST', `/v1/lead-lists/${list.id}/leads`, { leadIds: [owner.ids.a] });

    const attempts = [
      call(other.apiKey, 'GET', `/v1/lead-lists/${list.id}`),
      call(other.apiKey, 'PATCH', `/v1/lead-lists/${list.id}`, { name: 'Mine now' }),
      call(other.apiKey, 'POST', `/v1/lead-lists/${list.id}/leads`, { leadIds: [other.ids.a] }),
      call(other.apiKey, 'GET', `/v1/lead-lists/${list.id}/leads`),
      call(other.apiKey, 'DELETE', `/v1/lead-lists/${list.id}/leads/${owner.ids.a}`),
      call(other.apiKey, 'DELETE', `/v1/lead-lists/${list.id}`),
      call(other.apiKey, 'GET', `/lead-lists/${list.id}`, undefined, 'a'),
      call(other.apiKey, 'GET', '/v1/lead-lists/list_doesnotexist'),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.text).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Lead list not found' });
    }
    const still = await call<ListB>(owner.apiKey, 'GET', `/v1/lead-lists/${list.id}`);
    expect(still.body).to.include({ name: 'Private', leadCount: 1 });
    expect((await call<{ leadLists: unknown[] }>(other.apiKey, 'GET', '/v1/lead-lists')).body.leadLists).to.deep.equal([]);
  });

  it('refuses bad input with a 400 naming the field, and stores nothing', async () => {
    const { accountId, apiKey, ids } = await accountWithLeads('bad');
    const list = (await call<ListB>(apiKey, 'POST', '/v1/lead-lists', { name: 'Target' })).body;
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/v1/lead-lists', { name: '' }, 'body.name must NOT have fewer than 1 characters'],
      ['POST', '/v1/lead-lists', { name: '   ' }, 'body.name must not be blank'],
      ['POST', '/v1/lead-lists', { name: 'x'.repeat(10_000) }, 'body.name must NOT have more than 200 characters'],
      ['POST', '/v1/lead-lists', {}, 'body is missing required field "name"'],
      ['POST', '/v1/lead-lists', { name: 'ok', extra: 1 }, 'body has unknown field "extra"'],
      ['PATCH', `/v1/lead-lists/${list.id}`, { name: 'y'.repeat(10_000) }, 'body.name must NOT have more than 200 characters'],
      ['POST', `/v1/lead-lists/${list.id}/leads`, { leadIds: Array.from({ length: 1001 }, (_, i) => `lead_${i}`) }, 'body.leadIds must NOT have more than 1000 items'],
      ['POST', `/v1/lead-lists/${list.id}/leads`, { emails: Array.from({ length: 1001 }, (_, i) => `p${i}@example.com`) }, 'body.emails must NOT have more than 1000 items'],
      [
        'POST',
        `/v1/lead-lists/${list.id}/leads`,
        { leadIds: Array.from({ length: 600 }, (_, i) => `lead_${i}`), emails: Array.from({ length: 401 }, (_, i) => `p${i}@example.com`) },
        'body.leadIds and body.emails name 1001 leads together; at most 1000 per call',
      ],
      ['POST', `/v1/lead-lists/${list.id}/leads`, {}, 'body must name at least one lead in leadIds or emails'],
      ['POST', `/v1/lead-lists/${list.id}/leads`, { leadIds: [''] }, 'body.leadIds.0 must NOT have fewer than 1 characters'],
      ['GET', '/v1/lead-lists?perPage=101', undefined, 'query.perPage must be <= 100'],
    ];
    for (const [method, path, body, error] of cases) {
      const res = await call(apiKey, method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).to.equal(400);
      expect(res.body, `${method} ${path}`).to.deep.equal({ error });
    }
    const lists = await t.db.sequelize.query<{ name: string }>('SELECT name FROM lead_lists WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT });
    expect(lists.map((l) => l.name)).to.deep.equal(['Target']);
    const [counted] = await t.db.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM lead_list_members WHERE list_id = $1', { bind: [list.id], type: QueryTypes.SELECT });
    expect(Number(counted!.n)).to.equal(0);
    // Exactly 1,000 is allowed.
    const full = await call<AddResultB>(apiKey, 'POST', `/v1/lead-lists/${list.id}/leads`, {
      leadIds: [ids.a, ...Array.from({ length: 999 }, (_, i) => `lead_missing${i}`)],
    });
    expect(full.status, full.text).to.equal(200);
    expect(full.body.added).to.equal(1);
    expect(full.body.notFound.leadIds).to.have.length(999);
  });

  it('serves the same on Surface A in snake_case with a Bearer key', async () => {
    const { apiKey, ids } = await accountWithLeads('surfa');
    const created = await call<{ id: string; name: string; lead_count: number; created_at: string }>(apiKey, 'POST', '/lead-lists', { name: 'From A' }, 'a');
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ name: 'From A', lead_count: 0 });
    const added = await call(apiKey, 'POST', `/lead-lists/${created.body.id}/leads`, { lead_ids: [ids.a], emails: ['surfa.b@example.com', 'who@example.com'] }, 'a');
    expect(added.body).to.deep.equal({ added: 2, already_in_list: 0, not_found: { lead_ids: [], emails: ['who@example.com'] } });
    const members = await call<{ leads: Array<Record<string, unknown>>; pagination: unknown }>(apiKey, 'GET', `/lead-lists/${created.body.id}/leads?per_page=10`, undefined, 'a');
    expect(members.status, members.text).to.equal(200);
    expect(members.body.pagination).to.deep.equal({ page: 1, per_page: 10, total: 2 });
    expect(members.body.leads[0]).to.include({ id: ids.a, email: 'surfa.a@example.com', first_name: 'Ada' });
    expect(members.body.leads[0]).to.have.property('added_at');
    const listed = await call<{ lead_lists: Array<{ name: string; lead_count: number }> }>(apiKey, 'GET', '/lead-lists', undefined, 'a');
    expect(listed.body.lead_lists).to.deep.equal([{ ...listed.body.lead_lists[0], name: 'From A', lead_count: 2 }]);
    const bad = await call(apiKey, 'POST', `/lead-lists/${created.body.id}/leads`, { leadIds: [ids.a] }, 'a');
    expect(bad.body).to.deep.equal({ error: 'body has unknown field "leadIds"' });
    // The surfaces keep their own credentials.
    expect((await call(apiKey, 'GET', '/lead-lists', undefined, 'b')).status).to.equal(401);
    expect((await call(apiKey, 'GET', '/v1/lead-lists', undefined, 'a')).status).to.equal(401);
    expect((await call(apiKey, 'DELETE', `/lead-lists/${created.body.id}`, undefined, 'a')).status).to.equal(204);
  });

  it("gives the lead's code what campaigns need: addLeadsToList, checkListsOwned and leadsOfListsSql", async () => {
    const mine = await accountWithLeads('repo');
    const theirs = await accountWithLeads('repothem');
    const one = (await call<ListB>(mine.apiKey, 'POST', '/v1/lead-lists', { name: 'One' })).body;
    const two = (await call<ListB>(mine.apiKey, 'POST', '/v1/lead-lists', { name: 'Two' })).body;
    const foreign = (await call<ListB>(theirs.apiKey, 'POST', '/v1/lead-lists', { name: 'One' })).body;

    const added = await t.db.sequelize.transaction((tx) => addLeadsToList(t.db.sequelize, tx, mine.accountId, one.id, [mine.ids.a, mine.ids.b, mine.ids.a, theirs.ids.c]));
    expect(added).to.equal(2);
    expect(await addLeadsToList(t.db.sequelize, null, mine.accountId, one.id, [mine.ids.a])).to.equal(0);
    await addLeadsToList(t.db.sequelize, null, mine.accountId, two.id, [mine.ids.b, mine.ids.c]);

    expect(await checkListsOwned(t.db.sequelize, mine.accountId, [one.id, foreign.id, 'list_nope', one.id])).to.deep.equal([foreign.id, 'list_nope']);
    expect(await checkListsOwned(t.db.sequelize, mine.accountId, [one.id, two.id])).to.deep.equal([]);

    const rows = await t.db.sequelize.query<{ id: string }>(
      `SELECT l.id FROM leads l WHERE l.account_id = $1 AND l.id IN (${leadsOfListsSql('$2::text[]')}) ORDER BY l.id`,
      { bind: [mine.accountId, [one.id, two.id]], type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => r.id)).to.deep.equal([mine.ids.a, mine.ids.b, mine.ids.c].sort());
  });
});
