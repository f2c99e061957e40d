import { expect } from 'chai';
import { simpleParser, type ParsedMail } from 'mailparser';
import { QueryTypes } from 'sequelize';
import { createActivities } from '../../activities';
import { createLogger } from '../../src/log/logger';
import { campaignEndedSignal } from '../../workflows/reports/contract';
import { createAccount, testConfig } from '../support/api';
import { seedCampaign, seedEmail, seedLead } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TestSmtpSink } from '../support/smtp-sink';
import { DAY, iso, MINUTE, ReportHarness } from './support/report-harness';

interface ReportRow {
  kind: string;
  period_start: Date;
  period_end: Date;
  recipient: string;
  status: string;
  sent_at: Date | null;
}

/**
 * The report schedule with the REAL activity (createActivities) against PostgreSQL and the
 * service's SMTP sink: the report arrives by email at its simulated time, and the final one when
 * the campaign ends. What a report says is tested with the report itself (R1's tests); here, that
 * the schedule's periods reach the mail and the rows.
 */
describe('campaign report schedule with the real activity (time-skipping, PostgreSQL, SMTP sink)', function () {
  this.timeout(180_000);
  const h = new ReportHarness();
  let db: TestDatabase;
  let sink: TestSmtpSink;
  before(async () => {
    [db, sink] = await Promise.all([createTestDatabase(), TestSmtpSink.start()]);
    await h.start();
  });
  after(async () => {
    await h.stop();
    await sink?.close();
    await db?.drop();
  });

  it('a daily report in UTC arrives at 08:00 the next day as an email to reporting.email, and the final one when the campaign ends; both rows sent (S 09:00 .. S+1 08:01, end at S+1 11:00)', async () => {
    const activities = createActivities({ sequelize: db.sequelize, config: testConfig({ SMTP_URL: sink.url }), log: createLogger((process.env.TEST_LOG as 'info' | undefined) ?? 'silent', 'test') });
    const { accountId } = await createAccount(db.sequelize, 'pro', 'Report Co');
    const recipient = `owner.${Date.now()}@client.example`;
    const now = await h.now();
    const day = new Date(now + DAY).toISOString().slice(0, 10); // S: a day after the simulated now
    const since = Date.parse(`${day}T09:00:00.000Z`);
    const campaign = await seedCampaign(accountId, { name: 'Spring outreach', reportingEmail: recipient, reportingFrequency: 'daily', timezone: 'UTC', createdAt: new Date(since) });
    // One email sent in the first period: the report has something to count.
    await seedEmail(campaign, await seedLead(accountId), { sentAt: new Date(since + 30 * MINUTE) });
    const reportAt = since + 23 * 60 * MINUTE; // S+1 08:00 UTC
    const endedAt = since + 26 * 60 * MINUTE; // S+1 11:00 UTC

    let mails: ParsedMail[] = [];
    const arrived = async (count: number): Promise<void> => {
      const deadline = Date.now() + 30_000;
      while (sink.to(recipient).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    };
    await h.schedule(since, { campaignId: campaign.id, accountId, frequency: 'daily', timeZone: 'UTC', since }, activities, async (handle) => {
      await h.sleepUntil(reportAt - MINUTE);
      expect(sink.to(recipient), 'nothing before 08:00').to.have.length(0);
      await h.sleepUntil(reportAt + MINUTE);
      // The activity renders and sends in real time: wait for the sink (the server's clock stays put meanwhile).
      await arrived(1);
      expect(sink.to(recipient), 'the daily report at 08:00').to.have.length(1);
      await h.sleepUntil(endedAt);
      await handle.signal(campaignEndedSignal, { at: endedAt, status: 'completed' });
      const result = await h.resultBy(handle, endedAt + MINUTE);
      expect(result).to.deep.include({ outcome: 'campaign_ended', reportsSent: 1 });
      expect(result.final?.status).to.equal('sent');
    });
    // keepCidLinks: mailparser would otherwise put the image into the HTML as a data: URI.
    mails = await Promise.all(sink.to(recipient).map((m) => simpleParser(m.raw, { keepCidLinks: true })));
    expect(mails, 'the daily and the final report, nothing else').to.have.length(2);
    for (const mail of mails) {
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').to.contain(recipient);
      expect(mail.subject ?? '').to.contain('Spring outreach');
      expect(mail.text ?? '', 'a plain-text part').to.not.equal('');
      expect(mail.html || '', 'an HTML part').to.not.equal('');
      const chart = mail.attachments.find((a) => a.contentType === 'image/png');
      expect(chart?.cid, 'the chart, inline').to.be.a('string');
      expect(mail.html || '', 'the HTML shows the chart').to.contain(`cid:${chart?.cid ?? ''}`);
    }
    expect(mails.map((m) => m.messageId), 'two messages').to.have.length(2);
    expect(new Set(mails.map((m) => m.messageId)).size).to.equal(2);
    const rows = await db.sequelize.query<ReportRow>(`SELECT kind, period_start, period_end, recipient, status, sent_at FROM campaign_reports WHERE campaign_id = $1 ORDER BY period_end, kind`, {
      bind: [campaign.id],
      type: QueryTypes.SELECT,
    });
    expect(rows.map((r) => [r.kind, iso(r.period_start.getTime()), iso(r.period_end.getTime()), r.recipient, r.status])).to.deep.equal([
      ['scheduled', iso(since), `${new Date(since + DAY).toISOString().slice(0, 10)}T00:00:00.000Z`, recipient, 'sent'],
      ['final', `${new Date(since + DAY).toISOString().slice(0, 10)}T00:00:00.000Z`, iso(endedAt), recipient, 'sent'],
    ]);
  });
});
