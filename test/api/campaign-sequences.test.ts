import { expect } from 'chai';
import type { ParsedMail } from 'mailparser';
import { QueryTypes } from 'sequelize';
import { findTemplate, TEMPLATES } from '../../src/campaigns/model/templates';
import { spamAssassinAvailable } from '../../src/deliverability/spamassassin';
import { createAccount, request, surfaceA, surfaceB, type JsonResponse } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

/**
 * Sequences through the API on the real stack (PostgreSQL, Temporal dev server, the worker sending
 * into an SMTP sink): written on create on both surfaces and shown by GET (presets too), refused
 * with a 400 naming the step and the field for every kind of bad input (never a 500, never a
 * hang), sent to imported leads with their custom fields, counted per step and variant, and
 * previewed without sending.
 */

const HOME = '<html><head><title>Acme | Forecasting</title><meta name="description" content="Acme is the demand forecasting platform for retail teams."></head><body><p>Acme</p></body></html>';
const LEADS = [
  'Email,First Name,Last Name,Job Title,Company,City,Country,Plan,Favourite Colour',
  'anna@finlytics.example,Anna,Weber,Head of Engineering,Finlytics,Berlin,Germany,Growth,Teal',
  'ben@kontor.example,,Schulz,CTO,Kontor,Hamburg,Germany,Starter,',
].join('\n');

interface Step {
  step: number;
  variants: Array<{ id: string; weight: number; mode: string; subject: string | null; body: string | null; instructions: string | null }>;
}

describe('sequences on create, GET, sending, per-step statistics and preview (real stack)', function () {
  this.timeout(120_000);
  const t = useCampaignStack();
  let site: FakeSite;
  let key = '';
  const leadIds: Record<string, string> = {};

  before(async () => {
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
    ({ apiKey: key } = await createAccount(t.db.sequelize, 'pro'));
    const imported = await request<{ columns: { custom: Array<{ column: string; field: string }> } }>(`${t.api.baseUrl}/v1/leads/import`, {
      method: 'POST',
      headers: { ...surfaceB(key), 'content-type': 'text/csv' },
      body: LEADS,
    });
    expect(imported.status, imported.text).to.equal(200);
    expect(imported.body.columns.custom).to.deep.equal([
      { column: 'Plan', field: 'plan' },
      { column: 'Favourite Colour', field: 'favourite_colour' },
    ]);
    const list = await request<{ leads: Array<{ id: string; email: string }> }>(`${t.api.baseUrl}/v1/leads`, { headers: surfaceB(key) });
    for (const l of list.body.leads) leadIds[l.email] = l.id;
  });
  after(async () => site?.close());

  const post = <T>(path: string, body: unknown, headers = surfaceA(key)): Promise<JsonResponse<T & { error?: string }>> =>
    request(`${t.api.baseUrl}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const get = <T>(path: string, headers = surfaceA(key)): Promise<JsonResponse<T>> => request(`${t.api.baseUrl}${path}`, { headers });
  const allDay = { send_window: { start: '00:00', end: '24:00' } };

  async function mailsTo(address: string, count: number): Promise<ParsedMail[]> {
    const until = Date.now() + 60_000;
    while (t.sink.to(address).length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    return Promise.all(t.sink.to(address).map((m) => t.sink.parse(m)));
  }

  it('GET shows the sequence in use: a preset\'s steps on both surfaces, a written one as written', async () => {
    const preset = await post<{ id: string }>('/campaigns', { mcp: 'partnerships', target_url: 'https://never-resolves.invalid' });
    expect(preset.status, preset.text).to.equal(201);
    const onA = await get<{ sequence: { source: string; preset: string; version: number; steps: Step[] }; tracking: unknown; plain_text_only: boolean }>(`/campaigns/${preset.body.id}`);
    const partnerships = findTemplate('partnerships')!;
    expect(onA.body.sequence).to.deep.include({ source: 'preset', preset: 'partnerships', version: 1 });
    expect(onA.body.sequence.steps.map((s) => [s.step, s.variants[0]!.mode, s.variants[0]!.instructions])).to.deep.equal(partnerships.steps.map((s, i) => [i + 1, 'ai', s.instructions]));
    expect(onA.body).to.deep.include({ tracking: { opens: true, clicks: true }, plain_text_only: false });

    const written = await post<{ id: string }>(
      '/v1/campaigns',
      {
        name: 'Written',
        brandUrl: 'https://never-resolves.invalid',
        mcp: 'recruiting',
        sequence: [
          { delayDays: 0, mode: 'template', subject: 'Hi {{ first_name | default: "there" }}', body: 'Body one' },
          { delayDays: 4, variants: [{ mode: 'ai', instructions: 'Mention the remote policy.' }, { weight: 3, mode: 'template', body: 'Body two' }], autoWinner: { metric: 'positive_reply_rate', minSends: 50 } },
        ],
        tracking: { opens: false },
        plainTextOnly: true,
      },
      surfaceB(key),
    );
    expect(written.status, written.text).to.equal(201);
    const onB = await get<Record<string, unknown>>(`/v1/campaigns/${written.body.id}`, surfaceB(key));
    expect(onB.body).to.deep.include({ mcp: 'recruiting', tracking: { opens: false, clicks: true }, plainTextOnly: true });
    expect(onB.body.sequence).to.deep.equal({
      source: 'custom',
      preset: null,
      version: 1,
      steps: [
        { step: 1, delayDays: 0, variants: [{ id: 'A', weight: 1, mode: 'template', subject: 'Hi {{ first_name | default: "there" }}', body: 'Body one', instructions: null }], autoWinner: null, winner: null },
        {
          step: 2,
          delayDays: 4,
          variants: [
            { id: 'A', weight: 1, mode: 'ai', subject: null, body: null, instructions: 'Mention the remote policy.' },
            { id: 'B', weight: 3, mode: 'template', subject: null, body: 'Body two', instructions: null },
          ],
          autoWinner: { metric: 'positive_reply_rate', minSends: 50, confidence: 0.95 },
          winner: null,
        },
      ],
    });
    // The same campaign on Surface A, in its casing.
    const sameOnA = await get<{ sequence: { steps: Array<{ delay_days: number; auto_winner: unknown }> } }>(`/campaigns/${written.body.id}`);
    expect(sameOnA.body.sequence.steps[1]).to.deep.include({ delay_days: 4, auto_winner: { metric: 'positive_reply_rate', min_sends: 50, confidence: 0.95 } });
  });

  it('refuses bad sequences with a 400 that names the field, stores nothing, never a 500 or a hang', async () => {
    const before = await t.db.sequelize.query(`SELECT count(*)::int AS n FROM campaigns`, { plain: true });
    const base = { mcp: 'sales_outreach', target_url: 'https://acme.example' };
    const step = (over: Record<string, unknown>) => ({ delay_days: 0, mode: 'template', subject: 'S', body: 'B', ...over });
    const cases: Array<[unknown, RegExp]> = [
      [Array.from({ length: 11 }, (_v, i) => step({ delay_days: i === 0 ? 0 : 1 })), /^body\.sequence must NOT have more than 10 items$/],
      [[step({ body: 'x'.repeat(200_000) })], /^body\.sequence\.0\.body must NOT have more than 20000 characters$/],
      [[step({ body: '{% for i in (1..1000000) %}x{% endfor %}' })], /^sequence\[0\] \(step 1\) body: the tag \{% for %\} is not allowed/],
      [[step({ body: `{{ 'x'${" | append: 'x'".repeat(1000)} }}` })], /^sequence\[0\] \(step 1\) body: one output applies 1000 filters; at most 50$/],
      [[step({ body: `${'{% if a %}'.repeat(500)}x${'{% endif %}'.repeat(500)}` })], /^sequence\[0\] \(step 1\) body: blocks nest 500 deep; at most 20$/],
      [[step({ body: `{% assign s = "xx" %}${'{% assign s = s | append: s %}'.repeat(60)}{{ s }}` })], /^sequence\[0\] \(step 1\) body: the template cannot be rendered within the limits/],
      [[{ delay_days: 0, variants: [{ weight: 0, mode: 'template', subject: 'a', body: 'b' }, { weight: 0, mode: 'template', subject: 'c', body: 'd' }] }], /weights sum to 0/],
      [[step({ subject: 'Hi {{ frist_name }}' })], /^sequence\[0\] \(step 1\) subject: unknown variable "frist_name"/],
      [[step({}), step({ delay_days: 3, body: 'Hi {{ sender.title }}' })], /^sequence\[1\] \(step 2\) body: unknown variable "sender.title"/],
      [[step({ delay_days: 1 })], /^sequence\[0\] \(step 1\): delay_days must be 0/],
      [[step({ subject: undefined })], /subject is required on the first step/],
      [[step({ mode: 'write' })], /^body\.sequence\.0\.mode must be one of "template", "ai"$/],
      [[step({ variants: [], mode: undefined, subject: undefined, body: undefined })], /^body\.sequence\.0\.variants must NOT have fewer than 1 items$/],
      [[step({ auto_winner: { metric: 'reply_rate', confidence: 2 } })], /^body\.sequence\.0\.auto_winner\.confidence must be <= 0\.999$/],
      [[step({ delayDays: 0 })], /^body\.sequence\.0 has unknown field "delayDays"$/],
      [[], /^body\.sequence must NOT have fewer than 1 items$/],
    ];
    for (const [sequence, message] of cases) {
      const res = await post('/campaigns', { ...base, sequence });
      expect(res.status, `${String(message)}: ${res.text.slice(0, 300)}`).to.equal(400);
      expect(res.body.error, String(message)).to.match(message);
    }
    // Surface B names its own casing.
    const b = await post('/v1/campaigns', { name: 'X', brandUrl: 'acme.com', sequence: [{ delayDays: 2, mode: 'template', subject: 'S', body: 'B' }] }, surfaceB(key));
    expect(b.status).to.equal(400);
    expect(b.body.error).to.match(/^sequence\[0\] \(step 1\): delayDays must be 0/);
    const after = await t.db.sequelize.query(`SELECT count(*)::int AS n FROM campaigns`, { plain: true });
    expect(after).to.deep.equal(before);
  });

  it('sends a written sequence to the imported leads: custom fields, a fallback, the step passed over for a lead without a value; counted per step and variant', async () => {
    const created = await post<{ id: string }>('/campaigns', {
      mcp: 'sales_outreach',
      target_url: site.origin,
      schedule: allDay,
      sequence: [
        {
          delay_days: 0,
          variants: [
            { mode: 'template', subject: 'On {{ custom.plan }}, {{ first_name | default: "there" }}?', body: 'Hi {{ first_name | default: "there" }},\n\nHow is {{ custom.plan }} working for {{ company }}?\n\n{{ sender.company }}' },
            { mode: 'template', subject: 'A question for {{ company }}', body: 'Hello {{ first_name | default: "there" }},\n\nYour favourite colour is {{ custom.favourite_colour }}.' },
          ],
        },
      ],
    });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;
    // Both leads are taken the first day; each gets its variant, or is passed over (Ben has no colour).
    const until = Date.now() + 60_000;
    type Counts = { emails_sent: number; skipped: number };
    let steps: JsonResponse<{ steps: Array<{ step: number; stats: Counts; variants: Array<{ variant: string; stats: Counts }> }> }>;
    do {
      await new Promise((r) => setTimeout(r, 300));
      steps = await get(`/campaigns/${id}/stats/steps`);
    } while ((steps.body.steps[0]?.stats.emails_sent ?? 0) + (steps.body.steps[0]?.stats.skipped ?? 0) < 2 && Date.now() < until);
    expect(steps.status, steps.text).to.equal(200);
    const total = steps.body.steps[0]!.stats;
    expect(total.emails_sent + total.skipped).to.equal(2);
    const anna = await mailsTo('anna@finlytics.example', 1);
    const ben = t.sink.to('ben@kontor.example');
    // Anna's email reads with her values whichever variant she got.
    expect(anna).to.have.length(1);
    expect(anna[0]!.subject).to.be.oneOf(['On Growth, Anna?', 'A question for Finlytics']);
    expect(anna[0]!.text).to.match(/How is Growth working for Finlytics\?\n\nAcme\n|Your favourite colour is Teal\./);
    // Ben has no first name (the fallback stands in) and no colour: if he drew variant B, the step is passed over, never sent with a blank.
    if (ben.length === 1) {
      const mail = await t.sink.parse(ben[0]!);
      expect(mail.subject).to.equal('On Starter, there?');
      expect(mail.text).to.match(/^Hi there,/);
    } else {
      expect(total.skipped).to.equal(1);
      const skip = await t.db.sequelize.query<{ reason: string }>(`SELECT reason FROM step_skips WHERE campaign_id = $1`, { bind: [id], plain: true, type: QueryTypes.SELECT });
      expect(skip?.reason).to.match(/^no value for custom\.favourite_colour/);
    }
    // Per variant, the figures add up to the step's.
    const v = steps.body.steps[0]!.variants;
    expect(v.map((x) => x.variant)).to.deep.equal(['A', 'B']);
    expect(v.reduce((n, x) => n + x.stats.emails_sent, 0)).to.equal(total.emails_sent);
    // The same on Surface B, in camelCase; the export names each email's variant.
    const onB = await get<{ campaignId: string; steps: Array<{ stats: { emailsSent: number } }> }>(`/v1/campaigns/${id}/stats/steps`, surfaceB(key));
    expect(onB.body.campaignId).to.equal(id);
    expect(onB.body.steps[0]!.stats.emailsSent).to.equal(total.emails_sent);
    const exported = await request(`${t.api.baseUrl}/campaigns/${id}/export?format=json`, { headers: surfaceA(key) });
    const sentRows = (exported.body as unknown as Array<{ event: string; variant: string | null; step: number }>).filter((r) => r.event === 'sent');
    expect(sentRows.length).to.equal(total.emails_sent);
    for (const r of sentRows) expect(r).to.deep.include({ step: 1 }).and.to.have.property('variant').that.is.oneOf(['A', 'B']);
    // Another account's campaign is not found.
    const other = (await createAccount(t.db.sequelize)).apiKey;
    expect((await get(`/campaigns/${id}/stats/steps`, surfaceA(other))).status).to.equal(404);
  });

  it('previews every step for a lead as it would be sent, with the variant, the reason a step is passed over and, where installed, SpamAssassin\'s score', async function () {
    const spam = await spamAssassinAvailable();
    const res = await post<{ lead: { id: string | null; email: string }; steps: Array<Record<string, unknown> & { spam: { status: string; score: number | null; rules: unknown[] } | null }> }>(
      '/v1/sequences/preview',
      {
        leadId: leadIds['ben@kontor.example'],
        brandUrl: 'acme.example',
        sequence: [
          { delayDays: 0, mode: 'template', subject: 'Hi {{ first_name | default: "there" }}', body: 'Hi {{ first_name | default: "there" }},\n\nA note for {{ company }}: https://acme.example/docs' },
          { delayDays: 3, mode: 'template', body: 'Your colour: {{ custom.favourite_colour }}' },
          { delayDays: 4, mode: 'ai', instructions: 'Last email: close the loop politely.' },
        ],
      },
      surfaceB(key),
    );
    expect(res.status, res.text).to.equal(200);
    expect(res.body.lead).to.deep.equal({ id: leadIds['ben@kontor.example'], email: 'ben@kontor.example' });
    const [first, second, third] = res.body.steps;
    expect(first).to.deep.include({ step: 1, variant: 'A', mode: 'template', writer: 'template', skipped: null, subject: 'Hi there', inReplyToStep: null });
    // The parts as sent: the unsubscribe line, the tracked link, the List-Id's campaign is a preview one.
    expect(first!.text).to.match(/^Hi there,\n\nA note for Kontor: https:\/\/acme\.example\/docs\n\n--\nIf you would rather not hear from us, unsubscribe: /);
    expect(first!.html).to.match(/\/t\/c\//);
    expect(second).to.deep.include({ step: 2, skipped: 'no value for custom.favourite_colour in the body (give the template a default: {{ custom.favourite_colour | default: "..." }})', subject: null, text: null, spam: null });
    expect(third).to.deep.include({ step: 3, mode: 'ai', writer: 'builtin', subject: 'Re: Hi there', inReplyToStep: 1 });
    expect(third!.text).to.match(/won't write again/);
    if (spam) {
      expect(first!.spam).to.deep.include({ status: 'checked' });
      expect(first!.spam!.score).to.be.a('number').and.below(1);
    } else {
      expect(first!.spam).to.deep.include({ status: 'unavailable', score: null });
    }
    // Nothing was sent or stored.
    expect(t.sink.to('ben@kontor.example').every((m) => !m.raw.toString().includes('A note for Kontor'))).to.equal(true);
    // Typed-in lead fields, without a SpamAssassin run; a bad sequence is the create request's 400.
    const typed = await post<{ steps: Array<{ subject: string; spam: { status: string } }> }>(
      '/v1/sequences/preview',
      { lead: { email: 'Zoe@Example.com', firstName: 'Zoe', company: 'Zeta' }, sequence: [{ delayDays: 0, mode: 'template', subject: '{{ company }} x {{ first_name }}', body: 'Hi' }], spamCheck: false },
      surfaceB(key),
    );
    expect(typed.status, typed.text).to.equal(200);
    expect(typed.body.steps[0]).to.deep.include({ subject: 'Zeta x Zoe', spam: { status: 'off', score: null, required: null, rules: [], reason: 'not asked for (spamCheck: false)' } });
    const bad = await post('/v1/sequences/preview', { lead: { email: 'a@b.example' }, sequence: [{ delayDays: 0, mode: 'template', subject: 'x', body: '{{ nope }}' }] }, surfaceB(key));
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/unknown variable "nope"/);
    const both = await post('/v1/sequences/preview', { lead: { email: 'a@b.example' }, leadId: 'x', sequence: [{ delayDays: 0, mode: 'template', subject: 'x', body: 'y' }] }, surfaceB(key));
    expect(both.status).to.equal(400);
    const missing = await post('/v1/sequences/preview', { leadId: 'lead_nope', sequence: [{ delayDays: 0, mode: 'template', subject: 'x', body: 'y' }] }, surfaceB(key));
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.equal('Lead not found');
  });

  it('previews a campaign\'s own sequence for one of its account\'s leads', async () => {
    const created = await post<{ id: string }>('/campaigns', { mcp: 'customer_feedback', target_url: 'https://never-resolves.invalid', value_for_target: 'a roadmap shaped by what you need' });
    expect(created.status, created.text).to.equal(201);
    const res = await post<{ steps: Array<{ step: number; subject: string; text: string; writer: string }> }>(
      `/v1/campaigns/${created.body.id}/preview`,
      { leadId: leadIds['anna@finlytics.example'], spamCheck: false },
      surfaceB(key),
    );
    expect(res.status, res.text).to.equal(200);
    expect(res.body.steps.map((s) => s.step)).to.deep.equal(findTemplate('customer_feedback')!.steps.map((_s, i) => i + 1));
    expect(res.body.steps[0]!.writer).to.equal('builtin');
    expect(res.body.steps[0]!.text).to.match(/^(Hi|Hello) Anna,/);
    expect(res.body.steps[1]!.subject).to.equal(`Re: ${res.body.steps[0]!.subject}`);
    expect((await post(`/v1/campaigns/cmp_nope/preview`, { leadId: leadIds['anna@finlytics.example'] }, surfaceB(key))).status).to.equal(404);
    expect(TEMPLATES.length).to.equal(5);
  });
});
