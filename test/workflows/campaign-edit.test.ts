import { WorkflowUpdateFailedError } from '@temporalio/client';
import { expect } from 'chai';
import { editUpdate, pauseUpdate, resumeUpdate, statusQuery, stopUpdate, type CampaignEdit, type ChangeActor } from '../../workflows/campaign/contract';
import type { CampaignSequence } from '../../src/campaigns/model/sequence';
import { aSchedule, at, CampaignHarness, firstDateAfter, plusDays, weekday, type CampaignHandle } from './support/campaign-harness';

/**
 * A campaign changed while it runs (time-skipping, fake activities): pause, stop and resume are
 * Updates whose validators refuse a move the status does not allow before it enters the history;
 * an edit's budget, schedule and steps take effect at once and outlive the run they arrived in.
 */
describe('campaign workflow: Updates and edits (time-skipping)', function () {
  this.timeout(120_000);
  const h = new CampaignHarness();
  before(() => h.start());
  after(() => h.stop());

  const by: ChangeActor = { via: 'api_a', keyId: 'key_1', keyPrefix: 'pfx' };
  let n = 0;
  const changeId = (): string => `chg_test_${++n}`;
  const edit = (e: Partial<CampaignEdit>): CampaignEdit => ({ change: { id: changeId(), kind: 'edit', by, fields: [] }, settings: {}, columns: {}, sentSteps: 0, ...e });
  const refusal = async (p: Promise<unknown>): Promise<{ type: string | undefined; message: string }> => {
    try {
      await p;
    } catch (err) {
      expect(err).to.be.instanceOf(WorkflowUpdateFailedError);
      const cause = (err as WorkflowUpdateFailedError).cause as Error & { type?: string };
      return { type: cause.type, message: cause.message };
    }
    throw new Error('the Update was not refused');
  };
  const updatesInHistory = async (handle: CampaignHandle): Promise<number> => {
    const history = await handle.fetchHistory();
    return (history.events ?? []).filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes != null).length;
  };

  it('pause, stop and resume: a refused move says why and never enters the history; an accepted one answers with the recorded transition', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    await h.campaign({ startDate, trialDays: 5 }, {}, async ({ fake, handle }) => {
      await h.sleepUntil(at(startDate, '10:00'));
      expect((await handle.query(statusQuery)).status).to.equal('running');

      const refused = await refusal(handle.executeUpdate(resumeUpdate, { args: [{ changeId: changeId(), by }] }));
      expect(refused.type).to.equal('MoveRefused');
      expect(refused.message).to.match(/is running: only a paused or budget_paused campaign can be resumed/);
      expect(await updatesInHistory(handle)).to.equal(0);

      const paused = await handle.executeUpdate(pauseUpdate, { args: [{ changeId: 'chg_pause', by }] });
      expect(paused).to.include({ status: 'paused', reason: 'manual' });
      const recorded = fake.transitions.at(-1);
      expect(recorded).to.include({ status: 'paused', reason: 'manual', at: paused.at });
      expect(recorded?.change).to.deep.equal({ id: 'chg_pause', kind: 'pause', by, fields: [{ field: 'status', from: 'running', to: 'paused' }] });

      const stopAgain = await refusal(handle.executeUpdate(stopUpdate, { args: [{ changeId: changeId(), by }] }));
      expect(stopAgain.message).to.match(/is paused: only a starting, running or budget_paused campaign can be stopped/);
      expect(await updatesInHistory(handle)).to.equal(1);

      // Paused: the next days send nothing, until the resume.
      const sentBefore = fake.sentSteps().length;
      await h.sleepUntil(at(plusDays(startDate, 2), '12:00'));
      expect(fake.sentSteps().length).to.equal(sentBefore);
      const resumed = await handle.executeUpdate(resumeUpdate, { args: [{ changeId: 'chg_resume', by }] });
      expect(resumed.status).to.equal('running');
      expect(fake.transitions.at(-1)?.change?.kind).to.equal('resume');
      await h.sleepUntil(at(plusDays(startDate, 3), '12:00'));
      expect(fake.sentSteps().length).to.be.greaterThan(sentBefore);
    });
  });

  it('a budget lowered below the day\'s spend pauses at once (budget_exceeded); raised again, the campaign runs that very day', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    await h.campaign({ startDate, trialDays: 5 }, { costPerEmailUsd: 0.05 }, async ({ fake, handle }) => {
      await h.sleepUntil(at(startDate, '10:00'));
      const spent = (await handle.query(statusQuery)).spend.daily.usd;
      expect(spent).to.be.greaterThan(0);

      const lowered = await handle.executeUpdate(editUpdate, { args: [edit({ settings: { budget: { dailyUsd: spent / 2, weeklyUsd: null, monthlyUsd: null } } })] });
      expect(lowered).to.include({ status: 'budget_paused', reason: 'budget_exceeded' });
      const pausedAt = fake.transitions.at(-1);
      expect(pausedAt?.events?.[0]).to.deep.equal({ event: 'campaign.paused', data: { reason: 'budget_exceeded', budget_spent_usd: spent, budget_limit_usd: spent / 2 } });

      const raised = await handle.executeUpdate(editUpdate, { args: [edit({ settings: { budget: { dailyUsd: 100, weeklyUsd: null, monthlyUsd: null } } })] });
      expect(raised).to.include({ status: 'running', reason: null });
      const view = await handle.query(statusQuery);
      expect(view.spend.daily.limitUsd).to.equal(100);
      expect(fake.edits).to.have.length(2);
    });
  });

  it('new steps: later sends use the new sequence version; a sequence shorter than the steps sent is refused by the validator', async () => {
    const startDate = firstDateAfter(await h.now(), () => true);
    const step = (text: string, delayDays: number) => ({ delayDays, variants: [{ id: 'A' as const, weight: 1, mode: 'template' as const, subject: delayDays === 0 ? 'Hi' : null, body: text, instructions: null }], autoWinner: null });
    const sequence = { source: 'custom', template: null, steps: [step('one', 0), step('two', 2)] } as unknown as CampaignSequence;
    await h.campaign({ startDate, trialDays: 6, sequence: { version: 1, steps: [{ delayDays: 0, kind: 'first' }, { delayDays: 2, kind: 'reply' }], autoWinnerSteps: [] } as never }, {}, async ({ fake, handle }) => {
      await h.sleepUntil(at(startDate, '10:00'));
      expect(fake.batches.at(-1)?.input.sequenceVersion).to.equal(1);

      const tooShort = await refusal(handle.executeUpdate(editUpdate, { args: [edit({ sequence: { ...sequence, steps: [step('one', 0)] }, sentSteps: 2 })] }));
      expect(tooShort.type).to.equal('InvalidEdit');
      expect(tooShort.message).to.match(/sequence: step 2 was already sent/);

      const changed = await handle.executeUpdate(editUpdate, { args: [edit({ sequence, sentSteps: 1 })] });
      expect(changed.sequenceVersion).to.equal(2);
      await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
      expect(fake.batches.at(-1)?.input.sequenceVersion).to.equal(2);
    });
  });

  it('a new schedule: sends only on the weekdays it names, in their hours, from the next slot on; one that can never send waits without failing', async () => {
    const startDate = firstDateAfter(await h.now(), (d) => weekday(d) === 1);
    await h.campaign({ startDate, trialDays: 14 }, {}, async ({ fake, handle }) => {
      await h.sleepUntil(at(startDate, '10:00'));
      // From Tuesday on: Wednesdays only, 14:00-15:00 UTC.
      await handle.executeUpdate(editUpdate, {
        args: [edit({ settings: { schedule: aSchedule({ days: { '3': { startMinute: 840, endMinute: 900 } } }) } })],
      });
      await h.sleepUntil(at(plusDays(startDate, 7), '23:00'));
      const later = fake.batches.filter((b) => b.calledAt > at(startDate, '23:59'));
      expect(later.length).to.be.greaterThan(0);
      for (const b of later) {
        expect(weekday(b.calledDay)).to.equal(3);
        expect(b.calledAt % 86_400_000).to.be.within(14 * 3_600_000, 15 * 3_600_000);
      }

      // Wednesdays only, every Wednesday of the next year blacked out: no day ever comes.
      const wednesdays = Array.from({ length: 60 }, (_, i) => plusDays(startDate, 9 + 7 * i));
      await handle.executeUpdate(editUpdate, {
        args: [edit({ settings: { schedule: aSchedule({ days: { '3': { startMinute: 840, endMinute: 900 } }, blackoutDates: wednesdays }) } })],
      });
      const count = fake.batches.length;
      await h.sleepUntil(at(plusDays(startDate, 13), '12:00'));
      expect(fake.batches.length).to.equal(count);
      expect((await handle.query(statusQuery)).status).to.equal('running');
      const done = await h.resultBy(handle, at(plusDays(startDate, 14), '00:01'));
      expect(done).to.include({ status: 'completed', reason: 'trial_ended' });
    });
  });
});
