/**
 * The campaign runs whose histories are kept as replay fixtures (see record.ts and
 * ../replay.test.ts): one per kind of path through the workflow, each small (a few leads) so that
 * its fixture stays short. Each runs on the time-skipping server with the fake activities, checks
 * that it ended as its name says (a fixture must show what it claims to), and returns the
 * histories to keep.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { History } from '@temporalio/common/lib/proto-utils';
import type { SequencePlan } from '../../../src/campaigns/model/sequence';
import { editUpdate, leadFactSignal, leadRemovedSignal, pauseSignal, pauseUpdate, resumeSignal, resumeUpdate, stopSignal, type CampaignEdit, type CampaignStatusView } from '../../../workflows/campaign/contract';
import { aSchedule, at, daysInMonth, DAY, firstDateAfter, HOUR, MINUTE, plusDays, type CampaignCtx, type CampaignHarness, type CampaignSetup } from '../support/campaign-harness';
import { leadId, type FakeOptions } from '../support/fake-activities';

export interface RecordedHistory {
  /** The fixture's file name, without .json. */
  readonly name: string;
  readonly history: History;
}

export interface Scenario {
  readonly name: string;
  readonly record: (h: CampaignHarness) => Promise<RecordedHistory[]>;
}

/** What a scenario's campaign must have ended with. */
type Expected = Partial<Pick<CampaignStatusView, 'status' | 'reason'>> & { readonly continuedAsNew?: boolean };

/**
 * Runs one campaign: `drive` moves simulated time (and sends signals) until the campaign has
 * closed and returns its result; then the histories of its last run (and first, when it continued
 * as new) are fetched.
 */
async function recordCampaign(
  h: CampaignHarness,
  name: string,
  setup: CampaignSetup,
  fake: FakeOptions,
  expected: Expected,
  drive: (ctx: CampaignCtx) => Promise<CampaignStatusView>,
): Promise<RecordedHistory[]> {
  const recorded: RecordedHistory[] = [];
  await h.campaign({ campaignId: `cmp_${name.replace(/-/g, '_')}`, ...setup }, fake, async (ctx) => {
    const result = await drive(ctx);
    check(name, result, expected);
    const { handle } = ctx;
    const last = await handle.fetchHistory();
    if (!expected.continuedAsNew) {
      recorded.push({ name, history: last });
      return;
    }
    const first = await h.env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
    recorded.push({ name: `${name}.first-run`, history: first }, { name: `${name}.last-run`, history: last });
  });
  return recorded;
}

function check(name: string, result: CampaignStatusView, expected: Expected): void {
  const wrong = (expected.status !== undefined && result.status !== expected.status) || (expected.reason !== undefined && result.reason !== expected.reason);
  if (wrong || (expected.continuedAsNew === true && result.runs === 0)) {
    throw new Error(`scenario ${name} ended ${result.status} (${String(result.reason)}) after ${result.runs + 1} runs, not as expected: ${JSON.stringify(expected)}`);
  }
}

/** A moment to let the worker apply a signal, in simulated time. */
const settle = (h: CampaignHarness): Promise<void> => h.env.sleep(1_000);
/** A written sequence's plan (the workflow input's `sequence`): its own delays, and the steps with a variant test. */
const writtenPlan = (delays: readonly number[], autoWinnerSteps: number[] = []): SequencePlan => ({
  version: 1,
  steps: delays.map((delayDays, i) => ({ delayDays, kind: i === 0 ? 'first' : i === delays.length - 1 ? 'breakup' : 'follow_up' })),
  autoWinnerSteps,
});

const by = { via: 'api_a', keyId: 'key_fixture', keyPrefix: 'fixture' } as const;
/** An edit as the API sends it (its change record's fields are the history's, not the workflow's concern). */
const anEdit = (id: string, e: Partial<CampaignEdit>): CampaignEdit => ({ change: { id, kind: 'edit', by, fields: [] }, settings: {}, columns: {}, sentSteps: 0, ...e });
const schedule = aSchedule;

const futureStart = async (h: CampaignHarness, daysAhead: number): Promise<string> => {
  const now = await h.now();
  return firstDateAfter(now, (d) => at(d) - daysAhead * DAY > now);
};

export const SCENARIOS: readonly Scenario[] = [
  {
    // starting until 00:00 UTC of S, then running: one sending day; completed when the 1-day trial ends.
    name: 'start-date',
    record: async (h) => {
      const startDate = await futureStart(h, 2);
      return recordCampaign(h, 'start-date', { startDate, trialDays: 1 }, { leadPool: 3 }, { status: 'completed', reason: 'trial_ended' }, ({ handle }) =>
        h.resultBy(handle, at(plusDays(startDate, 1)) + MINUTE),
      );
    },
  },
  {
    // Started without a start date at 10:00 (inside the window, whenever the recording is made):
    // running and sending at once; completed at startedAt + 3 days.
    name: 'trial-end',
    record: async (h) => {
      const start = at(firstDateAfter(await h.now(), () => true), '10:00');
      await h.sleepUntil(start);
      return recordCampaign(h, 'trial-end', { trialDays: 3 }, { leadPool: 2 }, { status: 'completed', reason: 'trial_ended' }, ({ handle }) =>
        h.resultBy(handle, start + 3 * DAY + MINUTE),
      );
    },
  },
  {
    // Two leads' sequences on day 0, +3, +7, +14 (the second bounces at +3, reported by the batch); schedule complete.
    name: 'follow-ups',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      return recordCampaign(h, 'follow-ups', { startDate }, { leadPool: 2 }, { status: 'completed', reason: 'schedule_complete' }, async ({ fake, handle }) => {
        await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
        fake.stopFacts.set(leadId(2), 'bounced');
        return h.resultBy(handle, at(plusDays(startDate, 14), '10:00'));
      });
    },
  },
  {
    // Paused while starting and resumed before S; paused while running (S+1 12:00) and resumed at S+3 12:00; trial end at S+5.
    name: 'pause-and-resume',
    record: async (h) => {
      const startDate = await futureStart(h, 3);
      return recordCampaign(h, 'pause-and-resume', { startDate, trialDays: 5 }, { leadPool: 3 }, { status: 'completed', reason: 'trial_ended' }, async ({ handle }) => {
        await handle.signal(pauseSignal, { at: new Date(await h.now()).toISOString() });
        await h.env.sleep(DAY);
        await handle.signal(resumeSignal);
        await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
        await handle.signal(pauseSignal, { at: new Date(await h.now()).toISOString() });
        await h.sleepUntil(at(plusDays(startDate, 3), '12:00'));
        await handle.signal(resumeSignal, { at: new Date(await h.now()).toISOString() });
        return h.resultBy(handle, at(plusDays(startDate, 5)) + MINUTE);
      });
    },
  },
  {
    // A daily budget of $0.10 at $0.05 an email: warning and budget_paused at S 09:00, running
    // again at S+1 00:00 by itself, paused again at S+1 09:00; trial end at S+2.
    name: 'budget-pause',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const setup = { startDate, trialDays: 2, budget: { dailyUsd: 0.1, weeklyUsd: null, monthlyUsd: null } };
      return recordCampaign(h, 'budget-pause', setup, { leadPool: 4, costPerEmailUsd: 0.05 }, { status: 'completed', reason: 'trial_ended' }, ({ handle }) =>
        h.resultBy(handle, at(plusDays(startDate, 2)) + MINUTE),
      );
    },
  },
  {
    // A plan quota of 3 emails a month, reached on the third-last day of the month (S): paused
    // (quota_exceeded) until the 1st (S+3) 00:00; trial end at S+4.
    name: 'quota-pause',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), (d) => daysInMonth(d) - Number(d.slice(8)) === 2);
      return recordCampaign(h, 'quota-pause', { startDate, trialDays: 4 }, { leadPool: 4, monthlyQuota: 3 }, { status: 'completed', reason: 'trial_ended' }, ({ handle }) =>
        h.resultBy(handle, at(plusDays(startDate, 4)) + MINUTE),
      );
    },
  },
  {
    // A reply (signal, S+1 12:00) ends one lead's sequence; Surface B's stop (S+3 12:00) pauses the
    // campaign; the trial ends while it is stopped (S+4).
    name: 'stop-on-reply',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      return recordCampaign(h, 'stop-on-reply', { startDate, trialDays: 4 }, { leadPool: 2 }, { status: 'completed', reason: 'trial_ended' }, async ({ handle }) => {
        await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
        await handle.signal(leadFactSignal, { leadId: leadId(1), fact: 'replied' });
        await settle(h);
        await h.sleepUntil(at(plusDays(startDate, 3), '12:00'));
        await handle.signal(stopSignal, { at: new Date(await h.now()).toISOString() });
        return h.resultBy(handle, at(plusDays(startDate, 4)) + MINUTE);
      });
    },
  },
  {
    // A run on the enrolment table (patch 'enrolment-table'): three leads enrolled on S; at S+1
    // 12:00 lead 1 replies (leadFact, ended by endLeadSequence) and lead 2 is removed by the user
    // (leadRemoved); lead 3's sequence runs to its end; schedule complete at S+14.
    name: 'enrolment',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      return recordCampaign(h, 'enrolment', { startDate }, { leadPool: 3 }, { status: 'completed', reason: 'schedule_complete' }, async ({ fake, handle }) => {
        await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
        await handle.signal(leadFactSignal, { leadId: leadId(1), fact: 'replied' });
        fake.tracks = fake.tracks.filter((t) => t.leadId !== leadId(2));
        await handle.signal(leadRemovedSignal, { leadId: leadId(2), wasActive: true });
        await settle(h);
        return h.resultBy(handle, at(plusDays(startDate, 14), '10:00'));
      });
    },
  },
  {
    // A non-retryable failure of the first sending day (S 09:00): failed with its type and message.
    name: 'failed',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const failBatch = (): Error => ApplicationFailure.nonRetryable('key refused', 'LlmRejected');
      return recordCampaign(h, 'failed', { startDate }, { leadPool: 1, failBatch }, { status: 'failed', reason: 'LlmRejected: key refused' }, ({ handle }) =>
        h.resultBy(handle, at(startDate, '10:00')),
      );
    },
  },
  {
    // maxHistoryEvents 60: three leads' sequences (S .. S+14) across several runs; the first run
    // ends in continue-as-new, the last starts from the state carried to it.
    name: 'continue-as-new',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const setup = { startDate, maxHistoryEvents: 60 };
      return recordCampaign(h, 'continue-as-new', setup, { leadPool: 3 }, { status: 'completed', reason: 'schedule_complete', continuedAsNew: true }, ({ handle }) =>
        h.resultBy(handle, at(plusDays(startDate, 14), '10:00') + HOUR),
      );
    },
  },
  {
    // A written sequence (steps 0, 2 and 3 days apart, not the template's): two leads' steps on S,
    // S+2 and S+5; lead 1's follow-up (S+2) and lead 2's last step (S+5) passed over (omitted);
    // schedule complete at S+5.
    name: 'written-sequence',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const omitted: Record<string, number> = { [leadId(1)]: 1, [leadId(2)]: 2 };
      const decide = (item: { leadId: string; step: number }): 'omitted' | undefined => (omitted[item.leadId] === item.step ? 'omitted' : undefined);
      const setup = { startDate, sequence: writtenPlan([0, 2, 3]) };
      return recordCampaign(h, 'written-sequence', setup, { leadPool: 2, decide }, { status: 'completed', reason: 'schedule_complete' }, ({ handle }) =>
        h.resultBy(handle, at(plusDays(startDate, 5), '10:00')),
      );
    },
  },
  {
    // Variant tests on both steps (0 and 2 days apart): first emails on S; before the second
    // sending day (S+1) the test of step 1 is decided (B); on S+2 only step 2's is asked about
    // (undecided) before the last step goes out; schedule complete at S+2.
    name: 'variant-test',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const winners = (_input: unknown, call: { calledDay: string }): Array<{ step: number; variant: 'B' }> => (call.calledDay === plusDays(startDate, 1) ? [{ step: 0, variant: 'B' }] : []);
      const setup = { startDate, sequence: writtenPlan([0, 2], [0, 1]) };
      return recordCampaign(h, 'variant-test', setup, { leadPool: 2, winners }, { status: 'completed', reason: 'schedule_complete' }, async ({ fake, handle }) => {
        const result = await h.resultBy(handle, at(plusDays(startDate, 2), '10:00'));
        const asked = fake.winnerChecks.map((w) => `${w.calledDay}:${w.input.steps.join(',')}:${w.result.decided.length}`);
        const expected = [`${plusDays(startDate, 1)}:0,1:1`, `${plusDays(startDate, 2)}:1:0`];
        if (asked.join(' ') !== expected.join(' ')) throw new Error(`scenario variant-test asked ${asked.join(' ')}, not ${expected.join(' ')}`);
        return result;
      });
    },
  },
  {
    // Pause, resume and edits as Updates: a resume refused while running (never in the history);
    // paused at S 12:00 and resumed at S+1 12:00 (S+1's sending follows at once); the daily budget
    // lowered to $0 (budget_paused at once) and removed (running); then new steps, weekday windows
    // of 10:00-16:00 and a trial of 4 days; trial end at S+4.
    name: 'edited-campaign',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const setup = { startDate, trialDays: 6, sequence: writtenPlan([0, 2, 3]), schedule: schedule({}) };
      return recordCampaign(h, 'edited-campaign', setup, { leadPool: 3, costPerEmailUsd: 0.01 }, { status: 'completed', reason: 'trial_ended' }, async ({ handle }) => {
        await h.sleepUntil(at(startDate, '12:00'));
        await handle.executeUpdate(resumeUpdate, { args: [{ changeId: 'chg_refused', by }] }).then(
          () => Promise.reject(new Error('a resume of a running campaign was accepted')),
          () => undefined,
        );
        await handle.executeUpdate(pauseUpdate, { args: [{ changeId: 'chg_pause', by }] });
        await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
        await handle.executeUpdate(resumeUpdate, { args: [{ changeId: 'chg_resume', by }] });
        await settle(h);
        await handle.executeUpdate(editUpdate, { args: [anEdit('chg_budget_0', { settings: { budget: { dailyUsd: 0, weeklyUsd: null, monthlyUsd: null } } })] });
        await handle.executeUpdate(editUpdate, { args: [anEdit('chg_budget_none', { settings: { budget: null } })] });
        const steps = [0, 1, 2, 3].map((delayDays) => ({ delayDays, variants: [{ id: 'A' as const, weight: 1, mode: 'template' as const, subject: delayDays === 0 ? 'Hi' : null, body: `Step ${delayDays}`, instructions: null }], autoWinner: null }));
        await handle.executeUpdate(editUpdate, {
          args: [
            anEdit('chg_steps', {
              sequence: { source: 'custom', template: null, steps } as unknown as CampaignEdit['sequence'],
              sentSteps: 1,
              settings: { trialDays: 4, schedule: schedule({ days: { '1': { startMinute: 600, endMinute: 960 }, '2': { startMinute: 600, endMinute: 960 }, '3': { startMinute: 600, endMinute: 960 }, '4': { startMinute: 600, endMinute: 960 }, '5': { startMinute: 600, endMinute: 960 } } }) },
            }),
          ],
        });
        return h.resultBy(handle, at(plusDays(startDate, 4)) + MINUTE);
      });
    },
  },
  {
    // timezone "lead": every lead in their own window. The (fake) batch says the next lead's window
    // opens 6 hours later the same UTC day; the campaign wakes then, and at the start of each day
    // (UTC, its fallback zone) to plan; trial end at S+2.
    name: 'lead-zone',
    record: async (h) => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const nextWakeAt = (now: number): number | null => (now % DAY < 12 * HOUR ? now + 6 * HOUR : null);
      const setup = { startDate, trialDays: 2, schedule: schedule({ leadTimezones: true, timezone: 'Europe/Berlin' }) };
      return recordCampaign(h, 'lead-zone', setup, { leadPool: 4, nextWakeAt }, { status: 'completed', reason: 'trial_ended' }, ({ handle }) =>
        h.resultBy(handle, at(plusDays(startDate, 2)) + MINUTE),
      );
    },
  },
];
