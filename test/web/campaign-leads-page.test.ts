import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { enrolLeads, enrolSettingsOf } from '../../src/campaigns/enrolment/enrol-leads';
import { insertNewLeads } from '../../src/leads/lead-repository';
import { createAccount, request, surfaceB, useTestApi } from '../support/api';
import { seedCampaign, seedLead } from '../support/campaign-seed';
import { signIn, type DashboardSession } from '../support/dashboard-session';
import { expectPage, rowText as rowOf, visibleText } from './leads-page-support';

/**
 * A campaign's leads on the dashboard over HTTP, against the real app and PostgreSQL: enrol by
 * address from the campaign page, the answer's counts per reason, the list with its states,
 * reasons, state filter and pages, Remove, and what bad input, a missing CSRF token and another
 * account get. What is checked is what the user reads, and what the database then holds.
 */

/** The visible text of the table row of a lead. */
const rowText = (html: string, leadId: string): string => rowOf(html, 'data-lead-id', leadId);

describe('dashboard: a campaign\'s leads (HTTP)', () => {
  const t = useTestApi();
  let key = '';
  let accountId = '';
  let s: DashboardSession;
  let campaignId = '';
  let otherCampaignId = '';
  const leads: Record<string, string> = {};

  const enrolments = async (campaign: string): Promise<Array<{ lead_id: string; state: string; reason: string | null }>> =>
    t.db.sequelize.query('SELECT lead_id, state, reason FROM campaign_enrolments WHERE campaign_id = $1 ORDER BY lead_id', { bind: [campaign], type: QueryTypes.SELECT });
  const page = (campaign: string, query = '') => s.get(`/dashboard/campaigns/${campaign}/leads${query}`);
  const enrol = (campaign: string, emails: string) => s.submit(`/dashboard/campaigns/${campaign}/leads/enrol`, { emails }, `/dashboard/campaigns/${campaign}`);

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Leads Co'));
    campaignId = (await seedCampaign(accountId, { name: 'Winter <push>' })).id;
    otherCampaignId = (await seedCampaign(accountId, { name: 'Autumn push' })).id;
    for (const name of ['ada', 'grace', 'busy', 'blocked']) leads[name] = (await seedLead(accountId, { email: `${name}@leads.example`, firstName: name })).id;
    s = await signIn(t.api.baseUrl, key);
  });

  it('links the leads page from the campaign page, which has the enrol box; an empty campaign says so', async () => {
    const campaign = await s.get(`/dashboard/campaigns/${campaignId}`);
    expectPage(campaign, 200);
    expect(campaign.text).to.include(`href="/dashboard/campaigns/${campaignId}/leads"`);
    expect(campaign.text).to.include(`action="/dashboard/campaigns/${campaignId}/leads/enrol"`);
    const empty = await page(campaignId);
    expectPage(empty, 200);
    const text = visibleText(empty.text);
    expect(text).to.include('Leads of Winter <push>').and.include('No lead is in this campaign yet').and.include('All (0)');
    expect(empty.text).to.not.include('<push>');
  });

  it('enrols by address from the campaign page and answers with the counts per reason', async () => {
    // busy is in another active campaign; blocked is on the blocklist.
    expectPage(await enrol(otherCampaignId, 'busy@leads.example'), 200);
    const blocked = await request(`${t.api.baseUrl}/v1/blocklist`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'application/json' }, body: JSON.stringify({ value: 'blocked@leads.example' }) });
    expect(blocked.status).to.equal(200);

    const answer = await enrol(campaignId, ' ADA@leads.example\r\nGrace <grace@leads.example>\n\nbusy@leads.example\nblocked@leads.example\nnobody@leads.example\nada@leads.example\n');
    expectPage(answer, 200);
    const outcome = visibleText(/<div class="test-outcome" role="status" id="enrol-outcome">[\s\S]*?<\/div>/.exec(answer.text)?.[0] ?? '');
    expect(outcome).to.include('2 added of 5 addresses');
    expect(outcome).to.include('Skipped, in another campaign (Autumn push): 1');
    expect(outcome).to.include('Skipped, blocklisted: 1');
    expect(outcome).to.include('Not a lead of yours: 1 (nobody@leads.example)');

    const rows = await enrolments(campaignId);
    expect(rows.map((r) => [r.lead_id, r.state]).sort()).to.deep.equal(
      [[leads.ada, 'queued'], [leads.grace, 'queued'], [leads.busy, 'skipped'], [leads.blocked, 'skipped']].sort(),
    );

    // Enrolling the same again adds nobody.
    const again = await enrol(campaignId, 'ada@leads.example');
    expect(visibleText(again.text)).to.include('0 added of 1 address').and.include('Already in this campaign: 1');
  });

  it('lists the leads with state, step, next send and the reason of every skipped one, and filters by state', async () => {
    const all = await page(campaignId);
    expectPage(all, 200);
    expect(visibleText(all.text)).to.include('All (4)').and.include('Queued (2)').and.include('Skipped (2)').and.include('Removed (0)');
    expect(rowText(all.text, leads.ada!)).to.include('ada@leads.example').and.include('Queued').and.include('first email to go').and.include('next sending day');
    // The campaign writes everyone in its own zone (UTC by default).
    expect(rowText(all.text, leads.ada!)).to.include("UTC, the campaign's zone");
    const busy = rowText(all.text, leads.busy!);
    expect(busy).to.include('Skipped').and.include('in another campaign (Autumn push)');
    expect(all.text).to.include(`href="/dashboard/campaigns/${otherCampaignId}"`);
    expect(rowText(all.text, leads.blocked!)).to.include('Skipped').and.include('blocklisted');
    // Only leads whose sequence is under way can be removed.
    expect(all.text).to.include(`/leads/${leads.ada}/remove"`);
    expect(all.text).to.not.include(`/leads/${leads.busy}/remove"`);

    const skipped = await page(campaignId, '?state=skipped');
    expectPage(skipped, 200);
    expect(skipped.text).to.include(`data-lead-id="${leads.busy}"`).and.include(`data-lead-id="${leads.blocked}"`);
    expect(skipped.text).to.not.include(`data-lead-id="${leads.ada}"`);
    expect(skipped.text).to.match(/aria-current="page">Skipped/);
    expect(visibleText(skipped.text)).to.include('2 leads in this state');

    const none = await page(campaignId, '?state=replied');
    expect(visibleText(none.text)).to.include('No lead of this campaign is in this state.');
    const bad = await page(campaignId, '?state=asleep');
    expectPage(bad, 400);
    expect(visibleText(bad.text)).to.include('state');
  });

  it('removes an active lead: the row says removed, with the reason, and has no Remove any more', async () => {
    const answer = await s.submit(`/dashboard/campaigns/${campaignId}/leads/${leads.grace}/remove`, { state: 'queued' }, `/dashboard/campaigns/${campaignId}/leads`);
    expectPage(answer, 303);
    expect(answer.location).to.equal(`/dashboard/campaigns/${campaignId}/leads?state=queued&notice=removed`);
    const after = await s.get(answer.location!);
    expect(visibleText(after.text)).to.include('The lead was removed from the campaign');
    expect(after.text).to.not.include(`data-lead-id="${leads.grace}"`);
    const all = await page(campaignId);
    expect(rowText(all.text, leads.grace!)).to.include('Removed').and.include('removed by the user');
    expect(all.text).to.not.include(`/leads/${leads.grace}/remove"`);
    expect((await enrolments(campaignId)).find((r) => r.lead_id === leads.grace)).to.include({ state: 'removed', reason: 'removed by the user' });

    const notIn = await s.submit(`/dashboard/campaigns/${otherCampaignId}/leads/${leads.ada}/remove`, {}, `/dashboard/campaigns/${campaignId}/leads`);
    expectPage(notIn, 404);
    expect(visibleText(notIn.text)).to.include('That lead is not in this campaign.');
  });

  it('pages 50 leads at a time', async () => {
    const big = await seedCampaign(accountId, { name: 'Big one' });
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) ids.push((await seedLead(accountId, { email: `bulk${String(i).padStart(3, '0')}@bulk.example` })).id);
    const settings = await enrolSettingsOf(t.db.sequelize, accountId, big.id);
    await enrolLeads(t.db.sequelize, settings!, ids, { source: 'manual', day: null, retake: true });
    const first = await page(big.id);
    expect(visibleText(first.text)).to.include('120 leads').and.include('Page 1 of 3');
    expect((first.text.match(/data-lead-id=/g) ?? []).length).to.equal(50);
    expect(first.text).to.include(`href="/dashboard/campaigns/${big.id}/leads?page=2"`);
    const last = await page(big.id, '?page=3');
    expect((last.text.match(/data-lead-id=/g) ?? []).length).to.equal(20);
    // The three pages hold each lead once.
    const shown = [first, await page(big.id, '?page=2'), last].flatMap((p) => [...p.text.matchAll(/data-lead-id="([^"]+)"/g)].map((m) => m[1]));
    expect([...new Set(shown)].sort()).to.deep.equal([...ids].sort());
  });

  it('takes 1,000 addresses in one box (more than the usual form size)', async () => {
    const c = await seedCampaign(accountId, { name: 'Thousand' });
    const lines = Array.from({ length: 1000 }, (_, i) => `someone.with.a.long.name.${i}@a-rather-long-company-domain.example`);
    lines[999] = 'bulk000@bulk.example';
    const answer = await enrol(c.id, lines.join('\n'));
    expectPage(answer, 200);
    expect(visibleText(answer.text)).to.include('of 1000 addresses').and.include('Not a lead of yours: 999');
  });

  it('refuses an empty box and 1,001 lines with the error on the page, and stores nothing', async () => {
    const c = await seedCampaign(accountId, { name: 'Refusals' });
    const empty = await enrol(c.id, ' \n \n');
    expectPage(empty, 400);
    expect(visibleText(empty.text)).to.include('Enter at least one email address, one per line.');
    expect(empty.text).to.include('aria-invalid="true"');

    const tooMany = Array.from({ length: 1001 }, (_, i) => `x${i}@leads.example`);
    tooMany[0] = 'ada@leads.example';
    const answer = await enrol(c.id, tooMany.join('\n'));
    expectPage(answer, 400);
    expect(visibleText(answer.text)).to.include('1,001 lines: at most 1,000 addresses can be enrolled at once');
    // What was typed is kept, to be split and sent again.
    expect(answer.text).to.include('x1000@leads.example');
    expect(await enrolments(c.id)).to.deep.equal([]);
  });

  it('refuses to enrol into an ended campaign (409) and says so on its page', async () => {
    const ended = await seedCampaign(accountId, { name: 'Done', status: 'completed' });
    const campaign = await s.get(`/dashboard/campaigns/${ended.id}`);
    expect(campaign.text).to.not.include('/leads/enrol"');
    const leadsPage = await page(ended.id);
    expect(visibleText(leadsPage.text)).to.include('This campaign has ended: no lead can be enrolled into it any more.');
    const answer = await s.submit(`/dashboard/campaigns/${ended.id}/leads/enrol`, { emails: 'ada@leads.example' }, `/dashboard/campaigns/${campaignId}`);
    expectPage(answer, 409);
    expect(visibleText(answer.text)).to.include('This campaign is completed');
    expect(await enrolments(ended.id)).to.deep.equal([]);
  });

  it('refuses enrol and remove without the CSRF token (403) and changes nothing', async () => {
    const before = await enrolments(campaignId);
    for (const fields of [{}, { _csrf: 'forged' }]) {
      const e = await s.post(`/dashboard/campaigns/${campaignId}/leads/enrol`, { ...fields, emails: 'x0@leads.example' });
      expectPage(e, 403);
      expect(visibleText(e.text)).to.include('This form has expired or did not come from this dashboard');
      expectPage(await s.post(`/dashboard/campaigns/${campaignId}/leads/${leads.ada}/remove`, fields), 403);
    }
    expect(await enrolments(campaignId)).to.deep.equal(before);
  });

  it('a campaign in each lead\'s hours shows the zone each lead is written in and where it comes from', async () => {
    const zoned = await seedCampaign(accountId, { name: 'Round the world', timezone: 'Europe/Lisbon', leadTimezones: true });
    const lead = (email: string, city: string | null, country: string | null) => ({
      email, firstName: null, lastName: null, title: null, company: null, companyDomain: null, industry: null, city, state: null, country, linkedinUrl: null, phone: null,
    });
    await t.db.sequelize.transaction((tx) =>
      insertNewLeads(t.db.sequelize, tx, accountId, 'import', [lead('kyoko@zones.example', 'Tokyo', 'Japan'), lead('bruno@zones.example', null, 'Brazil'), lead('anon@zones.example', null, null)]),
    );
    const ids = await t.db.sequelize.query<{ id: string; email: string }>(`SELECT id, email FROM leads WHERE email LIKE '%@zones.example'`, { type: QueryTypes.SELECT });
    const settings = await enrolSettingsOf(t.db.sequelize, accountId, zoned.id);
    await enrolLeads(t.db.sequelize, settings!, ids.map((r) => r.id), { source: 'manual', day: null, retake: true });
    const view = await page(zoned.id);
    expectPage(view, 200);
    expect(view.text).to.include('<th scope="col">Time zone</th>');
    const idOf = (email: string): string => ids.find((r) => r.email === email)!.id;
    expect(rowText(view.text, idOf('kyoko@zones.example'))).to.include('Asia/Tokyo, from their city');
    expect(rowText(view.text, idOf('bruno@zones.example'))).to.include('America/Sao_Paulo, from their country');
    expect(rowText(view.text, idOf('anon@zones.example'))).to.include("Europe/Lisbon, the campaign's zone");
  });

  it("answers another account's campaign with a 404 page and touches nothing of it", async () => {
    const other = await createAccount(t.db.sequelize, 'free', 'Other Co');
    const theirs = await seedCampaign(other.accountId, { name: 'Their secret campaign' });
    const theirLead = await seedLead(other.accountId, { email: 'theirs@other.example' });
    const settings = await enrolSettingsOf(t.db.sequelize, other.accountId, theirs.id);
    await enrolLeads(t.db.sequelize, settings!, [theirLead.id], { source: 'manual', day: null, retake: true });
    const view = await page(theirs.id);
    expectPage(view, 404);
    expect(view.text).to.not.include('Their secret campaign').and.not.include('theirs@other.example');
    expectPage(await s.submit(`/dashboard/campaigns/${theirs.id}/leads/enrol`, { emails: 'ada@leads.example' }, `/dashboard/campaigns/${campaignId}`), 404);
    expectPage(await s.submit(`/dashboard/campaigns/${theirs.id}/leads/${theirLead.id}/remove`, {}, `/dashboard/campaigns/${campaignId}`), 404);
    expect((await enrolments(theirs.id)).map((r) => r.state)).to.deep.equal(['queued']);
  });
});
