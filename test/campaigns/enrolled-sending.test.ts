import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { enrolLeads, enrolSettingsOf } from '../../src/campaigns/enrolment/enrol-leads';
import { endForFact, listEnrolments } from '../../src/campaigns/enrolment/enrolment-repository';
import { sendEnrolledBatch } from '../../src/campaigns/sending/send-enrolled';
import { findTemplate } from '../../src/campaigns/model/templates';
import { reverifyIfStale } from '../../src/leads/verification/verify-leads';
import { insertNewLeads } from '../../src/leads/lead-repository';
import type { LeadInput } from '../../src/leads/fields';
import { createLogger } from '../../src/log/logger';
import { EmailSender } from '../../src/sending/email-sender';
import { smtpTransports } from '../../src/sending/transports';
import { EmailWriter } from '../../src/writing/email-writer';
import type { SendEnrolledInput } from '../../workflows/campaign/contract';
import { createAccount, testConfig } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startLocalDns, type LocalDns } from '../support/local-dns';
import { TestSmtpSink } from '../support/smtp-sink';

const log = createLogger('silent', 'test');
const TODAY = new Date().toISOString().slice(0, 10);
const STEPS = findTemplate('sales_outreach')!.steps.map((s) => ({ delayDays: s.delayDays, kind: s.kind }));

/**
 * A sending day read from the enrolment table, on PostgreSQL, a local DNS server and a local SMTP
 * sink: who is emailed is read from what the SMTP server received.
 */
describe('sending from the enrolment table (PostgreSQL, local DNS, SMTP sink)', () => {
  let db: TestDatabase;
  let sink: TestSmtpSink;
  let dns: LocalDns;

  before(async () => {
    [db, sink, dns] = await Promise.all([createTestDatabase(), TestSmtpSink.start(), startLocalDns((name) => ({ mx: [`mx.${name}`] }))]);
  });
  after(async () => {
    await smtpTransports.closeAll();
    await sink?.close();
    await dns?.close();
    await db?.drop();
  });

  const config = () => testConfig({ SMTP_SINK_PORT: String(sink.port), DEFAULT_FROM_EMAIL: 'outreach@sender.example', EMAIL_DNS_SERVERS: dns.server, EMAIL_DNS_TIMEOUT_MS: '300' });
  const lead = (email: string): LeadInput => ({ email, firstName: email.split('@')[0]!.replace(/\W/g, ''), lastName: 'Lead', title: 'CTO', company: 'Acme', companyDomain: null, industry: null, city: null, state: null, country: null, linkedinUrl: null, phone: null });
  const received = (address: string): number => sink.messages.filter((m) => m.to.includes(address)).length;

  async function campaignWith(emails: string[]) {
    const { accountId } = await createAccount(db.sequelize, 'pro');
    await db.sequelize.transaction((tx) => insertNewLeads(db.sequelize, tx, accountId, 'import', emails.map(lead)));
    const campaign = await seedCampaign(accountId, { status: 'running' });
    const ids = await db.sequelize.query<{ id: string; email: string }>('SELECT id, email FROM leads WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT });
    const idOf = (email: string): string => ids.find((r) => r.email === email)!.id;
    const settings = (await enrolSettingsOf(db.sequelize, accountId, campaign.id))!;
    const enrolled = await enrolLeads(db.sequelize, settings, emails.map(idOf), { source: 'manual', day: null, retake: true });
    expect(enrolled.queued).to.have.length(emails.length);
    return { accountId, campaignId: campaign.id, idOf };
  }

  function deps(writer = new EmailWriter({ sequelize: db.sequelize, config: config(), log })) {
    const cfg = config();
    return {
      sequelize: db.sequelize,
      config: cfg,
      log,
      writer,
      sender: new EmailSender({ sequelize: db.sequelize, config: cfg, log }),
      reverify: (accountId: string, leadIds: readonly string[]) => reverifyIfStale({ sequelize: db.sequelize, config: cfg }, accountId, leadIds),
    };
  }
  const runtime = { heartbeat: () => undefined, sleep: async () => undefined };
  const input = (c: { accountId: string; campaignId: string }): SendEnrolledInput => ({
    campaignId: c.campaignId,
    accountId: c.accountId,
    mcp: 'sales_outreach',
    companyId: null,
    day: TODAY,
    steps: STEPS,
    firstEmailsLeft: 100,
    maxItems: 500,
    budgetRemainingUsd: null,
  });
  const stateOf = async (campaignId: string) => Object.fromEntries((await listEnrolments(db.sequelize, campaignId, { limit: 100, offset: 0 })).leads.map((l) => [l.email, { state: l.state, reason: l.reason }]));

  it('a domain blocked after planning, and one blocked while the batch writes (before its reservation), are never sent to; the rest go out', async () => {
    const tag = randomBytes(4).toString('hex');
    const [early, late, fine] = [`ann@early-${tag}.com`, `bob@mail.late-${tag}.com`, `cid@fine-${tag}.com`];
    const c = await campaignWith([early, late, fine]);
    // Blocked after planning (the rows are queued): the batch's read already sees it.
    await db.sequelize.query(`INSERT INTO blocklist_entries (id, account_id, kind, value, source) VALUES ($1, $2, 'domain', $3, 'user')`, { bind: [`blk_${tag}1`, c.accountId, `early-${tag}.com`] });
    // Blocked a moment before the send: after the batch read the lead's state, while its email is written.
    const real = new EmailWriter({ sequelize: db.sequelize, config: config(), log });
    const writer = {
      write: async (...args: Parameters<EmailWriter['write']>) => {
        if (args[0].leadId === c.idOf(late)) {
          await db.sequelize.query(`INSERT INTO blocklist_entries (id, account_id, kind, value, source) VALUES ($1, $2, 'domain', $3, 'user')`, { bind: [`blk_${tag}2`, c.accountId, `late-${tag}.com`] });
        }
        return real.write(...args);
      },
    } as unknown as EmailWriter;

    const result = await sendEnrolledBatch(deps(writer), runtime, input(c));
    expect(received(early), 'blocked before the batch').to.equal(0);
    expect(received(late), 'blocked before its reservation (a subdomain of the blocked domain)').to.equal(0);
    expect(received(fine)).to.equal(1);
    expect(result).to.include({ selected: 3, sent: 1, contacted: 1 });
    const states = await stateOf(c.campaignId);
    expect(states[early]).to.deep.equal({ state: 'skipped', reason: 'blocklisted' });
    expect(states[late]).to.deep.equal({ state: 'skipped', reason: 'blocklisted' });
    expect(states[fine]?.state).to.equal('in_sequence');
    const sent = await db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM emails WHERE campaign_id = $1 AND status = 'sent'`, { bind: [c.campaignId], type: QueryTypes.SELECT });
    expect(sent[0]?.n).to.equal(1);
  });

  it('a domain without MX or A records is invalid and skipped; a domain whose DNS does not answer is unknown and sent to', async () => {
    const tag = randomBytes(4).toString('hex');
    const [nomx, slow] = [`dan@nomx-${tag}.com`, `eve@slow-${tag}.com`];
    dns.set(`nomx-${tag}.com`, 'nodata');
    dns.set(`slow-${tag}.com`, 'timeout');
    const c = await campaignWith([nomx, slow]);
    const result = await sendEnrolledBatch(deps(), runtime, input(c));
    expect(received(nomx)).to.equal(0);
    expect(received(slow)).to.equal(1);
    expect(result).to.include({ sent: 1, firstEmailsTaken: 2 });
    const states = await stateOf(c.campaignId);
    expect(states[nomx]).to.deep.equal({ state: 'skipped', reason: 'invalid address' });
    expect(states[slow]?.state).to.equal('in_sequence');
    const verdicts = await db.sequelize.query<{ email: string; verification: string; mail: string }>(
      `SELECT email, verification, verification_checks->'mailDomain'->>'result' AS mail FROM leads WHERE id = ANY($1::text[]) ORDER BY email`,
      { bind: [[c.idOf(nomx), c.idOf(slow)]], type: QueryTypes.SELECT },
    );
    expect(verdicts).to.deep.equal([
      { email: nomx, verification: 'invalid', mail: 'fail' },
      { email: slow, verification: 'unknown', mail: 'unknown' },
    ]);
  });

  it('a lead removed from the campaign after the batch read it is not sent: the reservation checks its row', async () => {
    const tag = randomBytes(4).toString('hex');
    const [gone, stays] = [`fay@one-${tag}.com`, `gus@two-${tag}.com`];
    const c = await campaignWith([gone, stays]);
    const real = new EmailWriter({ sequelize: db.sequelize, config: config(), log });
    const writer = {
      write: async (...args: Parameters<EmailWriter['write']>) => {
        if (args[0].leadId === c.idOf(gone)) {
          await db.sequelize.query(`UPDATE campaign_enrolments SET state = 'removed', reason = 'removed by the user' WHERE campaign_id = $1 AND lead_id = $2`, { bind: [c.campaignId, c.idOf(gone)] });
        }
        return real.write(...args);
      },
    } as unknown as EmailWriter;
    await sendEnrolledBatch(deps(writer), runtime, input(c));
    expect(received(gone)).to.equal(0);
    expect(received(stays)).to.equal(1);
    expect((await stateOf(c.campaignId))[gone]).to.deep.equal({ state: 'removed', reason: 'removed by the user' });
  });
  it('max_first_emails_per_domain_per_day: first emails to one company are spread over days; other companies are not held back', async () => {
    const tag = randomBytes(4).toString('hex');
    const acme = ['a1', 'a2', 'a3'].map((l) => `${l}@acme-${tag}.com`);
    const other = `o1@other-${tag}.com`;
    const c = await campaignWith([...acme, other]);
    await db.sequelize.query('UPDATE campaigns SET max_first_emails_per_domain_per_day = 2 WHERE id = $1', { bind: [c.campaignId] });
    const day1 = await sendEnrolledBatch(deps(), runtime, input(c));
    expect(day1).to.include({ sent: 3, contacted: 3 });
    const sum = (counts: number[]): number => counts.reduce((a, b) => a + b, 0);
    expect(sum(acme.map(received)), 'two of the company on day 1').to.equal(2);
    expect(received(other)).to.equal(1);
    // Another batch the same day: the cap counts what went out today.
    expect(await sendEnrolledBatch(deps(), runtime, input(c))).to.include({ selected: 0, sent: 0 });
    const tomorrow = new Date(Date.parse(`${TODAY}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(await sendEnrolledBatch(deps(), runtime, { ...input(c), day: tomorrow })).to.include({ sent: 1, contacted: 1 });
    expect(acme.map(received)).to.deep.equal([1, 1, 1]);
  });

  it('skip_risky_leads skips a role address, with the reason; without it the address is sent to', async () => {
    const tag = randomBytes(4).toString('hex');
    const careful = await campaignWith([`info@careful-${tag}.com`]);
    await db.sequelize.query('UPDATE campaigns SET skip_risky_leads = true WHERE id = $1', { bind: [careful.campaignId] });
    await sendEnrolledBatch(deps(), runtime, input(careful));
    expect(received(`info@careful-${tag}.com`)).to.equal(0);
    expect((await stateOf(careful.campaignId))[`info@careful-${tag}.com`]).to.deep.equal({ state: 'skipped', reason: 'risky address' });

    const bold = await campaignWith([`info@bold-${tag}.com`]);
    await sendEnrolledBatch(deps(), runtime, input(bold));
    expect(received(`info@bold-${tag}.com`)).to.equal(1);
  });

  it('stop_company_on_reply: a booked meeting or a positive reply stops the colleagues at the same company; another reply does not; a campaign that turns it off keeps them', async () => {
    const tag = randomBytes(4).toString('hex');
    const [ann, ben, cat, out, dan] = [`ann@co-${tag}.com`, `ben@co-${tag}.com`, `cat@co-${tag}.com`, `dot@else-${tag}.com`, `dan@co-${tag}.com`];
    const c = await campaignWith([ann, ben, cat, out]);
    await sendEnrolledBatch(deps(), runtime, input(c));
    // A colleague enrolled after the first emails: still queued.
    await db.sequelize.transaction((tx) => insertNewLeads(db.sequelize, tx, c.accountId, 'import', [lead(dan)]));
    const [danRow] = await db.sequelize.query<{ id: string }>('SELECT id FROM leads WHERE account_id = $1 AND email = $2', { bind: [c.accountId, dan], type: QueryTypes.SELECT });
    const settings = (await enrolSettingsOf(db.sequelize, c.accountId, c.campaignId))!;
    expect((await enrolLeads(db.sequelize, settings, [danRow!.id], { source: 'manual', day: null, retake: true })).queued).to.have.length(1);

    expect(await endForFact(db.sequelize, c.campaignId, c.idOf(ann), 'replied'), 'a reply not read as positive').to.deep.equal({ ended: true, colleaguesStopped: 0 });
    expect(await endForFact(db.sequelize, c.campaignId, c.idOf(ben), 'meeting_booked')).to.deep.equal({ ended: true, colleaguesStopped: 2 });
    expect(await endForFact(db.sequelize, c.campaignId, c.idOf(ben), 'meeting_booked'), 'counted once').to.deep.equal({ ended: false, colleaguesStopped: 0 });
    const states = await stateOf(c.campaignId);
    expect(states[ann]).to.deep.equal({ state: 'replied', reason: null });
    expect(states[ben]).to.deep.equal({ state: 'meeting_booked', reason: null });
    expect(states[cat], 'mid-sequence: finished').to.deep.equal({ state: 'finished', reason: 'a colleague at the company answered' });
    expect(states[dan], 'queued: skipped').to.deep.equal({ state: 'skipped', reason: 'a colleague at the company answered' });
    expect(states[out]).to.deep.equal({ state: 'in_sequence', reason: null });

    // A reply the classifier read as positive stops the colleagues too.
    const [gil, hal] = [`gil@pos-${tag}.com`, `hal@pos-${tag}.com`];
    const pos = await campaignWith([gil, hal]);
    await db.sequelize.query(
      `INSERT INTO replies (id, account_id, campaign_id, lead_id, kind, from_email, category, sentiment, received_at) VALUES ($1, $2, $3, $4, 'reply', $5, 'interested', 'positive', now())`,
      { bind: [`rpl_${tag}`, pos.accountId, pos.campaignId, pos.idOf(gil), gil] },
    );
    expect(await endForFact(db.sequelize, pos.campaignId, pos.idOf(gil), 'replied')).to.deep.equal({ ended: true, colleaguesStopped: 1 });
    expect((await stateOf(pos.campaignId))[hal]).to.deep.equal({ state: 'skipped', reason: 'a colleague at the company answered' });

    const off = await campaignWith([`eva@team-${tag}.com`, `fin@team-${tag}.com`]);
    await db.sequelize.query('UPDATE campaigns SET stop_company_on_reply = false WHERE id = $1', { bind: [off.campaignId] });
    expect(await endForFact(db.sequelize, off.campaignId, off.idOf(`eva@team-${tag}.com`), 'meeting_booked')).to.deep.equal({ ended: true, colleaguesStopped: 0 });
    expect((await stateOf(off.campaignId))[`fin@team-${tag}.com`]?.state).to.equal('queued');
  });
});
