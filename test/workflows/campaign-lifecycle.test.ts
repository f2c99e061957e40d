import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { campaignWorkflow } from '../../workflows';
import { campaignWorkflowId, pauseSignal, resumeSignal, statusQuery, type CampaignTransition, type CampaignWorkflowInput } from '../../workflows/campaign/contract';
import { DAY_MS } from '../../workflows/campaign/time';
import { registerSearchAttributes } from '../../src/temporal/register-search-attributes';
import { createTimeSkippingEnv } from '../support/time-skipping';
import { createTestWorker } from '../support/workflow-worker';

/**
 * The campaign's life over simulated days and weeks. Every test states the simulated dates it
 * crosses; the time-skipping server moves the clock, so none waits on the real one.
 */
describe('campaign workflow lifecycle (time-skipping)', () => {
  let env: TestWorkflowEnvironment;

  before(async () => {
    env = await createTimeSkippingEnv();
    await registerSearchAttributes(env.connection, env.namespace ?? 'default');
  });
  after(async () => {
    await env?.teardown();
  });

  /** Runs `body` with a worker whose transition activity records into `transitions`. */
  async function withCampaign(
    input: Omit<CampaignWorkflowInput, 'campaignId' | 'accountId' | 'mcp'>,
    body: (ctx: { transitions: CampaignTransition[]; handle: Awaited<ReturnType<TestWorkflowEnvironment['client']['workflow']['start']>> }) => Promise<void>,
  ): Promise<void> {
    const transitions: CampaignTransition[] = [];
    const taskQueue = `tq-${randomUUID()}`;
    const worker = await createTestWorker(env, taskQueue, {
      recordCampaignTransition: async (t) => void transitions.push(t),
    });
    const campaignId = `cmp_${randomUUID().slice(0, 8)}`;
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(campaignWorkflow, {
        taskQueue,
        workflowId: campaignWorkflowId(campaignId),
        args: [{ campaignId, accountId: 'acc_test', mcp: 'sales_outreach', ...input }],
      });
      await body({ transitions, handle });
    });
  }

  const at = (t: CampaignTransition): number => Date.parse(t.at);

  it('a 14-day trial runs at once and completes 14 days later with trial_ended', async () => {
    await withCampaign({ trialDays: 14 }, async ({ transitions, handle }) => {
      const result = await handle.result(); // the server skips the 14 simulated days
      expect(result.status).to.equal('completed');
      expect(result.reason).to.equal('trial_ended');
      expect(transitions.map((t) => [t.status, t.reason])).to.deep.equal([
        ['running', null],
        ['completed', 'trial_ended'],
      ]);
      const [running, completed] = transitions as [CampaignTransition, CampaignTransition];
      // Day 0 -> day 14, to the millisecond of simulated time.
      expect(at(completed) - at(running)).to.equal(14 * DAY_MS);
      expect(Date.parse(result.trialEndsAt as string)).to.equal(at(completed));
    });
  });

  it('a future start date: starting until 00:00 UTC of that date, then running', async () => {
    const now = await env.currentTimeMs();
    const startDate = new Date(now + 3 * DAY_MS).toISOString().slice(0, 10); // 3 days ahead, crossing 2-3 midnights
    await withCampaign({ trialDays: 7, startDate }, async ({ transitions, handle }) => {
      await env.sleep(2 * DAY_MS); // day 2: still before the start date
      expect((await handle.query(statusQuery)).status).to.equal('starting');
      expect(transitions).to.deep.equal([]);
      const result = await handle.result();
      expect(result.status).to.equal('completed');
      const [running, completed] = transitions as [CampaignTransition, CampaignTransition];
      expect(running.at).to.equal(`${startDate}T00:00:00.000Z`);
      expect(at(completed) - at(running)).to.equal(7 * DAY_MS);
    });
  });

  it('pause and resume while running; the trial still ends on its calendar day', async () => {
    await withCampaign({ trialDays: 14 }, async ({ transitions, handle }) => {
      await env.sleep(2 * DAY_MS); // day 2
      await handle.signal(pauseSignal);
      await env.sleep(1_000);
      expect(await handle.query(statusQuery)).to.include({ status: 'paused', reason: 'manual' });
      await env.sleep(3 * DAY_MS); // day 5: a pause lasts until resumed
      expect((await handle.query(statusQuery)).status).to.equal('paused');
      await handle.signal(pauseSignal); // pausing twice changes nothing
      await handle.signal(resumeSignal);
      await env.sleep(1_000);
      expect(await handle.query(statusQuery)).to.include({ status: 'running', reason: null });
      const result = await handle.result();
      expect(result.status).to.equal('completed');
      expect(transitions.map((t) => t.status)).to.deep.equal(['running', 'paused', 'running', 'completed']);
      const [start, paused, resumed, completed] = transitions.map(at) as [number, number, number, number];
      expect(Math.round((paused - start) / DAY_MS)).to.equal(2);
      expect(Math.round((resumed - start) / DAY_MS)).to.equal(5);
      expect(completed - start).to.equal(14 * DAY_MS);
    });
  });

  it('paused before its start date: stays paused past it, and the trial starts on resume', async () => {
    const now = await env.currentTimeMs();
    const startDate = new Date(now + 2 * DAY_MS).toISOString().slice(0, 10);
    await withCampaign({ trialDays: 3, startDate }, async ({ transitions, handle }) => {
      await handle.signal(pauseSignal);
      await env.sleep(5 * DAY_MS); // day 5: past the start date, still paused
      expect((await handle.query(statusQuery)).status).to.equal('paused');
      await handle.signal(resumeSignal);
      const result = await handle.result();
      expect(transitions.map((t) => t.status)).to.deep.equal(['paused', 'starting', 'running', 'completed']);
      const running = transitions[2] as CampaignTransition;
      expect(at(running) - now).to.be.greaterThan(5 * DAY_MS - 60_000);
      expect(Date.parse(result.trialEndsAt as string) - at(running)).to.equal(3 * DAY_MS);
    });
  });
});
