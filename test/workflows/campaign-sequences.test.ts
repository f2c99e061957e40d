import { expect } from 'chai';
import { leadFactSignal, statusQuery } from '../../workflows/campaign/contract';
import { at, CampaignHarness, DAY, firstDateAfter, MINUTE, plusDays, utcDate, weekday } from './support/campaign-harness';
import { leadId } from './support/fake-activities';

/**
 * Email sequences over simulated days: follow-ups leave on their delays, stop for a lead who
 * replied or bounced, move off the days a campaign does not send; milestones fire once; the
 * sending window follows the campaign's time zone across a DST change. sales_outreach: a first
 * email, follow-ups 3 and 4 days later, a break-up 7 days after that (day 0, 3, 7, 14). S is the
 * start date.
 */
describe('campaign workflow sequences and milestones (time-skipping)', function () {
  this.timeout(120_000);
  const h = new CampaignHarness();
  before(() => h.start());
  after(() => h.stop());

  const days = (start: string, offsets: number[]): string[] => offsets.map((n) => plusDays(start, n));

  it('follow-ups leave on day 0, +3, +7, +14; a reply (signal, S+4) and a bounce (batch, S+3) end a sequence (S .. S+14)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const [a, b, c] = [leadId(1), leadId(2), leadId(3)];
    await h.campaign({ startDate }, { leadPool: 3 }, async ({ fake, handle }) => {
      await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
      fake.stopFacts.set(c, 'bounced'); // C's first email bounced: the batch reports it at its next step

      await h.sleepUntil(at(plusDays(startDate, 4), '12:00'));
      await handle.signal(leadFactSignal, { leadId: b, fact: 'replied' }); // B replied to its follow-up
      await h.env.sleep(1_000);
      const view = await handle.query(statusQuery);
      expect(view.activeLeads).to.equal(1);
      expect(view.counters).to.include({ emailsSent: 5, replied: 1, bounced: 1 });

      const result = await h.resultBy(handle, at(plusDays(startDate, 14), '10:00'));
      expect(result).to.include({ status: 'completed', reason: 'schedule_complete' });
      expect(result.counters).to.deep.equal({ emailsSent: 7, leadsContacted: 3, sequencesFinished: 1, replied: 1, meetingsBooked: 0, unsubscribed: 0, bounced: 1 });

      expect(fake.stepDays(a)).to.deep.equal(days(startDate, [0, 3, 7, 14]));
      expect(fake.itemsOf(a)).to.deep.equal([0, 1, 2, 3].map((step, i) => ({ step, day: days(startDate, [0, 3, 7, 14])[i] })));
      // No step after the reply; the bounce came back as 'stopped' for step 1 and ended it.
      expect(fake.itemsOf(b)).to.deep.equal([
        { step: 0, day: startDate },
        { step: 1, day: plusDays(startDate, 3) },
      ]);
      expect(fake.itemsOf(c)).to.deep.equal([
        { step: 0, day: startDate },
        { step: 1, day: plusDays(startDate, 3) },
      ]);
      expect(fake.batches[1]?.result.results.find((r) => r.leadId === c)).to.deep.equal({ leadId: c, step: 1, outcome: 'stopped', stopFact: 'bounced' });

      // The follow-ups carry the thread: the previous subject and the Message-IDs so far.
      const aItems = fake.batches.flatMap((batch) => batch.input.items.filter((i) => i.leadId === a));
      expect(aItems.map((i) => [i.kind, i.delayDays, i.previousSubject, i.thread.length])).to.deep.equal([
        ['first', 0, null, 0],
        ['follow_up', 3, `Hello ${a}`, 1],
        ['follow_up', 4, `Hello ${a}`, 2],
        ['breakup', 7, `Hello ${a}`, 3],
      ]);
      expect(aItems[3]?.thread).to.deep.equal([0, 1, 2].map((step) => `<${a}.${step}@fake.test>`));
    });
  });

  it('a reply the batch reported (stopped, S+3 09:00) and the reply signal that follows (S+3 12:00) count once (S .. S+3)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const [a, b] = [leadId(1), leadId(2)];
    await h.campaign({ startDate, trialDays: 5 }, { leadPool: 2 }, async ({ fake, handle }) => {
      await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
      // The reply is stored; the batch of S+3 reads it before the signal reaches the workflow.
      fake.stopFacts.set(a, 'replied');
      await h.sleepUntil(at(plusDays(startDate, 3), '12:00'));
      expect(fake.batches[1]?.result.results.find((r) => r.leadId === a)).to.include({ outcome: 'stopped', stopFact: 'replied' });
      await handle.signal(leadFactSignal, { leadId: a, fact: 'replied' });
      await h.env.sleep(1_000);
      const view = await handle.query(statusQuery);
      expect(view.counters.replied).to.equal(1);
      expect(view.activeLeads).to.equal(1);
      expect(fake.itemsOf(b).map((i) => i.step)).to.deep.equal([0, 1]);
    });
  });

  it('weekdays: a follow-up due on Saturday leaves on Monday, and nothing goes out on weekends (Wednesday S .. Friday S+16)', async () => {
    const startDate = firstDateAfter(await h.now(), (d) => weekday(d) === 3);
    await h.campaign({ startDate, frequency: 'weekdays' }, { leadPool: 1 }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(plusDays(startDate, 16), '10:00'));
      expect(result).to.include({ status: 'completed', reason: 'schedule_complete' });
      // Wed; +3 = Sat → Mon (S+5); +4 from Monday = Fri (S+9); +7 = Fri (S+16).
      expect(fake.stepDays(leadId(1))).to.deep.equal(days(startDate, [0, 5, 9, 16]));
      expect(fake.calls.filter((c) => c.name !== 'recordCampaignTransition').every((c) => weekday(c.calledDay) <= 5)).to.equal(true);
    });
  });

  it('milestones 100, 500 and 1000 fire once each, 500 and 1000 on the same sending day (S .. S+24)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const bigDay = plusDays(startDate, 22);
    // Follow-ups wait (deferred) until S+22. First emails: 25 a day on S..S+18 and 24 on S+19
    // make 499; nothing goes out on S+20 and S+21, so that on S+22 every lead's follow-up is due:
    // 499 follow-ups and 25 first emails cross 500 and 1000 at once (1023).
    const decide = (item: { step: number }, ctx: { day: string; sentSoFar: number }): 'deferred' | undefined => {
      if (ctx.day >= bigDay) return undefined;
      if (item.step > 0 || ctx.day >= plusDays(startDate, 20)) return 'deferred';
      return ctx.sentSoFar === 499 ? 'deferred' : undefined;
    };
    await h.campaign({ startDate, trialDays: 25 }, { decide }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(plusDays(startDate, 25)) + MINUTE);
      expect(result.milestonesReached).to.deep.equal([100, 500, 1000]);
      const milestones = fake.eventsNamed('campaign.milestone');
      expect(milestones.map((e) => [e.data, e.fill, e.at.slice(0, 10)])).to.deep.equal([
        [{ milestone: '100_emails' }, 'stats', plusDays(startDate, 3)],
        [{ milestone: '500_emails' }, 'stats', bigDay],
        [{ milestone: '1000_emails' }, 'stats', bigDay],
      ]);
      // The day's 524 emails go in bounded batches (500 items at most): each milestone with the batch that crossed it.
      expect(fake.batches.filter((b) => b.calledDay === bigDay).map((b) => b.input.items.length)).to.deep.equal([500, 24]);
      const sentBy = (day: string): number => fake.sentSteps().filter((s) => s.day <= day).length;
      expect(sentBy(plusDays(startDate, 21))).to.equal(499);
      expect(sentBy(bigDay)).to.equal(1023);
      // S+23 and S+24 send on (1073 emails): no milestone again.
      expect(fake.batches.filter((b) => b.calledDay > bigDay).map((b) => b.calledDay)).to.deep.equal(days(startDate, [23, 24]));
      expect(result.counters.emailsSent).to.equal(1073);
      expect(fake.sentSteps()).to.have.length(1073);
    });
  });

  it('the window follows the time zone across DST: 09:00 in New York is 14:00 UTC, then 13:00 UTC from the second Sunday of March (Friday S .. Monday S+3)', async () => {
    const now = await h.now();
    const secondSundayOfMarch = (year: number): string => {
      const first = `${year}-03-01`;
      return plusDays(first, ((7 - weekday(first)) % 7) + 7);
    };
    const year = new Date(now).getUTCFullYear();
    const dst = [year, year + 1].map(secondSundayOfMarch).find((d) => at(d) - 3 * DAY > now) as string;
    const startDate = plusDays(dst, -2);
    expect(weekday(startDate)).to.equal(5);
    await h.campaign({ startDate, trialDays: 4, timezone: 'America/New_York' }, {}, async ({ fake, handle }) => {
      await h.resultBy(handle, at(plusDays(startDate, 4)) + MINUTE);
      expect(fake.batches.map((b) => new Date(b.calledAt).toISOString().slice(0, 16))).to.deep.equal([
        `${startDate}T14:00`,
        `${plusDays(startDate, 1)}T14:00`,
        `${dst}T13:00`,
        `${plusDays(dst, 1)}T13:00`,
      ]);
      expect(fake.batches.map((b) => utcDate(b.calledAt))).to.deep.equal(days(startDate, [0, 1, 2, 3]));
    });
  });
});
