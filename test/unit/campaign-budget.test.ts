import { expect } from 'chai';
import {
  addSpend,
  dueExceeded,
  dueWarnings,
  emptySpend,
  limitOf,
  monthlyWindow,
  pauseBudgetFigures,
  reachedBudgets,
  reachedLimits,
  remainingUsd,
  rollSpend,
  roundUsd,
  windowStarts,
  type Spend,
} from '../../src/campaigns/model/budget-windows';
import type { CampaignBudget } from '../../src/campaigns/model/status';

/** Budget windows of a campaign: spend per window, room left, 80% warnings and limits reached. */
describe('campaign budget', () => {
  const t = (s: string): number => Date.parse(s);
  const budget = (b: Partial<CampaignBudget>): CampaignBudget => ({ dailyUsd: null, weeklyUsd: null, monthlyUsd: null, ...b });
  // Wednesday 4 March 2026: its week starts on Monday 2 March.
  const WED = t('2026-03-04T10:00:00Z');
  const spent = (usd: number, at = WED): Spend => addSpend(emptySpend(at), usd);

  it('sums of USD amounts do not drift', () => {
    expect(roundUsd(0.1 + 0.2)).to.equal(0.3);
    let s = emptySpend(WED);
    for (let i = 0; i < 25; i++) s = addSpend(s, 0.04);
    expect([s.daily.usd, s.weekly.usd, s.monthly.usd]).to.deep.equal([1, 1, 1]);
    expect(roundUsd(1.23456789)).to.equal(1.234568);
  });

  it('limits by type; no budget, no limits', () => {
    const b = budget({ dailyUsd: 1, weeklyUsd: 5, monthlyUsd: 20 });
    expect([limitOf(b, 'daily'), limitOf(b, 'weekly'), limitOf(b, 'monthly')]).to.deep.equal([1, 5, 20]);
    expect(limitOf(undefined, 'daily')).to.equal(null);
    expect(limitOf(budget({ weeklyUsd: 5 }), 'daily')).to.equal(null);
  });

  it('a manual or quota pause reports the first budget the campaign has, or no limit without one', () => {
    // Spend since Monday differs from today's: a weekly-only campaign reports the week's.
    const week = addSpend(spent(0.5, t('2026-03-02T10:00:00Z')), 0);
    const rolled = addSpend(rollSpend(week, WED), 0.25);
    expect(pauseBudgetFigures(budget({ dailyUsd: 1, weeklyUsd: 5 }), rolled)).to.deep.equal({ spentUsd: 0.25, limitUsd: 1 });
    expect(pauseBudgetFigures(budget({ weeklyUsd: 5 }), rolled)).to.deep.equal({ spentUsd: 0.75, limitUsd: 5 });
    expect(pauseBudgetFigures(budget({ monthlyUsd: 20 }), rolled)).to.deep.equal({ spentUsd: 0.75, limitUsd: 20 });
    expect(pauseBudgetFigures(undefined, rolled)).to.deep.equal({ spentUsd: 0.25, limitUsd: null });
  });

  it('a fresh spend names the windows of its instant', () => {
    expect(emptySpend(WED)).to.deep.equal({
      daily: { key: '2026-03-04', usd: 0, warned: false, exceeded: false },
      weekly: { key: '2026-03-02', usd: 0, warned: false, exceeded: false },
      monthly: { key: '2026-03', usd: 0, warned: false, exceeded: false },
    });
  });

  it('window starts, shared with the API: 00:00 UTC today, Monday 00:00 UTC, the 1st 00:00 UTC', () => {
    expect(windowStarts(WED)).to.deep.equal({ daily: t('2026-03-04T00:00:00Z'), weekly: t('2026-03-02T00:00:00Z'), monthly: t('2026-03-01T00:00:00Z') });
    // A week that began last month: Sunday 1 February 2026's week started Monday 26 January.
    expect(windowStarts(t('2026-02-01T23:59:59Z'))).to.deep.equal({ daily: t('2026-02-01T00:00:00Z'), weekly: t('2026-01-26T00:00:00Z'), monthly: t('2026-02-01T00:00:00Z') });
    // The first instant of a window belongs to it.
    expect(windowStarts(t('2026-03-02T00:00:00Z')).weekly).to.equal(t('2026-03-02T00:00:00Z'));
  });

  it('a monthly window by its key runs to the next 1st (December to January, a leap February)', () => {
    expect(monthlyWindow('2026-12')).to.deep.equal({ start: t('2026-12-01T00:00:00Z'), end: t('2027-01-01T00:00:00Z') });
    expect(monthlyWindow('2028-02')).to.deep.equal({ start: t('2028-02-01T00:00:00Z'), end: t('2028-03-01T00:00:00Z') });
  });

  it('reachedBudgets reads plain amounts as the API has them (a limit of 0 is reached at once)', () => {
    const b = budget({ dailyUsd: 5, weeklyUsd: 0, monthlyUsd: 100 });
    expect(reachedBudgets({ daily: 4.99, weekly: 0, monthly: 20 }, b)).to.deep.equal(['weekly']);
    expect(reachedBudgets({ daily: 5, weekly: 0, monthly: 100 }, b)).to.deep.equal(['daily', 'weekly', 'monthly']);
    expect(reachedBudgets({ daily: 1e9, weekly: 1e9, monthly: 1e9 }, undefined)).to.deep.equal([]);
  });

  describe('rollSpend', () => {
    const marked = (): Spend => {
      const s = spent(2);
      return { daily: { ...s.daily, warned: true, exceeded: true }, weekly: { ...s.weekly, warned: true }, monthly: { ...s.monthly, warned: true } };
    };

    it('keeps windows the instant is still in', () => {
      expect(rollSpend(marked(), t('2026-03-04T23:59:59.999Z'))).to.deep.equal(marked());
    });

    it('the next day starts a new daily window only', () => {
      const rolled = rollSpend(marked(), t('2026-03-05T00:00:00Z'));
      expect(rolled.daily).to.deep.equal({ key: '2026-03-05', usd: 0, warned: false, exceeded: false });
      expect(rolled.weekly).to.deep.equal(marked().weekly);
      expect(rolled.monthly).to.deep.equal(marked().monthly);
    });

    it('Monday starts a new week; the 1st a new month', () => {
      const monday = rollSpend(marked(), t('2026-03-09T00:00:00Z'));
      expect([monday.daily.key, monday.weekly.key, monday.monthly.key]).to.deep.equal(['2026-03-09', '2026-03-09', '2026-03']);
      expect([monday.weekly.usd, monday.monthly.usd]).to.deep.equal([0, 2]);
      const first = rollSpend(marked(), t('2026-04-01T00:00:00Z')); // a Wednesday
      expect([first.daily.key, first.weekly.key, first.monthly.key]).to.deep.equal(['2026-04-01', '2026-03-30', '2026-04']);
      expect([first.daily.usd, first.weekly.usd, first.monthly.usd]).to.deep.equal([0, 0, 0]);
      expect(first.monthly.warned).to.equal(false);
    });
  });

  describe('reachedLimits and remainingUsd', () => {
    it('a limit is reached at its amount, not before', () => {
      const b = budget({ dailyUsd: 1, weeklyUsd: 5 });
      expect(reachedLimits(spent(0.999999), b)).to.deep.equal([]);
      expect(reachedLimits(spent(1), b)).to.deep.equal(['daily']);
      expect(reachedLimits(spent(5), b)).to.deep.equal(['daily', 'weekly']);
      expect(reachedLimits(spent(1000), undefined)).to.deep.equal([]);
    });

    it('a limit of 0 allows no spend at all', () => {
      expect(reachedLimits(spent(0), budget({ monthlyUsd: 0 }))).to.deep.equal(['monthly']);
      expect(remainingUsd(spent(0), budget({ monthlyUsd: 0 }))).to.equal(0);
    });

    it('the room is the smallest of the windows, never negative; null without a budget', () => {
      expect(remainingUsd(spent(0.3), undefined)).to.equal(null);
      expect(remainingUsd(spent(0.3), budget({}))).to.equal(null);
      expect(remainingUsd(spent(0.3), budget({ dailyUsd: 1, weeklyUsd: 5 }))).to.equal(0.7);
      const week = addSpend(emptySpend(t('2026-03-02T10:00:00Z')), 4.5); // Monday's spend
      const wed = rollSpend(week, WED); // a new day, the same week
      expect(remainingUsd(addSpend(wed, 0.3), budget({ dailyUsd: 1, weeklyUsd: 5 }))).to.equal(0.2);
      expect(remainingUsd(spent(1.5), budget({ dailyUsd: 1 }))).to.equal(0);
    });
  });

  describe('dueWarnings', () => {
    const b = budget({ dailyUsd: 1.2, weeklyUsd: 6, monthlyUsd: 100 });

    it('nothing below 80%', () => {
      expect(dueWarnings(spent(0.95), b).events).to.deep.equal([]);
    });

    it('at 80%: both kinds of event with the same payload, marked as warned', () => {
      const { spend, events } = dueWarnings(spent(0.96), b);
      const data = { budget_type: 'daily', spent_usd: 0.96, limit_usd: 1.2, percentage: 80 };
      expect(events).to.deep.equal([
        { event: 'budget.warning', data },
        { event: 'campaign.budget_warning', data },
      ]);
      expect([spend.daily.warned, spend.weekly.warned, spend.monthly.warned]).to.deep.equal([true, false, false]);
    });

    it('exactly 80% warns, with percentage 80, whatever the float error of 0.8 × limit', () => {
      // 0.8 × 3 is 2.4000000000000004 and 2.4 / 3 is 0.7999999999999999 in floating point.
      for (const [limit, usd] of [
        [3, 2.4],
        [6, 4.8],
        [0.7, 0.56],
      ] as const) {
        const { events } = dueWarnings(spent(usd), budget({ weeklyUsd: limit }));
        expect(events.map((e) => e.data), `$${usd} of $${limit}`).to.deep.equal([
          { budget_type: 'weekly', spent_usd: usd, limit_usd: limit, percentage: 80 },
          { budget_type: 'weekly', spent_usd: usd, limit_usd: limit, percentage: 80 },
        ]);
      }
    });

    it('the percentage is whole and rounded down; several types at once', () => {
      const { events } = dueWarnings(spent(5), b);
      expect(events.filter((e) => e.event === 'budget.warning').map((e) => e.data)).to.deep.equal([
        { budget_type: 'daily', spent_usd: 5, limit_usd: 1.2, percentage: 416 },
        { budget_type: 'weekly', spent_usd: 5, limit_usd: 6, percentage: 83 },
      ]);
    });

    it('once per window: not again in the same window, again in the next', () => {
      const first = dueWarnings(spent(1), b);
      expect(first.events).to.have.length(2);
      expect(dueWarnings(addSpend(first.spend, 0.1), b).events).to.deep.equal([]);
      const nextDay = addSpend(rollSpend(first.spend, t('2026-03-05T09:00:00Z')), 1);
      expect(dueWarnings(nextDay, b).events.map((e) => [e.event, e.data.budget_type])).to.deep.equal([
        ['budget.warning', 'daily'],
        ['campaign.budget_warning', 'daily'],
      ]);
    });

    it('no warning without a limit or with a limit of 0', () => {
      expect(dueWarnings(spent(10), undefined).events).to.deep.equal([]);
      expect(dueWarnings(spent(10), budget({ dailyUsd: 0 })).events).to.deep.equal([]);
    });
  });

  describe('dueExceeded', () => {
    const b = budget({ dailyUsd: 1, weeklyUsd: 3 });

    it('nothing under the limits', () => {
      expect(dueExceeded(spent(0.99), b)).to.deep.include({ events: [], first: null });
    });

    it('a limit reached: campaign.budget_exceeded, the window marked, and the type the pause reports', () => {
      const { spend, events, first } = dueExceeded(spent(1), b);
      expect(events).to.deep.equal([{ event: 'campaign.budget_exceeded', data: { budget_type: 'daily', spent_usd: 1, limit_usd: 1 } }]);
      expect(first).to.deep.equal({ type: 'daily', spent: 1, limit: 1 });
      expect([spend.daily.exceeded, spend.weekly.exceeded]).to.deep.equal([true, false]);
    });

    it('announced once per window, but still reported for the pause', () => {
      const once = dueExceeded(spent(1), b);
      const again = dueExceeded(once.spend, b);
      expect(again.events).to.deep.equal([]);
      expect(again.first).to.deep.equal({ type: 'daily', spent: 1, limit: 1 });
    });

    it('several limits: each announced, the first in daily, weekly, monthly order', () => {
      const { events, first } = dueExceeded(spent(3), b);
      expect(events.map((e) => e.data.budget_type)).to.deep.equal(['daily', 'weekly']);
      expect(first).to.deep.equal({ type: 'daily', spent: 3, limit: 1 });
    });
  });
});
