import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { isBlocked } from '../../src/blocklist/blocklist-repository';
import { createAccount, useTestApi } from '../support/api';
import { signIn, type DashboardSession } from '../support/dashboard-session';
import { expectPage, rowText, visibleText } from './leads-page-support';

/**
 * The blocklist page over HTTP, against the real app and PostgreSQL: add an address or a domain
 * (checked as the API checks it), the suppression list with its cause, filters and pages, Remove,
 * bad values, the CSRF check and another account's entries.
 */
describe('dashboard: blocklist (HTTP)', () => {
  const t = useTestApi();
  let key = '';
  let accountId = '';
  let s: DashboardSession;
  const PATH = '/dashboard/blocklist';

  const entries = async (account = accountId): Promise<Array<{ id: string; kind: string; value: string; reason: string | null }>> =>
    t.db.sequelize.query('SELECT id, kind, value, reason FROM blocklist_entries WHERE account_id = $1 ORDER BY value', { bind: [account], type: QueryTypes.SELECT });

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Block Co'));
    await t.db.sequelize.query(
      `INSERT INTO suppressions (account_id, email, reason) VALUES ($1, 'gone@bounce.example', 'hard_bounce'), ($1, 'nope@unsub.example', 'unsubscribe')`,
      { bind: [accountId] },
    );
    s = await signIn(t.api.baseUrl, key);
  });

  it('is in the navigation; an empty list says so', async () => {
    const page = await s.get(PATH);
    expectPage(page, 200);
    expect(page.text).to.match(/<a href="\/dashboard\/blocklist" aria-current="page">Blocklist<\/a>/);
    expect(visibleText(page.text)).to.include('0 entries').and.include('Nothing here yet.');
  });

  it('blocks an address and a domain (written as a website), which then block sending', async () => {
    let answer = await s.submit(PATH, { value: ' Ada <ADA@Leads.Example> ', reason: 'asked by phone' }, PATH);
    expectPage(answer, 303);
    expect(answer.location).to.equal(`${PATH}?notice=added`);
    answer = await s.submit(PATH, { value: 'https://www.competitor.example/about', reason: '' }, PATH);
    expectPage(answer, 303);
    const page = await s.get(answer.location!);
    expect(visibleText(page.text)).to.include('Blocked: no campaign of yours emails it from now on');
    expect(rowText(page.text, 'data-value', 'ada@leads.example')).to.include('Address').and.include('asked by phone').and.include('added by you');
    expect(rowText(page.text, 'data-value', 'competitor.example')).to.include('Domain (and its subdomains)');
    expect(await isBlocked(t.db.sequelize, accountId, 'sales@eu.competitor.example')).to.equal(true);
    expect(await isBlocked(t.db.sequelize, accountId, 'ada@leads.example')).to.equal(true);

    const again = await s.submit(PATH, { value: 'ada@leads.example', reason: 'other' }, PATH);
    expect(again.location).to.equal(`${PATH}?notice=already-listed`);
    expect((await entries()).map((e) => [e.value, e.reason])).to.deep.equal([['ada@leads.example', 'asked by phone'], ['competitor.example', null]]);
  });

  it('refuses a value that is neither an address nor a domain, with the error on the page, and stores nothing', async () => {
    const before = await entries();
    for (const [value, message] of [
      ['not a thing', '"not a thing" is neither an email address nor a domain'],
      ['co.uk', 'a public suffix'],
      ['ada@@x', 'is not a valid email address'],
      ['   ', 'the value is empty'],
    ] as const) {
      const answer = await s.submit(PATH, { value, reason: 'why not' }, PATH);
      expectPage(answer, 400);
      expect(visibleText(answer.text)).to.include('Not added:').and.include(message);
      expect(answer.text).to.include('aria-describedby="add-error"');
    }
    const long = await s.submit(PATH, { value: 'fine.example', reason: 'r'.repeat(501) }, PATH);
    expectPage(long, 400);
    expect(visibleText(long.text)).to.include('the reason is 501 characters long, at most 500');
    expect(await entries()).to.deep.equal(before);
  });

  it('shows the suppression list with its cause, read-only, and filters by kind and text', async () => {
    const sup = await s.get(`${PATH}?view=suppression`);
    expectPage(sup, 200);
    expect(rowText(sup.text, 'data-value', 'gone@bounce.example')).to.include('Suppressed address').and.include('bounced').and.include('stays suppressed');
    expect(rowText(sup.text, 'data-value', 'nope@unsub.example')).to.include('unsubscribed');
    expect(sup.text).to.not.include('data-value="ada@leads.example"');
    // Suppressions are not removed through the blocklist: no Remove on them.
    expect(sup.text).to.not.include('/remove"');

    const all = await s.get(`${PATH}?view=all`);
    expect(visibleText(all.text)).to.include('4 entries');
    const domains = await s.get(`${PATH}?view=domain`);
    expect(visibleText(domains.text)).to.include('1 entry');
    const search = await s.get(`${PATH}?view=all&q=LEADS`);
    expect(visibleText(search.text)).to.include('1 entry');
    expect(search.text).to.include('data-value="ada@leads.example"');
    expectPage(await s.get(`${PATH}?view=everything`), 400);
  });

  it('pages 50 entries at a time', async () => {
    await t.db.sequelize.query(
      `INSERT INTO blocklist_entries (account_id, kind, value, source, created_at)
       SELECT $1, 'domain', 'bulk' || lpad(n::text, 3, '0') || '.example', 'import', now() - n * interval '1 minute' FROM generate_series(1, 60) n`,
      { bind: [accountId] },
    );
    const first = await s.get(PATH);
    expect(visibleText(first.text)).to.include('62 entries').and.include('Page 1 of 2');
    expect((first.text.match(/<tr data-value=/g) ?? []).length).to.equal(50);
    const second = await s.get(`${PATH}?page=2`);
    expect((second.text.match(/<tr data-value=/g) ?? []).length).to.equal(12);
    expect(second.text).to.include('bulk060.example');
  });

  it('removes an entry and comes back to the list as it was filtered', async () => {
    const [entry] = (await entries()).filter((e) => e.value === 'competitor.example');
    const answer = await s.submit(`${PATH}/${entry!.id}/remove`, { back: '?view=domain&q=comp' }, PATH);
    expectPage(answer, 303);
    expect(answer.location).to.equal(`${PATH}?view=domain&q=comp&notice=removed`);
    const page = await s.get(answer.location!);
    expect(visibleText(page.text)).to.include('The entry was removed from the blocklist.').and.include('Nothing here contains “comp”.');
    expect(await isBlocked(t.db.sequelize, accountId, 'sales@competitor.example')).to.equal(false);
    expectPage(await s.submit(`${PATH}/${entry!.id}/remove`, {}, PATH), 404);
  });

  it('refuses add and remove without the CSRF token (403) and changes nothing', async () => {
    const before = await entries();
    for (const fields of [{}, { _csrf: 'forged' }]) {
      expectPage(await s.post(PATH, { ...fields, value: 'forged.example' }), 403);
      expectPage(await s.post(`${PATH}/${before[0]!.id}/remove`, fields), 403);
    }
    expect(await entries()).to.deep.equal(before);
  });

  it("shows none of another account's entries and cannot remove them", async () => {
    const other = await createAccount(t.db.sequelize, 'free', 'Other Co');
    await t.db.sequelize.query(`INSERT INTO blocklist_entries (account_id, kind, value, source) VALUES ($1, 'domain', 'theirs.example', 'user')`, { bind: [other.accountId] });
    const [theirs] = await entries(other.accountId);
    expect((await s.get(`${PATH}?view=all&q=theirs`)).text).to.not.include('theirs.example');
    const answer = await s.submit(`${PATH}/${theirs!.id}/remove`, {}, PATH);
    expectPage(answer, 404);
    expect(await entries(other.accountId)).to.have.length(1);
  });
});
