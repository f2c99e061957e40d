import { expect } from 'chai';
import { resumeSignal, statusQuery } from '../../workflows/campaign/contract';
import { at, CampaignHarness, firstDateAfter, plusDays } from './support/campaign-harness';
import { leadId } from './support/fake-activities';

/**
 * Continue-as-new with a small history limit (input.maxHistoryEvents = 200): the next run carries
 * the status, counters, spend windows, milestones and every lead's sequence. The fake activities
 * record which run called them, so a continue-as-new shows as a new run id between two calls.
 * S is the start date.
 */
describe('campaign workflow continue-as-new (time-skipping)', function () {
  this.timeout(120_000);
  const h = new CampaignHarness();
  before(() => h.start());
  after(() => h.stop());

  it('a 16-day campaign continues as new several times and keeps counters, milestones and sequences (S .. S+15)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    await h.campaign({ startDate, maxHistoryEvents: 200 }, { leadPool: 40 }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(plusDays(startDate, 15), '10:00'));
      expect(result).to.include({ status: 'completed', reason: 'schedule_complete' });

      const runIds = [...new Set(fake.calls.map((c) => c.runId))];
      expect(result.runs).to.be.greaterThan(0);
      expect(runIds).to.have.length(result.runs + 1);
      expect((await handle.describe()).runId).to.not.equal(handle.firstExecutionRunId);

      // 25 leads on S, 15 on S+1 (the pool of 40 is then empty): each on day 0, +3, +7, +14,
      // whichever run was current.
      for (let n = 1; n <= 40; n++) {
        const first = plusDays(startDate, n <= 25 ? 0 : 1);
        expect(fake.stepDays(leadId(n)), leadId(n)).to.deep.equal([0, 3, 7, 14].map((d) => plusDays(first, d)));
      }
      // Some follow-up was due in a later run than the step before it.
      const crossed = Array.from({ length: 40 }, (_, i) => leadId(i + 1)).filter((lead) => {
        const runs = fake.sentSteps().filter((s) => s.leadId === lead).map((s) => s.runId);
        return new Set(runs).size > 1;
      });
      expect(crossed).to.not.be.empty;

      expect(result.counters).to.deep.equal({ emailsSent: 160, leadsContacted: 40, sequencesFinished: 40, replied: 0, meetingsBooked: 0, unsubscribed: 0, bounced: 0 });
      expect(result.totalCostUsd).to.equal(0);
      // 100 emails on S+7 (25 + 15 + 25 + 15 + 25): the milestone once, and no run after it repeated it.
      const milestones = fake.eventsNamed('campaign.milestone');
      expect(milestones.map((e) => [e.data, e.at.slice(0, 10)])).to.deep.equal([[{ milestone: '100_emails' }, plusDays(startDate, 7)]]);
      const emitted = fake.emits.find((e) => e.events.some((ev) => ev.event === 'campaign.milestone'));
      expect(fake.calls.some((c) => c.calledAt > (emitted?.calledAt ?? Infinity) && c.runId !== emitted?.runId)).to.equal(true);
      expect(result.milestonesReached).to.deep.equal([100]);
    });
  });

  it('budget_paused across a continue-as-new (S 10:00): the next run stays paused, keeps the spend window and resumes at S+1 00:00 (S .. S+1)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const s1 = plusDays(startDate, 1);
    const budget = { dailyUsd: 1, weeklyUsd: null, monthlyUsd: null };
    await h.campaign({ startDate, budget, maxHistoryEvents: 200 }, { costPerEmailUsd: 0.05 }, async ({ fake, handle }) => {
      await h.sleepUntil(at(startDate, '10:00'));
      const before = await handle.query(statusQuery);
      expect(before).to.include({ status: 'budget_paused', reason: 'budget_exceeded', runs: 0 });

      // Resume requests that change nothing (the limit is still reached) grow the history until
      // the workflow continues as new, while budget_paused.
      let view = before;
      for (let i = 0; i < 100 && view.runs === 0; i++) {
        await handle.signal(resumeSignal);
        // Let the worker take the signal (and start the next run) before asking: a query that
        // reaches a new run before its first workflow task stalls the test server for a minute.
        await h.env.sleep(500);
        view = await handle.query(statusQuery);
      }
      expect(view.runs).to.equal(1);
      expect(view).to.deep.equal({ ...before, runs: 1 });
      expect(view.spend.daily).to.deep.equal({ window: startDate, usd: 1, limitUsd: 1 });
      expect(view.counters.emailsSent).to.equal(20);
      expect(fake.transitions.map((t) => t.status)).to.deep.equal(['running', 'budget_paused']);

      await h.sleepUntil(at(s1, '12:00'));
      const [, , resumed, pausedAgain] = fake.transitions;
      expect(resumed).to.include({ status: 'running', reason: null });
      expect(resumed?.runId).to.not.equal(handle.firstExecutionRunId);
      // Exactly 00:00 is checked by the budgets test; here: the window the new run inherited reset then.
      expect(Date.parse(resumed?.at as string)).to.be.within(at(s1), at(s1) + 1_000);
      expect(pausedAgain).to.include({ status: 'budget_paused', reason: 'budget_exceeded' });
      // S's window was announced once, by the first run; S+1's once, by the second.
      expect(fake.eventsNamed('campaign.budget_exceeded').map((e) => e.at.slice(0, 10))).to.deep.equal([startDate, s1]);
      // The leads came along: S's 5 skipped first emails lead S+1's batch.
      expect(fake.batches[1]?.input.items.slice(0, 5).map((i) => i.leadId)).to.deep.equal([21, 22, 23, 24, 25].map(leadId));
    });
  });
});
