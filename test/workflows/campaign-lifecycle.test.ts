import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { expect } from 'chai';
import { pauseSignal, resumeSignal, statusQuery } from '../../workflows/campaign/contract';
import { at, CampaignHarness, DAY, firstDateAfter, HOUR, iso, MINUTE, plusDays, utcDate } from './support/campaign-harness';
import { leadId, type CallInfo, type FakeCampaignActivities } from './support/fake-activities';

/**
 * The campaign's life over simulated days: start (now or on a start date), the trial's end, pause
 * and resume from every status, failures and a finished schedule. S is the start date a test picks
 * (a future UTC date); every title says which simulated dates it crosses. Sending happens in the
 * default window, 09:00-17:00 UTC.
 */
describe('campaign workflow lifecycle (time-skipping)', function () {
  this.timeout(120_000);
  const h = new CampaignHarness();
  before(() => h.start());
  after(() => h.stop());

  const statuses = (fake: FakeCampaignActivities): Array<[string, string | null]> => fake.transitions.map((t) => [t.status, t.reason]);
  /** A moment to let the worker apply a signal, in simulated time. */
  const settle = (): Promise<void> => h.env.sleep(1_000);

  it('a 14-day trial started now: running at once, one sending day a day, completed at exactly startedAt + 14 days (now .. now+14d)', async () => {
    const now = await h.now();
    await h.campaign({ trialDays: 14 }, {}, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, now + 14 * DAY + MINUTE); // the server skips the 14 simulated days
      expect(result).to.include({ status: 'completed', reason: 'trial_ended' });
      expect(statuses(fake)).to.deep.equal([
        ['running', null],
        ['completed', 'trial_ended'],
      ]);
      const [running, completed] = fake.transitions;
      const startedAt = Date.parse(result.startedAt as string);
      expect(running?.at).to.equal(result.startedAt);
      expect(running?.events).to.deep.equal([{ event: 'campaign.started', data: { mcp: 'sales_outreach', target_url: 'https://target.example' } }]);
      // To the millisecond of simulated time.
      expect(Date.parse(completed?.at as string)).to.equal(startedAt + 14 * DAY);
      expect(result.trialEndsAt).to.equal(completed?.at);
      expect(completed?.events).to.deep.equal([{ event: 'campaign.completed', data: { reason: 'trial_ended' }, fill: 'final_stats' }]);

      // One batch per sending day: on day 0 if its window (09:00-17:00) was still open, then at
      // 09:00 each day before the trial's end (day 14 too when the trial started after 09:00).
      const firstDay = utcDate(startedAt);
      const later = Array.from({ length: 14 }, (_, i) => plusDays(firstDay, i + 1)).filter((day) => at(day, '09:00') < startedAt + 14 * DAY);
      const days = fake.batches.map((b) => b.calledDay);
      expect(days.filter((d) => d !== firstDay)).to.deep.equal(later);
      // Started within a minute of 17:00, day 0 may go either way (the start takes real milliseconds).
      if (startedAt < at(firstDay, '16:59')) expect(days[0]).to.equal(firstDay);
      if (startedAt >= at(firstDay, '17:00')) expect(days).to.not.include(firstDay);
      for (const b of fake.batches.slice(1)) expect(b.calledAt - at(b.calledDay, '09:00')).to.be.within(0, MINUTE);
      expect(fake.calls.every((c) => c.calledAt < startedAt + 14 * DAY + MINUTE)).to.equal(true);
      expect(result.counters.emailsSent).to.equal(fake.sentSteps().length);
    });
  });

  it('a future start date S: nothing before 00:00 UTC of S (status starting), running at exactly S 00:00 (S-2 .. S+1)', async () => {
    const now = await h.now();
    const startDate = firstDateAfter(now, (d) => at(d) - 2 * DAY > now);
    const start = at(startDate);
    await h.campaign({ startDate, trialDays: 1 }, {}, async ({ fake, handle }) => {
      await h.sleepUntil(start - MINUTE); // S-1 23:59
      expect(await handle.query(statusQuery)).to.include({ status: 'starting', startedAt: null });
      expect(fake.calls).to.deep.equal([]);

      await h.sleepUntil(start + HOUR); // S 01:00
      expect(statuses(fake)).to.deep.equal([['running', null]]);
      expect(fake.transitions[0]?.at).to.equal(iso(startDate));
      expect(fake.transitions[0]?.events).to.deep.equal([{ event: 'campaign.started', data: { mcp: 'sales_outreach', target_url: 'https://target.example' } }]);
      expect(fake.calls.map((c) => c.name)).to.deep.equal(['prepareCampaign', 'enrolNewLeads', 'recordCampaignTransition']);
      expect(fake.calls.every((c) => c.calledAt >= start)).to.equal(true);
      expect(await handle.query(statusQuery)).to.include({ status: 'running', startedAt: iso(startDate), trialEndsAt: iso(plusDays(startDate, 1)) });

      const result = await h.resultBy(handle, at(plusDays(startDate, 1)) + MINUTE);
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([startDate]);
      expect(fake.batches[0]?.calledAt).to.be.within(at(startDate, '09:00'), at(startDate, '09:01'));
      expect(result.counters).to.include({ emailsSent: 25, leadsContacted: 25 });
      expect(fake.transitions[1]).to.include({ status: 'completed', reason: 'trial_ended', at: iso(plusDays(startDate, 1)) });
    });
  });

  it('pause while starting (S-3), resume before S: starting again, then running at exactly S 00:00 (S-3 .. S)', async () => {
    const now = await h.now();
    const startDate = firstDateAfter(now, (d) => at(d) - 3 * DAY > now);
    await h.campaign({ startDate, trialDays: 2 }, {}, async ({ fake, handle }) => {
      const pausedAt = new Date(await h.now()).toISOString();
      await handle.signal(pauseSignal, { at: pausedAt }); // the API's commit time is the transition's
      await h.env.sleep(DAY);
      expect(await handle.query(statusQuery)).to.include({ status: 'paused', reason: 'manual' });
      expect(fake.transitions).to.have.length(1);
      expect(fake.transitions[0]).to.include({ status: 'paused', reason: 'manual', at: pausedAt });
      expect(fake.transitions[0]?.events).to.deep.equal([{ event: 'campaign.paused', data: { reason: 'manual', budget_spent_usd: 0, budget_limit_usd: null } }]);

      await handle.signal(pauseSignal); // paused already: nothing
      await settle();
      expect(fake.transitions).to.have.length(1);

      await handle.signal(resumeSignal);
      await settle();
      expect(statuses(fake)).to.deep.equal([
        ['paused', 'manual'],
        ['starting', null],
      ]);
      await handle.signal(resumeSignal); // not paused: nothing
      await settle();
      expect(fake.transitions).to.have.length(2);

      await h.sleepUntil(at(startDate) + HOUR);
      expect(statuses(fake)).to.deep.equal([
        ['paused', 'manual'],
        ['starting', null],
        ['running', null],
      ]);
      expect(fake.transitions[2]?.at).to.equal(iso(startDate));
      expect(fake.calls.filter((c) => c.name !== 'recordCampaignTransition').every((c) => c.calledAt >= at(startDate))).to.equal(true);
    });
  });

  it('paused before S and resumed at S+3: starting, then running at the resume; the trial counts from there (S-2 .. S+6)', async () => {
    const now = await h.now();
    const startDate = firstDateAfter(now, (d) => at(d) - 2 * DAY > now);
    await h.campaign({ startDate, trialDays: 3 }, {}, async ({ fake, handle }) => {
      await handle.signal(pauseSignal);
      await h.sleepUntil(at(plusDays(startDate, 3), '12:00')); // past the start date, still paused
      expect((await handle.query(statusQuery)).status).to.equal('paused');
      expect(fake.calls.map((c) => c.name)).to.deep.equal(['recordCampaignTransition']);

      const resumedAt = new Date(await h.now()).toISOString();
      await handle.signal(resumeSignal, { at: resumedAt });
      const result = await h.resultBy(handle, Date.parse(resumedAt) + 3 * DAY + MINUTE);
      expect(statuses(fake)).to.deep.equal([
        ['paused', 'manual'],
        ['starting', null],
        ['running', null],
        ['completed', 'trial_ended'],
      ]);
      expect(fake.transitions[1]?.at).to.equal(resumedAt);
      expect(fake.transitions[2]?.at).to.equal(resumedAt);
      expect(result.startedAt).to.equal(resumedAt);
      expect(result.trialEndsAt).to.equal(new Date(Date.parse(resumedAt) + 3 * DAY).toISOString());
      // Resumed at 12:00, inside the window: the first batch goes out at once.
      expect(fake.batches[0]?.calledAt).to.be.within(Date.parse(resumedAt), Date.parse(resumedAt) + MINUTE);
    });
  });

  it('pause while running (S+1 12:00): no sending while paused; resume at S+3 12:00 sends at once; the trial ends on its day (S .. S+5)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const budget = { dailyUsd: 10, weeklyUsd: null, monthlyUsd: null };
    await h.campaign({ startDate, trialDays: 5, budget }, { costPerEmailUsd: 0.01 }, async ({ fake, handle }) => {
      await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
      const pausedAt = new Date(await h.now()).toISOString();
      await handle.signal(pauseSignal, { at: pausedAt });
      await settle();
      expect(await handle.query(statusQuery)).to.include({ status: 'paused', reason: 'manual' });
      const paused = fake.transitions[1];
      expect(paused).to.include({ status: 'paused', reason: 'manual', at: pausedAt });
      // The day's spend: 25 first emails at $0.01.
      expect(paused?.events).to.deep.equal([{ event: 'campaign.paused', data: { reason: 'manual', budget_spent_usd: 0.25, budget_limit_usd: 10 } }]);

      await h.sleepUntil(at(plusDays(startDate, 3), '12:00'));
      await handle.signal(pauseSignal); // paused already: nothing
      await settle();
      expect(fake.transitions).to.have.length(2);
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([startDate, plusDays(startDate, 1)]);

      const resumedAt = new Date(await h.now()).toISOString();
      await handle.signal(resumeSignal, { at: resumedAt });
      await settle();
      await handle.signal(resumeSignal); // running: nothing
      await settle();
      expect(statuses(fake)).to.deep.equal([
        ['running', null],
        ['paused', 'manual'],
        ['running', null],
      ]);
      expect(fake.transitions[2]?.at).to.equal(resumedAt);
      expect(fake.transitions[2]?.events).to.deep.equal([]);
      // S+3's window is open: its batch goes out at once.
      expect(fake.batches[2]?.calledAt).to.be.within(Date.parse(resumedAt), Date.parse(resumedAt) + MINUTE);

      const result = await h.resultBy(handle, at(plusDays(startDate, 5)) + MINUTE);
      expect(result).to.include({ status: 'completed', reason: 'trial_ended', trialEndsAt: iso(plusDays(startDate, 5)) });
      expect(fake.transitions[3]).to.include({ status: 'completed', at: iso(plusDays(startDate, 5)) });
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([0, 1, 3, 4].map((n) => plusDays(startDate, n)));
    });
  });

  it('budget_paused (S 09:00) and pause: paused; resume with the limit still reached: budget_paused; a manual pause outlasts the window; resume at S+1 08:00: running (S .. S+1)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const budget = { dailyUsd: 0.5, weeklyUsd: null, monthlyUsd: null };
    await h.campaign({ startDate, budget }, { costPerEmailUsd: 0.05 }, async ({ fake, handle }) => {
      await h.sleepUntil(at(startDate, '10:00'));
      expect(statuses(fake)).to.deep.equal([
        ['running', null],
        ['budget_paused', 'budget_exceeded'],
      ]);
      await handle.signal(resumeSignal); // the limit is still reached: nothing
      await settle();
      expect(fake.transitions).to.have.length(2);

      await handle.signal(pauseSignal);
      await settle();
      expect(fake.transitions[2]).to.include({ status: 'paused', reason: 'manual' });
      expect(fake.transitions[2]?.events).to.deep.equal([{ event: 'campaign.paused', data: { reason: 'manual', budget_spent_usd: 0.5, budget_limit_usd: 0.5 } }]);

      await handle.signal(resumeSignal);
      await settle();
      // Back to budget_paused; its events were sent once in this window.
      expect(fake.transitions[3]).to.include({ status: 'budget_paused', reason: 'budget_exceeded' });
      expect(fake.transitions[3]?.events).to.deep.equal([]);
      expect(fake.eventsNamed('campaign.budget_exceeded')).to.have.length(1);

      await handle.signal(pauseSignal);
      await h.sleepUntil(at(plusDays(startDate, 1), '08:00')); // the daily window reset at S+1 00:00
      expect(await handle.query(statusQuery)).to.include({ status: 'paused', reason: 'manual' });
      expect(statuses(fake).slice(4)).to.deep.equal([['paused', 'manual']]);

      await handle.signal(resumeSignal);
      await settle();
      expect(statuses(fake).slice(5)).to.deep.equal([['running', null]]);
      await h.sleepUntil(at(plusDays(startDate, 1), '09:30'));
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([startDate, plusDays(startDate, 1)]);
      expect(fake.batches[1]?.calledAt).to.be.within(at(plusDays(startDate, 1), '09:00'), at(plusDays(startDate, 1), '09:01'));
    });
  });

  it('completed is terminal: a trial that ends while paused completes at its end (S+2 00:00), and later signals do nothing (S .. S+2)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    await h.campaign({ startDate, trialDays: 2 }, {}, async ({ fake, handle }) => {
      await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
      await handle.signal(pauseSignal);
      const result = await h.resultBy(handle, at(plusDays(startDate, 2)) + MINUTE);
      expect(result).to.include({ status: 'completed', reason: 'trial_ended' });
      expect(statuses(fake)).to.deep.equal([
        ['running', null],
        ['paused', 'manual'],
        ['completed', 'trial_ended'],
      ]);
      expect(fake.transitions[2]?.at).to.equal(iso(plusDays(startDate, 2)));

      const callsBefore = fake.calls.length;
      for (const signal of [resumeSignal, pauseSignal]) {
        const err = await handle.signal(signal).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).to.be.instanceOf(WorkflowNotFoundError);
      }
      await settle();
      expect(fake.calls).to.have.length(callsBefore);
      expect((await handle.describe()).status.name).to.equal('COMPLETED');
    });
  });

  it('a non-retryable activity failure (LlmRejected at S 09:00) fails the campaign with its type and message (S)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const failBatch = (): Error => ApplicationFailure.nonRetryable('key refused', 'LlmRejected');
    await h.campaign({ startDate }, { failBatch }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(startDate, '10:00'));
      expect(result.status).to.equal('failed');
      expect(result.reason).to.equal('LlmRejected: key refused');
      expect(statuses(fake)).to.deep.equal([
        ['running', null],
        ['failed', 'LlmRejected: key refused'],
      ]);
      expect(Date.parse(fake.transitions[1]?.at as string)).to.be.within(at(startDate, '09:00'), at(startDate, '09:01'));
      expect(fake.calls.filter((c) => c.name === 'sendEnrolledBatch')).to.have.length(1); // not retried
    });
  });

  it('a sending day that keeps failing retryably gives its steps to the next sending day (S 09:00 .. S+1 09:00)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const failBatch = (_: unknown, call: CallInfo): Error | undefined =>
      call.calledAt < at(plusDays(startDate, 1), '09:00') ? ApplicationFailure.retryable('relay down', 'SmtpTemporary') : undefined;
    await h.campaign({ startDate, trialDays: 2 }, { failBatch }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(plusDays(startDate, 2)) + MINUTE);
      expect(result).to.include({ status: 'completed', reason: 'trial_ended' });
      expect(statuses(fake)).to.deep.equal([
        ['running', null],
        ['completed', 'trial_ended'],
      ]);
      const attempts = fake.calls.filter((c) => c.name === 'sendEnrolledBatch' && c.calledAt < at(plusDays(startDate, 1), '09:00'));
      expect(attempts.length).to.be.greaterThan(10); // retried for hours, then given up
      expect(fake.batches).to.have.length(1);
      const batch = fake.batches[0];
      expect(batch?.calledAt).to.be.within(at(plusDays(startDate, 1), '09:00'), at(plusDays(startDate, 1), '09:01'));
      // S's 25 first emails, and no new leads on top (the template's 25 a day are still waiting).
      expect(batch?.input.items.map((i) => [i.leadId, i.step])).to.deep.equal(Array.from({ length: 25 }, (_, i) => [leadId(i + 1), 0]));
      expect(result.counters).to.include({ emailsSent: 25, leadsContacted: 25 });
    });
  });

  it('schedule complete: a pool of 5 leads, every sequence finished on S+14 → completed with schedule_complete (S .. S+14)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    await h.campaign({ startDate }, { leadPool: 5 }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(plusDays(startDate, 14), '10:00'));
      expect(result).to.include({ status: 'completed', reason: 'schedule_complete', activeLeads: 0 });
      expect(result.counters).to.deep.equal({ emailsSent: 20, leadsContacted: 5, sequencesFinished: 5, replied: 0, meetingsBooked: 0, unsubscribed: 0, bounced: 0 });
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([0, 3, 7, 14].map((n) => plusDays(startDate, n)));
      const completed = fake.transitions[fake.transitions.length - 1];
      expect(completed).to.include({ status: 'completed', reason: 'schedule_complete' });
      expect(Date.parse(completed?.at as string)).to.be.within(at(plusDays(startDate, 14), '09:00'), at(plusDays(startDate, 14), '09:01'));
      expect(completed?.events).to.deep.equal([{ event: 'campaign.completed', data: { reason: 'schedule_complete' }, fill: 'final_stats' }]);
    });
  });
});
