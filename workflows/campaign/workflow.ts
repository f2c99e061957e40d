import {
  condition,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { CampaignActivities } from '../../activities';
import { AccountIdKey, CampaignIdKey, CampaignStatusKey, McpKey, type KeywordSearchAttribute } from '../search-attributes';
import {
  pauseSignal,
  resumeSignal,
  statusQuery,
  type CampaignStatus,
  type CampaignStatusView,
  type CampaignWorkflowInput,
} from './contract';
import { DAY_MS, startOfUtcDate } from './time';

type SearchAttributeUpdate = { key: KeywordSearchAttribute; value: string };
function setSearchAttributes(pairs: SearchAttributeUpdate[]): void {
  upsertSearchAttributes(pairs as unknown as Parameters<typeof upsertSearchAttributes>[0]);
}

const { recordCampaignTransition } = proxyActivities<CampaignActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

interface State {
  status: CampaignStatus;
  reason: string | null;
  startedAt: number | null;
  trialEndsAt: number | null;
  /** The status to return to on resume (running, or starting when paused before the start). */
  pausedFrom: CampaignStatus | null;
}

/**
 * The life of one campaign: waits for its start date, runs until its trial ends, and can be paused
 * and resumed at any time before it completes. Sending is driven from here in a later stage.
 */
export async function campaignWorkflow(input: CampaignWorkflowInput): Promise<CampaignStatusView> {
  const state: State = { status: 'starting', reason: null, startedAt: null, trialEndsAt: null, pausedFrom: null };
  const view = (): CampaignStatusView => ({
    status: state.status,
    reason: state.reason,
    startedAt: state.startedAt === null ? null : new Date(state.startedAt).toISOString(),
    trialEndsAt: state.trialEndsAt === null ? null : new Date(state.trialEndsAt).toISOString(),
  });

  async function transition(status: CampaignStatus, reason: string | null): Promise<void> {
    state.status = status;
    state.reason = reason;
    setSearchAttributes([{ key: CampaignStatusKey, value: status }]);
    await recordCampaignTransition({ campaignId: input.campaignId, status, reason, at: new Date(Date.now()).toISOString() });
  }

  let pauseRequested = false;
  let resumeRequested = false;
  setHandler(statusQuery, view);
  setHandler(pauseSignal, () => {
    pauseRequested = true;
  });
  setHandler(resumeSignal, () => {
    resumeRequested = true;
  });

  setSearchAttributes([
    { key: CampaignIdKey, value: input.campaignId },
    { key: AccountIdKey, value: input.accountId },
    { key: McpKey, value: input.mcp },
    { key: CampaignStatusKey, value: state.status },
  ]);

  /** Applies pending pause/resume requests; returns once the campaign is not paused. */
  async function honourPause(): Promise<void> {
    for (;;) {
      if (pauseRequested && state.status !== 'paused') {
        pauseRequested = false;
        resumeRequested = false;
        state.pausedFrom = state.status;
        await transition('paused', 'manual');
      }
      if (state.status !== 'paused') return;
      await condition(() => resumeRequested);
      resumeRequested = false;
      pauseRequested = false;
      await transition(state.pausedFrom ?? 'running', null);
    }
  }

  /** Sleeps until `until` (epoch ms), pausing and resuming as asked on the way. */
  async function waitUntil(until: number): Promise<void> {
    for (;;) {
      await honourPause();
      const left = until - Date.now();
      if (left <= 0) return;
      await condition(() => pauseRequested, left);
    }
  }

  if (input.startDate !== undefined) await waitUntil(startOfUtcDate(input.startDate));
  await honourPause();
  state.startedAt = Date.now();
  state.trialEndsAt = input.trialDays === undefined ? null : state.startedAt + input.trialDays * DAY_MS;
  await transition('running', null);
  log.info('campaign running', { campaignId: input.campaignId, workflowId: workflowInfo().workflowId });

  if (state.trialEndsAt === null) {
    // No trial end: runs until a later stage's schedule ends it; pause/resume keep working.
    for (;;) {
      await honourPause();
      await condition(() => pauseRequested);
    }
  }
  await waitUntil(state.trialEndsAt);
  await transition('completed', 'trial_ended');
  return view();
}
