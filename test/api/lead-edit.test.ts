import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { blockAddress } from '../../src/blocklist/blocklist-repository';
import { addLeadsToList, createList } from '../../src/leads/lists/list-repository';
import { profileSourceOf } from '../../src/leads/lead-repository';
import { profileValues } from '../../src/leads/profile-columns';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { emitEvent } from '../../src/webhooks/outbox-repository';
import { seedCampaign, seedEmail, seedFact, seedLead, seedReply } from '../support/campaign-seed';
import { createAccount, request, surfaceA, surfaceB, useTestApi, type JsonResponse } from '../support/api';

interface LeadWithStatus {
  id: string;
  email: string;
  firstName: string | null;
  title: string | null;
  companyDomain: string | null;
  phone: string | null;
  customFields: Record<string, string>;
  status: string | null;
}

describe('lead state from outside (PATCH and DELETE /v1/leads/:id)', () => {
  const t = useTestApi();
  const q = <T extends object>(sql: string, bind: unknown[] = []) => t.db.sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });

  const patch = (key: string, id: string, body: unknown): Promise<JsonResponse<LeadWithStatus & { error?: string }>> =>
    request(`${t.api.baseUrl}/v1/leads/${id}`, { method: 'PATCH', headers: { ...surfaceB(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const erase = (key: string, id: string) => request(`${t.api.baseUrl}/v1/leads/${id}`, { method: 'DELETE', headers: surfaceB(key) });

  async function leadOf(accountId: string, fields: Record<string, unknown> = {}) {
    const lead = await seedLead(accountId, { title: 'Office Manager', company: 'Acme' });
    if (Object.keys(fields).length > 0) await lead.update(fields);
    return lead;
  }

  /** An enrolment of the lead in a running campaign, in its sequence. */
  async function enrol(accountId: string, leadId: string): Promise<string> {
    const campaign = await seedCampaign(accountId);
    await t.db.sequelize.query(
      `INSERT INTO campaign_enrolments (campaign_id, lead_id, account_id, state, step, source) VALUES ($1, $2, $3, 'in_sequence', 0, 'audience')`,
      { bind: [campaign.id, leadId, accountId] },
    );
    return campaign.id;
  }

  it("edits fields and custom fields, recomputing the profile audiences match on, and answers the lead as GET shows it with its status", async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const lead = await leadOf(accountId, { customFields: { plan: 'free', owner: 'sam' } });

    const res = await patch(apiKey, lead.id, {
      title: 'VP of Engineering',
      city: 'Berlin',
      country: 'Germany',
      companyDomain: 'https://www.Quux.example/about',
      phone: '  ',
      customFields: { plan: 'pro', owner: null, favourite_colour: 'green' },
    });
    expect(res.status, res.text).to.equal(200);
    const get = await request<Record<string, unknown>>(`${t.api.baseUrl}/v1/leads/${lead.id}`, { headers: surfaceB(apiKey) });
    expect(res.body).to.deep.equal({ ...get.body, status: null });
    expect(res.body).to.include({ title: 'VP of Engineering', companyDomain: 'quux.example', phone: null });
    expect(res.body.customFields).to.deep.equal({ plan: 'pro', favourite_colour: 'green' });

    // The stored profile is what an import of the same values computes.
    const [row] = await q<{ title_norm: string | null; seniority: string | null; department: string | null; country_code: string | null; city_norm: string | null }>(
      'SELECT title_norm, seniority, department, country_code, city_norm FROM leads WHERE id = $1',
      [lead.id],
    );
    const expected = profileValues(
      profileSourceOf({ email: lead.email, firstName: null, lastName: null, title: 'VP of Engineering', company: 'Acme', companyDomain: null, industry: null, city: 'Berlin', state: null, country: 'Germany', linkedinUrl: null, phone: null }),
    );
    expect([row!.title_norm, row!.seniority, row!.department, row!.country_code, row!.city_norm]).to.deep.equal([expected[2], expected[3], expected[4], expected[5], expected[7]]);
    expect(row).to.include({ seniority: 'vp', country_code: 'DE' });

    // Removing the last custom field leaves none.
    const cleared = await patch(apiKey, lead.id, { customFields: { plan: '', favourite_colour: null } });
    expect(cleared.body.customFields).to.deep.equal({});
  });

  it('refuses bad input with a 400 naming the field and writes nothing; 404 for an unknown lead or one of another account', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    const lead = await leadOf(accountId);
    const campaignId = await enrol(accountId, lead.id);
    const cases: Array<[unknown, string]> = [
      [{ email: 'new@example.com' }, "body.email cannot be changed: an address is the lead's identity; import a new lead instead"],
      [{ status: 'vip' }, 'body.status must be one of "interested", "not_interested", "do_not_contact", null'],
      [{ customFields: { 'Favourite Colour': 'red' } }, 'body.customFields has an invalid field name "Favourite Colour": names are lower-case a-z, 0-9 and _, start with a letter and have at most 40 characters (as imported: "favourite_colour")'],
      [{ customFields: { ['a'.repeat(41)]: 'x' } }, `body.customFields has an invalid field name "${'a'.repeat(41)}": names are lower-case a-z, 0-9 and _, start with a letter and have at most 40 characters (as imported: "${'a'.repeat(40)}")`],
      // A valid status and title with a bad phone: nothing of it is written, the sequence is not ended.
      [{ status: 'do_not_contact', title: 'CEO', phone: 'call me' }, 'body.phone is not a phone number'],
      [{ linkedinUrl: 'https://example.com/in/ada' }, 'body.linkedinUrl is not a LinkedIn profile URL (https://www.linkedin.com/in/...)'],
      [{ companyDomain: 'not a domain' }, 'body.companyDomain is not a domain or website address'],
      [{ title: 'x'.repeat(10_000) }, 'body.title must NOT have more than 200 characters'],
      [{ nickname: 'Ace' }, 'body has unknown field "nickname"'],
      [{}, 'body must set at least one of status, customFields or a lead field'],
    ];
    for (const [body, error] of cases) {
      const res = await patch(apiKey, lead.id, body);
      expect(res.status, res.text).to.equal(400);
      expect(res.body).to.deep.equal({ error });
    }
    const [row] = await q<{ email: string; title: string; phone: string | null; user_status: string | null; custom_fields: unknown }>(
      'SELECT email, title, phone, user_status, custom_fields FROM leads WHERE id = $1',
      [lead.id],
    );
    expect(row).to.deep.equal({ email: lead.email, title: 'Office Manager', phone: null, user_status: null, custom_fields: null });
    expect(await q('SELECT 1 FROM blocklist_entries WHERE account_id = $1', [accountId])).to.deep.equal([]);
    expect(await q<{ state: string }>('SELECT state FROM campaign_enrolments WHERE campaign_id = $1', [campaignId])).to.deep.equal([{ state: 'in_sequence' }]);

    for (const res of [await patch(apiKey, 'lead_doesnotexist', { title: 'CEO' }), await patch(other.apiKey, lead.id, { status: 'do_not_contact' }), await erase(other.apiKey, lead.id)]) {
      expect(res.status, res.text).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Lead not found' });
    }
    expect((await q<{ user_status: string | null }>('SELECT user_status FROM leads WHERE id = $1', [lead.id]))[0]).to.deep.equal({ user_status: null });
  });

  it('a status ends the lead\'s active sequences; do_not_contact also blocks the address; null clears the status', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const lead = await leadOf(accountId);
    const first = await enrol(accountId, lead.id);

    const interested = await patch(apiKey, lead.id, { status: 'interested' });
    expect(interested.status, interested.text).to.equal(200);
    expect(interested.body.status).to.equal('interested');
    expect(await q('SELECT state, reason FROM campaign_enrolments WHERE campaign_id = $1', [first])).to.deep.equal([{ state: 'removed', reason: 'marked interested' }]);
    expect(await q('SELECT 1 FROM blocklist_entries WHERE account_id = $1', [accountId])).to.deep.equal([]);

    const second = await enrol(accountId, lead.id);
    const dnc = await patch(apiKey, lead.id, { status: 'do_not_contact' });
    expect(dnc.body.status).to.equal('do_not_contact');
    expect(await q('SELECT state, reason FROM campaign_enrolments WHERE campaign_id = $1', [second])).to.deep.equal([{ state: 'removed', reason: 'marked do_not_contact' }]);
    expect(await q('SELECT kind, value, source FROM blocklist_entries WHERE account_id = $1', [accountId])).to.deep.equal([
      { kind: 'address', value: lead.email, source: 'do_not_contact' },
    ]);
    // Again: idempotent, one entry.
    expect((await patch(apiKey, lead.id, { status: 'do_not_contact' })).status).to.equal(200);
    expect(await q('SELECT 1 FROM blocklist_entries WHERE account_id = $1', [accountId])).to.have.length(1);

    const cleared = await patch(apiKey, lead.id, { status: null });
    expect(cleared.body.status).to.equal(null);
    expect((await q<{ user_status: string | null }>('SELECT user_status FROM leads WHERE id = $1', [lead.id]))[0]!.user_status).to.equal(null);
  });

  it("erases a lead: 204; its email stays counted, its sequence ends, its lists drop it; no table keeps the person's address, name, company or phone", async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize, 'pro');
    const address = 'zelda.zyxwvutson@quuxcorp.example';
    const lead = await seedLead(accountId, { email: address, firstName: 'Zelda', lastName: 'Zyxwvutson', company: 'Quuxcorp' });
    await lead.update({ phone: '+44 20 7946 0958', externalId: 'apollo-zz-1', customFields: { nickname: 'Zyxwvutson-Z' } });
    const keeper = await seedLead(accountId, { email: 'keeper@example.com' });
    const campaign = await seedCampaign(accountId);
    const email = await seedEmail(campaign, lead, { subject: 'Zelda, a question for Quuxcorp' });
    await email.update({ bodyText: 'Hi Zelda Zyxwvutson', bodyHtml: '<p>Hi Zelda</p>', smtpResponse: `250 OK <${address}>` });
    await seedFact(email, 'sent', { dedupeKey: `sent:${email.id}` });
    await seedFact(email, 'delivered', { dedupeKey: `delivered:${email.id}` });
    await seedFact(email, 'clicked', { data: { url: `https://target.example/?who=${encodeURIComponent(address)}` } });
    const reply = await seedReply(email, lead, { preview: 'Thanks, Zelda Zyxwvutson, Quuxcorp' });
    await t.db.sequelize.transaction(async (tx) => {
      await emitEvent(t.db.sequelize, tx, { accountId, campaignId: campaign.id, event: 'reply.received', data: { reply_id: reply.id, email: address, name: 'Zelda Zyxwvutson', company: 'Quuxcorp', preview: 'Thanks' } });
      await emitEvent(t.db.sequelize, tx, { accountId, campaignId: campaign.id, event: 'email.bounced', data: { email_id: email.id, lead_id: lead.id, recipient: address, diagnostic: `550 ${address} unknown` } });
      await blockAddress(t.db.sequelize, tx, accountId, address, 'user');
    });
    await t.db.sequelize.query(
      `INSERT INTO meetings (id, account_id, campaign_id, lead_id, provider, external_id, email, name, company) VALUES ($1, $2, $3, $4, 'calcom', 'bk-1', $5, 'Zelda Zyxwvutson', 'Quuxcorp')`,
      { bind: [newId('mtg'), accountId, campaign.id, lead.id, address] },
    );
    await t.db.sequelize.query(
      `INSERT INTO costs (account_id, category, cost_name, feature_slug, amount_usd, details, idempotency_key) VALUES ($1, 'lead_enrichment', 'apollo:people_match', 'lead-enrichment', 0.01, $2::jsonb, 'enrich-zz')`,
      { bind: [accountId, JSON.stringify({ apollo_person_id: 'apollo-zz-1', by: 'email' })] },
    );
    await suppressAddress(t.db.sequelize, null, accountId, address, 'unsubscribe');
    const list = await createList(t.db.sequelize, accountId, 'Everyone');
    await addLeadsToList(t.db.sequelize, null, accountId, list.id, [lead.id, keeper.id]);
    await t.db.sequelize.query(
      `INSERT INTO campaign_enrolments (campaign_id, lead_id, account_id, state, step, source) VALUES ($1, $2, $3, 'in_sequence', 0, 'list')`,
      { bind: [campaign.id, lead.id, accountId] },
    );

    const stats = () => request<Record<string, unknown>>(`${t.api.baseUrl}/campaigns/${campaign.id}/stats`, { headers: surfaceA(apiKey) });
    const before = await stats();
    expect(before.status, before.text).to.equal(200);

    const res = await erase(apiKey, lead.id);
    expect(res.status, res.text).to.equal(204);
    expect(res.text).to.equal('');

    // The statistics count the email as before.
    const after = await stats();
    // The period ends now: the one member that moves between two reads.
    const figures = (body: Record<string, unknown>) => ({ ...body, period: undefined });
    expect(figures(after.body)).to.deep.equal(figures(before.body));
    expect(JSON.stringify(after.body)).to.match(/"emails_sent":1\b/);
    expect(await q('SELECT status, subject, body_text, body_html FROM emails WHERE id = $1', [email.id])).to.deep.equal([{ status: 'sent', subject: '', body_text: null, body_html: null }]);
    expect(await q<{ n: string }>(`SELECT count(*)::int AS n FROM email_events WHERE email_id = $1`, [email.id])).to.deep.equal([{ n: 4 }]);
    expect(await q('SELECT category, sentiment FROM replies WHERE id = $1', [reply.id])).to.deep.equal([{ category: 'interested', sentiment: 'positive' }]);

    // Its sequence ended, its lists dropped it (the other lead stays).
    expect(await q('SELECT state, reason FROM campaign_enrolments WHERE lead_id = $1', [lead.id])).to.deep.equal([{ state: 'removed', reason: 'erased' }]);
    expect(await q<{ lead_id: string }>('SELECT lead_id FROM lead_list_members WHERE list_id = $1', [list.id])).to.deep.equal([{ lead_id: keeper.id }]);
    const [tomb] = await q<{ email: string; erased_at: Date | null; unsubscribed_at: Date | null }>('SELECT email, erased_at, unsubscribed_at FROM leads WHERE id = $1', [lead.id]);
    expect(tomb!.email).to.match(/^erased-[0-9a-f]+@erased\.invalid$/);
    expect(tomb!.erased_at).to.be.an.instanceOf(Date);
    expect(tomb!.unsubscribed_at).to.be.an.instanceOf(Date);

    // Every text, JSON and array column of every table, searched for what identifies the person.
    const columns = await q<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`,
    );
    expect(columns.length).to.be.greaterThan(50);
    const needles = [address, encodeURIComponent(address), 'Zyxwvutson', 'Quuxcorp', '7946 0958', 'apollo-zz-1'];
    const found: string[] = [];
    for (const c of columns) {
      const rows = await q<{ n: number }>(`SELECT count(*)::int AS n FROM "${c.table_name}" WHERE "${c.column_name}"::text ILIKE ANY($1::text[])`, [needles.map((n) => `%${n}%`)]);
      if (rows[0]!.n > 0) found.push(`${c.table_name}.${c.column_name}`);
    }
    expect(found).to.deep.equal([]);

    // Not erased twice, not edited.
    expect((await patch(apiKey, lead.id, { status: 'interested' })).status).to.equal(404);
    expect((await erase(apiKey, lead.id)).status).to.equal(404);
  });

  it('an erased lead is not found, listed, searched or exported, and its address imported again is a new lead', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const lead = await seedLead(accountId, { email: 'gone@example.com', title: 'CTO' });
    const keeper = await seedLead(accountId, { email: 'keeper@example.com', title: 'CTO' });
    expect((await erase(apiKey, lead.id)).status).to.equal(204);

    expect((await request(`${t.api.baseUrl}/v1/leads/${lead.id}`, { headers: surfaceB(apiKey) })).status).to.equal(404);
    const listed = await request<{ leads: Array<{ id: string }>; pagination: { total: number } }>(`${t.api.baseUrl}/v1/leads?perPage=100`, { headers: surfaceB(apiKey) });
    expect(listed.body.leads.map((l) => l.id)).to.deep.equal([keeper.id]);
    expect(listed.body.pagination.total).to.equal(1);
    const searched = await request<{ leads: Array<{ id: string }> }>(`${t.api.baseUrl}/v1/leads/search`, {
      method: 'POST',
      headers: { ...surfaceB(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(searched.body.leads.map((l) => l.id)).to.deep.equal([keeper.id]);
    const exported = await request(`${t.api.baseUrl}/v1/leads/export?format=json`, { headers: surfaceB(apiKey) });
    expect((exported.body as unknown as Array<{ email: string }>).map((l) => l.email)).to.deep.equal(['keeper@example.com']);
    const again = await request<{ imported: number }>(`${t.api.baseUrl}/v1/leads/import`, {
      method: 'POST',
      headers: { ...surfaceB(apiKey), 'content-type': 'text/csv' },
      body: 'email\ngone@example.com\n',
    });
    expect(again.body.imported, again.text).to.equal(1);
  });
});
