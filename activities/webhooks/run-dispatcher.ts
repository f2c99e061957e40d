import { ApplicationFailure } from '@temporalio/activity';
import type { DispatchRunInput, DispatchStats } from '../../workflows/webhooks/contract';
import { egressFor } from '../../src/egress';
import { DEFAULT_DISPATCHER_OPTIONS, runDispatcher } from '../../src/webhooks/dispatch/dispatcher';
import { OutboxWakeups } from '../../src/webhooks/dispatch/outbox-wakeups';
import { activityContext } from '../activity-context';
import type { ActivityDeps } from '../deps';

const HEARTBEAT_EVERY_MS = 2_000;

/**
 * Activity `runWebhookDispatcher`: one long run of the dispatcher (see dispatcher.ts), heartbeating
 * its figures. When its worker begins to stop (or the activity is cancelled) it stops claiming,
 * finishes the attempts in flight and returns, and the dispatcher workflow schedules the next run on
 * whichever worker polls next.
 */
export function runWebhookDispatcher(deps: ActivityDeps) {
  return async (input: DispatchRunInput): Promise<DispatchStats> => {
    if (deps.retries === undefined) throw ApplicationFailure.nonRetryable('this worker has no Temporal client to start webhook retries with', 'NoRetryStarter');
    const ctx = activityContext();
    const log = deps.log.child({ component: 'webhook-dispatcher' });
    const wakeups = new OutboxWakeups(deps.sequelize, log);
    try {
      await wakeups.start();
    } catch (err) {
      log.warn({ err }, 'outbox listener unavailable; polling only');
    }
    // The loop turns many times a second under load; the server needs a sign of life, not every turn.
    let lastBeat = 0;
    const heartbeat = (stats: DispatchStats) => {
      const now = Date.now();
      if (now - lastBeat < HEARTBEAT_EVERY_MS) return;
      lastBeat = now;
      ctx?.heartbeat(stats);
    };
    try {
      return await runDispatcher(
        { sequelize: deps.sequelize, egress: egressFor(deps.config), retries: deps.retries, log, wakeups },
        DEFAULT_DISPATCHER_OPTIONS,
        { signal: stopSignal(ctx?.cancellationSignal, deps.stopping), runForMs: input.runForMs, heartbeat },
      );
    } finally {
      await wakeups.close();
    }
  };
}

function stopSignal(...signals: Array<AbortSignal | undefined>): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length === 0 ? new AbortController().signal : AbortSignal.any(present);
}
