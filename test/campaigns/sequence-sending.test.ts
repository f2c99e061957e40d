import { expect } from 'chai';
import { load } from 'cheerio';
import type { ParsedMail } from 'mailparser';
import type { Sequelize } from 'sequelize';
import type { ActivityDeps } from '../../activities';
import { sendCampaignBatch } from '../../activities/campaigns/send-batch';
import { newId } from '../../src/accounts/ids';
import type { CampaignSequence } from '../../src/campaigns/model/sequence';
import { insertSequence } from '../../src/campaigns/sequences/sequence-repository';
import { validateSequence, type StepInput } from '../../src/campaigns/sequences/validate-sequence';
import { createLogger } from '../../src/log/logger';
import { smtpTransports } from '../../src/sending/transports';
import type { BatchItem, SendBatchInput, SendBatchResult } from '../../workflows/campaign/contract';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TestSmtpSink } from '../support/smtp-sink';
import { newMailbox } from '../sending/fixtures';
import { countOf, newRunningCampaign, rowsOf, type CampaignFixture } from './fixtures';

/**
 * A written sequence sent through the real batch into a real SMTP server, and read back as its
 * recipients get it (parsed by mailparser): merge variables, custom fields, fallbacks, spintax,
 * a step passed over for a lead without a value, a reply in the thread, tracking off, plain text
 * only, variants in their weights, the sender and its signature, and a resend after a crash.
 */
describe('written sequences sent by the batch (real PostgreSQL, real SMTP sink, mailparser)', () => {
  let db: TestDatabase;
  let sink: TestSmtpSink;
  let deps: ActivityDeps;

  before(async () => {
    db = await createTestDatabase();
    sink = await TestSmtpSink.start();
    deps = { sequelize: db.sequelize, config: testConfig({ SMTP_SINK_PORT: String(sink.port), DEFAULT_FROM_EMAIL: 'outreach@sender.example' }), log: createLogger('silent', 'test') };
  });
  after(async () => {
    await smtpTransports.closeAll();
    await sink?.close();
    await db?.drop();
  });

  async function campaignWith(steps: StepInput[], columns: Record<string, unknown> = {}): Promise<CampaignFixture & { sequence: CampaignSequence }> {
    const c = await newRunningCampaign(db.sequelize);
    const sequence = validateSequence(steps, 'camel');
    await db.sequelize.transaction((tx) => insertSequence(db.sequelize, tx, c.campaignId, 1, sequence));
    for (const [column, value] of Object.entries(columns)) await db.sequelize.query(`UPDATE campaigns SET ${column} = $2 WHERE id = $1`, { bind: [c.campaignId, value] });
    return { ...c, sequence };
  }

  async function lead(sequelize: Sequelize, accountId: string, fields: { email?: string; first?: string | null; company?: string | null; city?: string | null; custom?: Record<string, string> } = {}): Promise<string> {
    const id = newId('lead');
    const email = fields.email ?? `${id.toLowerCase()}@lead.example`;
    await sequelize.query(
      `INSERT INTO leads (id, account_id, email, first_name, last_name, title, company, city, custom_fields, source)
       VALUES ($1, $2, $3, $4, 'Weber', 'Head of Engineering', $5, $6, $7::jsonb, 'import')`,
      {
        bind: [id, accountId, email, fields.first === undefined ? 'Anna' : fields.first, fields.company === undefined ? 'Finlytics' : fields.company, fields.city ?? 'Berlin', fields.custom ? JSON.stringify(fields.custom) : null],
      },
    );
    return id;
  }

  const step = (leadId: string, index: number, delayDays = 0): BatchItem => ({ leadId, step: index, kind: index === 0 ? 'first' : 'follow_up', delayDays, previousSubject: null, thread: [] });
  const batch = (c: CampaignFixture, items: BatchItem[], extra: Partial<SendBatchInput> = {}): Promise<SendBatchResult> =>
    sendCampaignBatch(deps)({ campaignId: c.campaignId, accountId: c.accountId, mcp: 'sales_outreach', companyId: null, items, budgetRemainingUsd: null, sequenceVersion: 1, ...extra });
  const received = async (address: string): Promise<ParsedMail[]> => Promise.all(sink.to(address).map((m) => sink.parse(m)));
  const addressOf = async (leadId: string): Promise<string> => (await rowsOf<{ email: string }>(db.sequelize, 'SELECT email FROM leads WHERE id = $1', [leadId]))[0]!.email;

  it('fills merge variables, custom fields and fallbacks; chooses one option of each spintax group per lead; both parts say the same', async () => {
    const c = await campaignWith([
      {
        delayDays: 0,
        mode: 'template',
        subject: '{{ company }} and {{ custom.plan | upcase }}',
        body: '{Hi|Hello} {{ first_name | default: "there" }},\n\nYou are on {{ custom.plan }} in {{ city }}. See https://acme.example/pricing\n\n{{ sender.name }}',
      },
    ]);
    const withName = await lead(db.sequelize, c.accountId, { first: 'ANNA', custom: { plan: 'growth' } });
    const noName = await lead(db.sequelize, c.accountId, { first: null, custom: { plan: 'pro' } });
    const result = await batch(c, [step(withName, 0), step(noName, 0)]);
    expect(result.results.map((r) => r.outcome)).to.deep.equal(['sent', 'sent']);
    const [a] = await received(await addressOf(withName));
    const [b] = await received(await addressOf(noName));
    expect(a!.subject).to.equal('Finlytics and GROWTH');
    // "ANNA" typed in capitals is written Anna; the fallback stands in for a missing name.
    expect(a!.text).to.match(/^(Hi|Hello) Anna,\n\nYou are on growth in Berlin\. See https:\/\/acme\.example\/pricing/);
    expect(b!.text).to.match(/^(Hi|Hello) there,\n\nYou are on pro in Berlin\./);
    // The From names the company the campaign speaks for (no mailbox, no default sender), never a bare address.
    expect(a!.from?.value[0]).to.deep.include({ name: 'Target', address: 'outreach@sender.example' });
    expect(a!.text).to.contain('\n\nTarget\n');
    // The HTML part says what the text says; the URL the template wrote is a tracked link.
    const $ = load(a!.html as string);
    expect($('p').first().text()).to.match(/^(Hi|Hello) Anna,$/);
    expect($('a').first().attr('href')).to.match(/\/t\/c\//);
    // Spintax: each lead gets one option, and over many leads both appear.
    const greetings = new Set<string>();
    const many = await Promise.all(Array.from({ length: 24 }, (_v, i) => lead(db.sequelize, c.accountId, { custom: { plan: `p${i}` } })));
    await batch(c, many.map((id) => step(id, 0)));
    for (const id of many) for (const m of await received(await addressOf(id))) greetings.add(m.text!.split(' ')[0]!);
    expect([...greetings].sort()).to.deep.equal(['Hello', 'Hi']);
    // The choice is the lead's: sent again (a retry), the same lead gets the same email.
    const again = await batch(c, [step(withName, 0)]);
    expect(again.results[0]?.outcome).to.equal('already_sent');
  });

  it('passes over a step for a lead without a value the template needs, says why, and never sends a blank', async () => {
    const c = await campaignWith([
      { delayDays: 0, mode: 'template', subject: 'For {{ company }}', body: 'Hi {{ first_name }},\n\nA note about {{ custom.plan }}.' },
      { delayDays: 2, mode: 'template', subject: 'A second thought, {{ first_name | default: "friend" }}', body: 'Still here.' },
    ]);
    const nameless = await lead(db.sequelize, c.accountId, { first: '  ', custom: { plan: 'pro' } });
    const planless = await lead(db.sequelize, c.accountId, { first: 'Max' });
    const result = await batch(c, [step(nameless, 0), step(planless, 0)]);
    expect(result.results.map((r) => [r.outcome, r.omittedReason])).to.deep.equal([
      ['omitted', 'no value for first_name in the body (give the template a default: {{ first_name | default: "..." }})'],
      ['omitted', 'no value for custom.plan in the body (give the template a default: {{ custom.plan | default: "..." }})'],
    ]);
    expect(await received(await addressOf(nameless))).to.have.length(0);
    const skips = await rowsOf<{ step: number; reason: string }>(db.sequelize, 'SELECT step, reason FROM step_skips WHERE campaign_id = $1 ORDER BY reason', [c.campaignId]);
    expect(skips.map((s) => s.reason)).to.deep.equal([result.results[0]!.omittedReason, result.results[1]!.omittedReason].sort());
    // A retry reports the same, and the lead's next step (its own subject, a fallback) goes out.
    expect((await batch(c, [step(nameless, 0)])).results[0]).to.deep.include({ outcome: 'omitted' });
    const second = await batch(c, [step(nameless, 1, 2)]);
    expect(second.results[0]?.outcome).to.equal('sent');
    const [mail] = await received(await addressOf(nameless));
    expect(mail!.subject).to.equal('A second thought, friend');
    expect(mail!.inReplyTo).to.equal(undefined);
  });

  it('a step without a subject replies in the thread of the step before: "Re: ...", In-Reply-To and References', async () => {
    const c = await campaignWith([
      { delayDays: 0, mode: 'template', subject: 'Pricing at {{ company }}', body: 'Hi {{ first_name }},\n\nFirst note.' },
      { delayDays: 3, mode: 'template', body: 'Hi {{ first_name }},\n\nA follow-up.' },
      { delayDays: 3, mode: 'template', body: 'Last one.' },
    ]);
    const l = await lead(db.sequelize, c.accountId);
    const [first] = (await batch(c, [step(l, 0)])).results;
    const [second] = (await batch(c, [step(l, 1, 3)])).results;
    await batch(c, [step(l, 2, 3)]);
    const mails = await received(await addressOf(l));
    expect(mails.map((m) => m.subject)).to.deep.equal(['Pricing at Finlytics', 'Re: Pricing at Finlytics', 'Re: Pricing at Finlytics']);
    expect(mails[1]!.inReplyTo).to.equal(first!.messageId);
    expect(mails[2]!.inReplyTo).to.equal(second!.messageId);
    expect(mails[2]!.references).to.deep.equal([first!.messageId, second!.messageId]);
    // A step replying in a thread that never started (its first step was passed over) is passed over too.
    const c2 = await campaignWith([
      { delayDays: 0, mode: 'template', subject: 'Hi', body: '{{ custom.missing }}' },
      { delayDays: 1, mode: 'template', body: 'Follow-up.' },
    ]);
    const l2 = await lead(db.sequelize, c2.accountId);
    await batch(c2, [step(l2, 0)]);
    const [orphan] = (await batch(c2, [step(l2, 1, 1)])).results;
    expect(orphan).to.deep.include({ outcome: 'omitted', omittedReason: 'it replies in the thread of an earlier step, and no email of that thread was sent to this lead' });
  });

  it('tracking off: no beacon and links as written; plain text only: one text/plain part, no HTML at all', async () => {
    const steps: StepInput[] = [{ delayDays: 0, mode: 'template', subject: 'Docs', body: 'Hi {{ first_name }},\n\nThe docs: https://acme.example/docs' }];
    const off = await campaignWith(steps, { track_opens: false, track_clicks: false });
    const plain = await campaignWith(steps, { plain_text_only: true });
    const a = await lead(db.sequelize, off.accountId);
    const b = await lead(db.sequelize, plain.accountId);
    await batch(off, [step(a, 0)]);
    await batch(plain, [step(b, 0)]);
    const [untracked] = await received(await addressOf(a));
    const $ = load(untracked!.html as string);
    expect($('a').first().attr('href')).to.equal('https://acme.example/docs');
    expect(untracked!.html).not.to.match(/\/t\/o\/|background-image/);
    const [plainMail] = await received(await addressOf(b));
    expect(plainMail!.html).to.equal(false);
    expect(plainMail!.text).to.contain('The docs: https://acme.example/docs');
    expect(plainMail!.text).to.match(/unsubscribe: https?:\/\/\S+\/u\//);
    const raw = sink.to(await addressOf(b))[0]!.raw.toString();
    expect(raw).to.match(/Content-Type: text\/plain/);
    expect(raw).not.to.match(/text\/html|multipart/);
  });

  it('variants go out in their weights over a few hundred leads (chi-square), each lead always the same one, kept with the email', async () => {
    const c = await campaignWith([
      {
        delayDays: 0,
        variants: [
          { weight: 1, mode: 'template', subject: 'Variant A', body: 'Body A' },
          { weight: 2, mode: 'template', subject: 'Variant B', body: 'Body B' },
          { weight: 1, mode: 'template', subject: 'Variant C', body: 'Body C' },
        ],
      },
    ]);
    const leads = await Promise.all(Array.from({ length: 320 }, () => lead(db.sequelize, c.accountId)));
    const result = await batch(c, leads.map((id) => step(id, 0)));
    expect(result.results.every((r) => r.outcome === 'sent')).to.equal(true);
    const byVariant = await rowsOf<{ variant: string; n: string }>(db.sequelize, 'SELECT variant, count(*) AS n FROM emails WHERE campaign_id = $1 GROUP BY variant ORDER BY variant', [c.campaignId]);
    const observed = Object.fromEntries(byVariant.map((r) => [r.variant, Number(r.n)]));
    const expected = { A: 80, B: 160, C: 80 };
    const chi2 = Object.entries(expected).reduce((sum, [v, e]) => sum + ((observed[v] ?? 0) - e) ** 2 / e, 0);
    // 2 degrees of freedom: P(chi2 > 13.8) < 0.001. The hash is fixed, so this is not a flaky bound.
    expect(chi2, JSON.stringify(observed)).to.be.lessThan(13.8);
    // What each lead read matches the variant recorded with its email.
    for (const id of leads.slice(0, 20)) {
      const [mail] = await received(await addressOf(id));
      const [row] = await rowsOf<{ variant: string }>(db.sequelize, 'SELECT variant FROM emails WHERE lead_id = $1', [id]);
      expect(mail!.subject).to.equal(`Variant ${row!.variant}`);
    }
  });

  it('writes as the sender: the mailbox\'s person and signature, or the account\'s default sender', async () => {
    const steps: StepInput[] = [{ delayDays: 0, mode: 'template', subject: 'Hello', body: 'Hi {{ first_name }},\n\n{{ sender.first_name }} here.' }];
    const viaDefault = await campaignWith(steps);
    await db.sequelize.query(`UPDATE accounts SET sender_name = 'Grace Hopper', sender_signature = $2 WHERE id = $1`, {
      bind: [viaDefault.accountId, 'Grace Hopper\nHead of Partnerships, Target\nhttps://target.example'],
    });
    const a = await lead(db.sequelize, viaDefault.accountId);
    await batch(viaDefault, [step(a, 0)]);
    const [m1] = await received(await addressOf(a));
    expect(m1!.from?.value[0]).to.deep.include({ name: 'Grace Hopper', address: 'outreach@sender.example' });
    expect(m1!.text).to.match(/Grace here\.\n\nGrace Hopper\nHead of Partnerships, Target\nhttps:\/\/target\.example\n\n--\n/);
    // The signature's URL is a link of the HTML part too.
    expect(load(m1!.html as string)('a').map((_i, el) => el.attribs.href).get().some((h) => h.includes('/t/c/'))).to.equal(true);

    const viaMailbox = await campaignWith(steps);
    await newMailbox(db.sequelize, viaMailbox.accountId, { fromEmail: 'sam@target.example', fromName: 'Sam Lee', smtpUrl: sink.url, minGapSeconds: 0 });
    await db.sequelize.query(`UPDATE mailboxes SET signature = 'Sam Lee, Sales' WHERE account_id = $1`, { bind: [viaMailbox.accountId] });
    await db.sequelize.query(`UPDATE accounts SET sender_name = 'Grace Hopper', sender_signature = 'Grace Hopper' WHERE id = $1`, { bind: [viaMailbox.accountId] });
    const b = await lead(db.sequelize, viaMailbox.accountId);
    await batch(viaMailbox, [step(b, 0)]);
    const [m2] = await received(await addressOf(b));
    expect(m2!.from?.value[0]).to.deep.include({ name: 'Sam Lee', address: 'sam@target.example' });
    expect(m2!.text).to.contain('Sam here.\n\nSam Lee, Sales');
    expect(m2!.text).not.to.contain('Grace');
  });

  it('an email left mid-send by a crash is sent again with the content it was written with, whatever the template says now', async () => {
    const c = await campaignWith([{ delayDays: 0, mode: 'template', subject: 'Now', body: 'Written now.' }]);
    const l = await lead(db.sequelize, c.accountId);
    const emailId = newId('em');
    await db.sequelize.query(
      `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status, attempts, smtp_phase, send_token, variant, starts_thread, body_text, body_html)
       VALUES ($1, $2, $3, $4, 0, 'outreach@sender.example', $5, 'Written before the crash', $6, 'sending', 1, 'reserved', 'old', 'A', true, 'The text as first written.', '<p>The text as first written.</p>')`,
      { bind: [emailId, c.accountId, c.campaignId, l, await addressOf(l), `<${emailId}.x@sender.example>`] },
    );
    const [r] = (await batch(c, [step(l, 0)])).results;
    expect(r).to.deep.include({ outcome: 'sent', messageId: `<${emailId}.x@sender.example>` });
    const [mail] = await received(await addressOf(l));
    expect(mail!.subject).to.equal('Written before the crash');
    expect(mail!.text).to.match(/^The text as first written\./);
    expect(mail!.messageId).to.equal(`<${emailId}.x@sender.example>`);
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [c.campaignId])).to.equal(1);
  });
});
