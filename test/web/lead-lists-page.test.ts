import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { addLeadsToList, createList } from '../../src/leads/lists/list-repository';
import { createAccount, request, surfaceB, useTestApi } from '../support/api';
import { seedLead } from '../support/campaign-seed';
import { signIn, type DashboardSession } from '../support/dashboard-session';
import { expectPage, rowText, visibleText } from './leads-page-support';

/**
 * The lead lists page over HTTP, against the real app and PostgreSQL: lists with their counts,
 * create, rename and delete through the forms, what a taken or empty name gets, the CSRF check,
 * and another account's list. The API is asked afterwards, as a user's integration would see it.
 */
describe('dashboard: lead lists (HTTP)', () => {
  const t = useTestApi();
  let key = '';
  let accountId = '';
  let s: DashboardSession;
  const PATH = '/dashboard/lead-lists';

  const names = async (): Promise<string[]> =>
    (await t.db.sequelize.query<{ name: string }>('SELECT name FROM lead_lists WHERE account_id = $1 ORDER BY created_at', { bind: [accountId], type: QueryTypes.SELECT })).map((r) => r.name);

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Lists Co'));
    const list = await createList(t.db.sequelize, accountId, 'Berlin CTOs');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await seedLead(accountId)).id);
    await addLeadsToList(t.db.sequelize, null, accountId, list.id, ids);
    s = await signIn(t.api.baseUrl, key);
  });

  it('is in the navigation and lists the lists with their counts', async () => {
    const page = await s.get(PATH);
    expectPage(page, 200);
    expect(page.text).to.match(/<a href="\/dashboard\/lead-lists" aria-current="page">Lead lists<\/a>/);
    expect(page.text).to.include('<a href="/dashboard/blocklist">Blocklist</a>');
    const [list] = (await request<{ leadLists: Array<{ id: string }> }>(`${t.api.baseUrl}/v1/lead-lists`, { headers: surfaceB(key) })).body.leadLists;
    const row = rowText(page.text, 'data-list-id', list!.id);
    expect(row).to.include('Berlin CTOs').and.include(' 3 ');
    expect(visibleText(page.text)).to.include('1 list, oldest first');
  });

  it('creates a list (its name as text), shown with 0 leads and known to the API', async () => {
    const answer = await s.submit(PATH, { name: '  Trade fair <2026>  ' }, PATH);
    expectPage(answer, 303);
    expect(answer.location).to.equal(`${PATH}?notice=created`);
    const page = await s.get(answer.location!);
    expect(visibleText(page.text)).to.include('The list was created.').and.include('Trade fair <2026>');
    expect(page.text).to.include('Trade fair &lt;2026&gt;').and.not.include('<2026>');
    const api = await request<{ leadLists: Array<{ name: string; leadCount: number }> }>(`${t.api.baseUrl}/v1/lead-lists`, { headers: surfaceB(key) });
    expect(api.body.leadLists.map((l) => [l.name, l.leadCount])).to.deep.equal([['Berlin CTOs', 3], ['Trade fair <2026>', 0]]);
  });

  it('refuses an empty, too long or taken name with the error beside the form, and stores nothing', async () => {
    for (const [name, status, message] of [
      ['   ', 400, 'Enter a name for the list.'],
      ['x'.repeat(201), 400, 'The name is 201 characters long: at most 200.'],
      ['berlin ctos', 409, 'A lead list named "berlin ctos" already exists: choose another name (case is ignored).'],
    ] as const) {
      const answer = await s.submit(PATH, { name }, PATH);
      expectPage(answer, status);
      expect(visibleText(answer.text)).to.include(message);
      expect(answer.text).to.include('aria-describedby="create-error"');
    }
    expect(await names()).to.deep.equal(['Berlin CTOs', 'Trade fair <2026>']);
  });

  it('renames a list, and refuses a name another list has', async () => {
    const [first, second] = (await request<{ leadLists: Array<{ id: string }> }>(`${t.api.baseUrl}/v1/lead-lists`, { headers: surfaceB(key) })).body.leadLists;
    const answer = await s.submit(`${PATH}/${second!.id}/rename`, { name: 'Trade fair 2026' }, PATH);
    expectPage(answer, 303);
    expect(answer.location).to.equal(`${PATH}?notice=renamed`);
    expect(rowText((await s.get(PATH)).text, 'data-list-id', second!.id)).to.include('Trade fair 2026');

    const taken = await s.submit(`${PATH}/${first!.id}/rename`, { name: 'TRADE FAIR 2026' }, PATH);
    expectPage(taken, 409);
    expect(visibleText(taken.text)).to.include('already exists');
    // The failed rename's form is open, with what was typed.
    expect(taken.text).to.match(/<details open>/);
    expect(taken.text).to.include('value="TRADE FAIR 2026"');
    expect(await names()).to.deep.equal(['Berlin CTOs', 'Trade fair 2026']);
  });

  it('deletes a list; its leads stay in the account', async () => {
    const [first] = (await request<{ leadLists: Array<{ id: string }> }>(`${t.api.baseUrl}/v1/lead-lists`, { headers: surfaceB(key) })).body.leadLists;
    const leadsBefore = await t.db.sequelize.query('SELECT id FROM leads WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT });
    const answer = await s.submit(`${PATH}/${first!.id}/delete`, {}, PATH);
    expectPage(answer, 303);
    const page = await s.get(answer.location!);
    expect(visibleText(page.text)).to.include('The list was deleted. Its leads stay in your account');
    expect(page.text).to.not.include(first!.id);
    expect(await names()).to.deep.equal(['Trade fair 2026']);
    expect(await t.db.sequelize.query('SELECT id FROM leads WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT })).to.have.length(leadsBefore.length);
  });

  it('refuses create, rename and delete without the CSRF token (403) and changes nothing', async () => {
    const [list] = (await request<{ leadLists: Array<{ id: string }> }>(`${t.api.baseUrl}/v1/lead-lists`, { headers: surfaceB(key) })).body.leadLists;
    for (const fields of [{}, { _csrf: 'forged' }]) {
      expectPage(await s.post(PATH, { ...fields, name: 'Forged' }), 403);
      expectPage(await s.post(`${PATH}/${list!.id}/rename`, { ...fields, name: 'Forged' }), 403);
      expectPage(await s.post(`${PATH}/${list!.id}/delete`, fields), 403);
    }
    expect(await names()).to.deep.equal(['Trade fair 2026']);
  });

  it("answers another account's list with a 404 page and leaves it as it was", async () => {
    const other = await createAccount(t.db.sequelize, 'free', 'Other Co');
    const theirs = await createList(t.db.sequelize, other.accountId, 'Their list');
    expect((await s.get(PATH)).text).to.not.include('Their list');
    for (const answer of [await s.submit(`${PATH}/${theirs.id}/rename`, { name: 'Mine now' }, PATH), await s.submit(`${PATH}/${theirs.id}/delete`, {}, PATH)]) {
      expectPage(answer, 404);
      expect(visibleText(answer.text)).to.include('Lead list not found.');
    }
    const [row] = await t.db.sequelize.query<{ name: string }>('SELECT name FROM lead_lists WHERE id = $1', { bind: [theirs.id], type: QueryTypes.SELECT });
    expect(row!.name).to.equal('Their list');
  });
});
