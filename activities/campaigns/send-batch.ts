import { runCampaignBatch, type BatchRuntime } from '../../src/campaigns/sending/send-batch';
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
 * The `sendCampaignBatch` activity: one sending day's steps (see runCampaignBatch), heartbeating
 * after each item and during waits. One writer and one sender per worker: the sender shares its
 * statements between concurrent batches (group commit) and keeps the tracking secret it read.
 */
export function sendCampaignBatch(deps: ActivityDeps, opts: BatchOptions = {}) {
  const services = { ...deps, writer: new EmailWriter(deps), sender: new EmailSender(deps, opts.senderHooks) };
  const runtime: BatchRuntime = { heartbeat, sleep: opts.sleep ?? cancellableSleep };
  return async (input: SendBatchInput): Promise<SendBatchResult> => {
    try {
      return await runCampaignBatch(services, runtime, input);
    } catch (err) {
      throw activityFailure(err);
    }
  };
}
