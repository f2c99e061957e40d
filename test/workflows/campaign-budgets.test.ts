import { expect } from 'chai';
import { statusQuery } from '../../workflows/campaign/contract';
import { type CampaignBudget } from '../../src/campaigns/model/status';
import { at, CampaignHarness, daysInMonth, firstDateAfter, iso, MINUTE, plusDays, weekday } from './support/campaign-harness';
import type { FakeCampaignActivities, RecordedEvent } from './support/fake-activities';

/**
 * Budgets and the plan's quota over simulated days: a limit reached pauses the campaign
 * (budget_paused) with its events, and it resumes by itself when the window resets (daily: next
 * 00:00 UTC; weekly: Monday 00:00 UTC; monthly: the 1st 00:00 UTC); the 80% warnings fire once per
 * window. The fake batch halts like the real one: before an email, once the spend has reached the
 * room the workflow gave it. sales_outreach takes 25 new leads a day; S is the start date.
 */
describe('campaign workflow budgets and quota (time-skipping)', function () {
  this.timeout(120_000);
  const h = new CampaignHarness();
  before(() => h.start());
  after(() => h.stop());

  const budget = (b: Partial<CampaignBudget>): CampaignBudget => ({ dailyUsd: null, weeklyUsd: null, monthlyUsd: null, ...b });
  const transitionsOf = (fake: FakeCampaignActivities): Array<[string, string | null, string]> => fake.transitions.map((t) => [t.status, t.reason, t.at]);
  const within = (ms: number, date: string, time: string, toTime: string): void => {
    expect(ms).to.be.within(at(date, time), at(date, toTime));
  };
  const data = (events: RecordedEvent[]): unknown[] => events.map((e) => e.data);

  it('daily: the limit is reached at S 09:00 → budget_paused; running again at exactly S+1 00:00, sending at S+1 09:00 (S .. S+2)', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const s1 = plusDays(startDate, 1);
    await h.campaign({ startDate, trialDays: 2, budget: budget({ dailyUsd: 1 }) }, { costPerEmailUsd: 0.05 }, async ({ fake, handle }) => {
      await h.sleepUntil(at(startDate, '12:00'));
      const view = await handle.query(statusQuery);
      expect(view).to.include({ status: 'budget_paused', reason: 'budget_exceeded' });
      expect(view.spend.daily).to.deep.equal({ window: startDate, usd: 1, limitUsd: 1 });
      expect(view.counters.emailsSent).to.equal(20); // 20 of the 25 first emails: $1.00 at $0.05

      const paused = fake.transitions[1];
      expect(paused).to.include({ status: 'budget_paused', reason: 'budget_exceeded' });
      within(Date.parse(paused?.at as string), startDate, '09:00', '09:01');
      expect(paused?.events).to.deep.equal([
        { event: 'campaign.paused', data: { reason: 'budget_exceeded', budget_spent_usd: 1, budget_limit_usd: 1 } },
        { event: 'campaign.budget_exceeded', data: { budget_type: 'daily', spent_usd: 1, limit_usd: 1 } },
      ]);
      expect(fake.batches[0]?.result.halted).to.equal('budget_exceeded');
      expect(fake.batches[0]?.input.budgetRemainingUsd).to.equal(1);

      await h.sleepUntil(at(s1, '12:00'));
      expect(fake.transitions[2]).to.include({ status: 'running', reason: null, at: iso(s1) });
      // Nothing between the pause and S+1's window; then S's 5 skipped emails and 20 new leads.
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([startDate, s1]);
      within(fake.batches[1]?.calledAt as number, s1, '09:00', '09:01');
      expect(fake.batches[1]?.input.items).to.have.length(25);
      expect(fake.batches[1]?.input.budgetRemainingUsd).to.equal(1);
      expect(fake.batches[1]?.result.results.filter((r) => r.outcome === 'sent')).to.have.length(20);
      expect(fake.transitions[3]).to.include({ status: 'budget_paused', reason: 'budget_exceeded' });
    });
  });

  it('weekly: reached on Saturday S+2 → budget_paused through Sunday; running at exactly Monday S+4 00:00 (Thursday S .. Tuesday S+5)', async () => {
    const startDate = firstDateAfter(await h.now(), (d) => weekday(d) === 4);
    const monday = plusDays(startDate, 4);
    // First emails at $0.05, follow-ups free: Monday's batch (follow-ups and 25 first emails) stays under the limit.
    const costPerEmailUsd = (item: { step: number }): number => (item.step === 0 ? 0.05 : 0);
    await h.campaign({ startDate, trialDays: 5, budget: budget({ weeklyUsd: 3 }) }, { costPerEmailUsd }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(plusDays(startDate, 5)) + MINUTE);
      expect(result).to.include({ status: 'completed', reason: 'trial_ended' });
      // $1.25 on Thursday and Friday, then 10 emails on Saturday reach $3.00.
      expect(transitionsOf(fake).map(([status, reason]) => [status, reason])).to.deep.equal([
        ['running', null],
        ['budget_paused', 'budget_exceeded'],
        ['running', null],
        ['completed', 'trial_ended'],
      ]);
      const [, paused, resumed] = fake.transitions;
      within(Date.parse(paused?.at as string), plusDays(startDate, 2), '09:00', '09:01');
      expect(paused?.events).to.deep.equal([
        { event: 'campaign.paused', data: { reason: 'budget_exceeded', budget_spent_usd: 3, budget_limit_usd: 3 } },
        { event: 'campaign.budget_exceeded', data: { budget_type: 'weekly', spent_usd: 3, limit_usd: 3 } },
      ]);
      expect(resumed?.at).to.equal(iso(monday));
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([0, 1, 2, 4].map((n) => plusDays(startDate, n)));
      within(fake.batches[3]?.calledAt as number, monday, '09:00', '09:01');
      expect(fake.batches[3]?.input.budgetRemainingUsd).to.equal(3); // a fresh week
      expect(result.spend.weekly).to.deep.equal({ window: monday, usd: fake.batches[3]?.result.costUsd, limitUsd: 3 });
    });
  });

  it('monthly: reached on the last day of the month (S+2) → budget_paused; running at exactly the 1st (S+3) 00:00 (S .. S+4)', async () => {
    const startDate = firstDateAfter(await h.now(), (d) => daysInMonth(d) - Number(d.slice(8)) === 2);
    const first = plusDays(startDate, 3);
    expect(first.slice(8)).to.equal('01');
    await h.campaign({ startDate, trialDays: 4, budget: budget({ monthlyUsd: 3 }) }, { costPerEmailUsd: 0.05 }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(plusDays(startDate, 4)) + MINUTE);
      expect(transitionsOf(fake).map(([status, reason]) => [status, reason])).to.deep.equal([
        ['running', null],
        ['budget_paused', 'budget_exceeded'],
        ['running', null],
        ['completed', 'trial_ended'],
      ]);
      const [, paused, resumed] = fake.transitions;
      within(Date.parse(paused?.at as string), plusDays(startDate, 2), '09:00', '09:01');
      expect(paused?.events).to.deep.equal([
        { event: 'campaign.paused', data: { reason: 'budget_exceeded', budget_spent_usd: 3, budget_limit_usd: 3 } },
        { event: 'campaign.budget_exceeded', data: { budget_type: 'monthly', spent_usd: 3, limit_usd: 3 } },
      ]);
      expect(resumed?.at).to.equal(iso(first));
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([0, 1, 2, 3].map((n) => plusDays(startDate, n)));
      within(fake.batches[3]?.calledAt as number, first, '09:00', '09:01');
      expect(result.spend.monthly.window).to.equal(first.slice(0, 7));
    });
  });

  it('80% warnings: daily once a day, weekly once in each week, both event kinds with the same payload (Wednesday S .. Friday S+9)', async () => {
    const startDate = firstDateAfter(await h.now(), (d) => weekday(d) === 3);
    // $1.00 a day: 25 first emails at $0.04, follow-ups free. Daily $1.20 → 83% every day; weekly
    // $6: Wed-Sun $5.00 (83% on Sunday), then Mon-Fri $5.00 (83% on Friday); never exceeded.
    const costPerEmailUsd = (item: { step: number }): number => (item.step === 0 ? 0.04 : 0);
    await h.campaign({ startDate, trialDays: 10, budget: budget({ dailyUsd: 1.2, weeklyUsd: 6, monthlyUsd: 1000 }) }, { costPerEmailUsd }, async ({ fake, handle }) => {
      const result = await h.resultBy(handle, at(plusDays(startDate, 10)) + MINUTE);
      expect(result).to.include({ status: 'completed', reason: 'trial_ended' });
      expect(fake.transitions.map((t) => t.status)).to.deep.equal(['running', 'completed']);
      expect(fake.eventsNamed('campaign.budget_exceeded')).to.deep.equal([]);

      const days = Array.from({ length: 10 }, (_, i) => plusDays(startDate, i));
      for (const kind of ['budget.warning', 'campaign.budget_warning']) {
        const events = fake.eventsNamed(kind);
        const daily = events.filter((e) => e.data.budget_type === 'daily');
        expect(daily.map((e) => e.at.slice(0, 10))).to.deep.equal(days);
        expect(data(daily)).to.deep.equal(days.map(() => ({ budget_type: 'daily', spent_usd: 1, limit_usd: 1.2, percentage: 83 })));
        const weekly = events.filter((e) => e.data.budget_type === 'weekly');
        expect(weekly.map((e) => e.at.slice(0, 10))).to.deep.equal([plusDays(startDate, 4), plusDays(startDate, 9)]);
        expect(data(weekly)).to.deep.equal([1, 2].map(() => ({ budget_type: 'weekly', spent_usd: 5, limit_usd: 6, percentage: 83 })));
        expect(events.filter((e) => e.data.budget_type === 'monthly')).to.deep.equal([]);
      }
      // Each warning is announced in both kinds, in the same call.
      for (const e of fake.eventsNamed('budget.warning')) {
        expect(fake.events.filter((o) => o.call === e.call && o.event === 'campaign.budget_warning').map((o) => o.data)).to.deep.include(e.data);
      }
    });
  });

  it('quota: a batch halted by the plan quota on the last day of the month (S+2) pauses with quota_exceeded; running at exactly the 1st 00:00 (S .. S+4)', async () => {
    const startDate = firstDateAfter(await h.now(), (d) => daysInMonth(d) - Number(d.slice(8)) === 2);
    const first = plusDays(startDate, 3);
    await h.campaign({ startDate, trialDays: 4 }, { monthlyQuota: 60, costPerEmailUsd: 0.01 }, async ({ fake, handle }) => {
      await h.sleepUntil(at(plusDays(startDate, 2), '12:00'));
      expect(await handle.query(statusQuery)).to.include({ status: 'paused', reason: 'quota_exceeded' });
      const paused = fake.transitions[1];
      expect(paused).to.include({ status: 'paused', reason: 'quota_exceeded' });
      within(Date.parse(paused?.at as string), plusDays(startDate, 2), '09:00', '09:01');
      // 10 emails went out that day before the quota (60 a month) ran out.
      expect(paused?.events).to.deep.equal([{ event: 'campaign.paused', data: { reason: 'quota_exceeded', budget_spent_usd: 0.1, budget_limit_usd: null } }]);
      expect(fake.batches[2]?.result.halted).to.equal('quota_exceeded');

      await h.resultBy(handle, at(plusDays(startDate, 4)) + MINUTE);
      expect(fake.transitions.map((t) => [t.status, t.reason])).to.deep.equal([
        ['running', null],
        ['paused', 'quota_exceeded'],
        ['running', null],
        ['completed', 'trial_ended'],
      ]);
      expect(fake.transitions[2]?.at).to.equal(iso(first));
      expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([0, 1, 2, 3].map((n) => plusDays(startDate, n)));
      within(fake.batches[3]?.calledAt as number, first, '09:00', '09:01');
      expect(fake.batches[3]?.result.halted).to.equal(null);
    });
  });
});
