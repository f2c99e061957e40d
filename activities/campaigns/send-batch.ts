import { runCampaignBatch, type BatchProgress, type BatchRuntime } from '../../src/campaigns/sending/send-batch';
import { EmailSender, type SenderHooks } from '../../src/sending/email-sender';
import { EmailWriter } from '../../src/writing/email-writer';
import type { SendBatchInput, SendBatchResult } from '../../workflows/campaign/contract';
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
  return async (input: SendBatchInput): Promise<SendBatchResult> => {
    let progress: BatchProgress = { done: 0, of: input.items.length, costUsd: 0 };
    const runtime: BatchRuntime = {
      heartbeat: (p) => {
        progress = p;
        heartbeat(p);
      },
      sleep: opts.sleep ?? cancellableSleep,
    };
    const beat = setInterval(() => heartbeat(progress), HEARTBEAT_EVERY_MS);
    try {
      return await runCampaignBatch(services, runtime, input);
    } catch (err) {
      throw activityFailure(err);
    } finally {
      clearInterval(beat);
    }
  };
}
