import { runCampaignBatch, type BatchProgress, type BatchRuntime } from '../../src/campaigns/sending/send-batch';
import { sendEnrolledBatch as sendFromEnrolment, type Reverify } from '../../src/campaigns/sending/send-enrolled';
import { reverifyIfStale } from '../../src/leads/verification/verify-leads';
import { EmailSender, type SenderHooks } from '../../src/sending/email-sender';
import { EmailWriter } from '../../src/writing/email-writer';
import type { SendBatchInput, SendBatchResult, SendEnrolledInput, SendEnrolledResult } from '../../workflows/campaign/contract';
import { cancellableSleep, heartbeat } from '../activity-context';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

export interface BatchOptions {
  /** Tests: see SenderHooks. */
  readonly senderHooks?: SenderHooks;
  /** Tests: instead of the activity's cancellable sleep. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * How often the batch heartbeats while it runs, whatever it is doing (an SMTP exchange with a slow
 * server, an LLM writing): well inside the batch's heartbeat timeout (workflows/campaign/
 * activity-proxies.ts), which is what makes a dead worker's batch start again quickly. The SDK
 * sends at most one heartbeat per throttle interval to the server, so this costs nothing more.
 */
const HEARTBEAT_EVERY_MS = 3_000;

/**
 * The `sendCampaignBatch` activity: one sending day's steps (see runCampaignBatch), heartbeating
 * after each item and every few seconds. One writer and one sender per worker: the sender shares
 * its statements between concurrent batches (group commit) and keeps the tracking secret it read.
 */
export function sendCampaignBatch(deps: ActivityDeps, opts: BatchOptions = {}) {
  const services = { ...deps, writer: new EmailWriter(deps), sender: new EmailSender(deps, opts.senderHooks) };
  return async (input: SendBatchInput): Promise<SendBatchResult> => withBatchRuntime(input.items.length, opts, (runtime) => runCampaignBatch(services, runtime, input));
}

/**
 * The `sendEnrolledBatch` activity: one batch of a sending day read from the enrolment table (see
 * send-enrolled.ts), with the same heartbeats, sleeps and services as sendCampaignBatch. `reverify`
 * checks again the addresses of first emails whose last check is older than a week.
 */
export function sendEnrolledBatch(deps: ActivityDeps & { readonly reverify?: Reverify }, opts: BatchOptions = {}) {
  const reverify: Reverify = deps.reverify ?? ((accountId, leadIds) => reverifyIfStale(deps, accountId, leadIds));
  const services = { ...deps, reverify, writer: new EmailWriter(deps), sender: new EmailSender(deps, opts.senderHooks) };
  return async (input: SendEnrolledInput): Promise<SendEnrolledResult> => withBatchRuntime(input.maxItems, opts, (runtime) => sendFromEnrolment(services, runtime, input));
}

/** Runs a batch with its heartbeats (after each item and every few seconds) and its cancellable sleep. */
async function withBatchRuntime<T>(of: number, opts: BatchOptions, run: (runtime: BatchRuntime) => Promise<T>): Promise<T> {
  let progress: BatchProgress = { done: 0, of, costUsd: 0 };
  const runtime: BatchRuntime = {
    heartbeat: (p) => {
      progress = p;
      heartbeat(p);
    },
    sleep: opts.sleep ?? cancellableSleep,
  };
  const beat = setInterval(() => heartbeat(progress), HEARTBEAT_EVERY_MS);
  try {
    return await run(runtime);
  } catch (err) {
    throw activityFailure(err);
  } finally {
    clearInterval(beat);
  }
}
