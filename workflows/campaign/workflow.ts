import {
  condition,
  log,
  proxyActivities,
  setCurrentDetails,
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

  /** Markdown shown on the workflow's page in the Temporal Web UI. */
  function describe(): string {
    return [
      `**Campaign** ${input.campaignId} (${input.mcp}) of account ${input.accountId}`,
      `**Status** ${state.status}${state.reason === null ? '' : ` (${state.reason})`}`,
      `**Started** ${state.startedAt === null ? 'not yet' : new Date(state.startedAt).toISOString()}`,
      `**Trial ends** ${state.trialEndsAt === null ? 'no trial end' : new Date(state.trialEndsAt).toISOString()}`,
    ].join('\n\n');
  }

  /** `at` is the logical instant (a timer's due time), not when the workflow task happened to run. */
  async function transition(status: CampaignStatus, reason: string | null, at: number = Date.now()): Promise<void> {
    state.status = status;
    state.reason = reason;
    setSearchAttributes([{ key: CampaignStatusKey, value: status }]);
    setCurrentDetails(describe());
    await recordCampaignTransition({ campaignId: input.campaignId, status, reason, at: new Date(at).toISOString() });
  }

  // Pause/resume requests in arrival order; applied by `drain` between waits.
  const requests: Array<'pause' | 'resume'> = [];
  setHandler(statusQuery, view);
  setHandler(pauseSignal, () => void requests.push('pause'));
  setHandler(resumeSignal, () => void requests.push('resume'));

  setCurrentDetails(describe());
  setSearchAttributes([
    { key: CampaignIdKey, value: input.campaignId },
    { key: AccountIdKey, value: input.accountId },
    { key: McpKey, value: input.mcp },
    { key: CampaignStatusKey, value: state.status },
  ]);

  let lastResumeAt = 0;

  /** Applies pending requests; a pause while paused or a resume while not paused changes nothing. */
  async function drain(): Promise<void> {
    for (let r = requests.shift(); r !== undefined; r = requests.shift()) {
      if (r === 'pause' && state.status !== 'paused') {
        state.pausedFrom = state.status;
        await transition('paused', 'manual');
      } else if (r === 'resume' && state.status === 'paused') {
        lastResumeAt = Date.now();
        await transition(state.pausedFrom ?? 'running', null);
        state.pausedFrom = null;
      }
    }
  }

  /** Waits for the next request, or until `deadline` (epoch ms) when given; then applies requests. */
  async function waitForRequests(deadline?: number): Promise<void> {
    if (deadline === undefined) await condition(() => requests.length > 0);
    else await condition(() => requests.length > 0, Math.max(deadline - Date.now(), 1));
    await drain();
  }

  // Starting: nothing runs before the start date, nor while paused. The trial clock starts when
  // the campaign first runs.
  const startAt = input.startDate === undefined ? Date.now() : startOfUtcDate(input.startDate);
  while (Date.now() < startAt || state.status === 'paused') {
    await waitForRequests(state.status === 'paused' ? undefined : startAt);
  }
  // On its start date, or when resumed after it.
  state.startedAt = Math.max(startAt, lastResumeAt);
  state.trialEndsAt = input.trialDays === undefined ? null : state.startedAt + input.trialDays * DAY_MS;
  await transition('running', null, state.startedAt);
  log.info('campaign running', { campaignId: input.campaignId, workflowId: workflowInfo().workflowId });

  // Running: the trial is calendar time, so it ends on its day even while the campaign is paused.
  if (state.trialEndsAt === null) {
    for (;;) await waitForRequests();
  }
  while (Date.now() < state.trialEndsAt) await waitForRequests(state.trialEndsAt);
  await transition('completed', 'trial_ended', state.trialEndsAt);
  return view();
}
