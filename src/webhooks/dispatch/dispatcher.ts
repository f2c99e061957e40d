import type { Sequelize } from 'sequelize';
import { RETRY_LADDER_MS, type DispatchStats } from '../../../workflows/webhooks/contract';
import type { Egress } from '../../egress';
import type { Logger } from '../../log/logger';
import { GroupCommit } from '../../sending/group-commit';
import { loadDeliveryJobs, type DeliveryJob } from '../delivery-jobs';
import { postWebhook } from '../post-webhook';
import { markRetryOwned, recordFirstAttempts, unownedRetries, type FailedAttempt, type FinishedAttempt } from '../record-attempts';
import type { RetryStarter } from '../retry/retry-starter';
import { signedHeaders } from '../signing';
import { claimExpiredLeases, claimForOrigin, claimOutboxEvents, releaseLeases } from './claim';
import type { OutboxWakeups } from './outbox-wakeups';

export interface DispatcherDeps {
  readonly sequelize: Sequelize;
  readonly egress: Egress;
  readonly retries: RetryStarter;
  readonly log: Logger;
  /** LISTEN-based wake-ups; without them the dispatcher finds new events by polling only. */
  readonly wakeups?: OutboxWakeups;
}

export interface DispatcherOptions {
  /** Attempts in flight at once (each waits up to 10 s for its receiver). */
  readonly maxInFlight: number;
  /**
   * Attempts in flight at once to one origin (scheme, host, port): a receiver that answers slowly
   * or not at all holds at most this many slots, and every other destination keeps the rest.
   */
  readonly maxInFlightPerOrigin: number;
  /** Outbox events claimed per statement. */
  readonly batchSize: number;
  /** How long a claimed delivery stays this dispatcher's before another may take it over. */
  readonly leaseMs: number;
  /** Longest wait between looks at the outbox when no notification comes. */
  readonly pollMs: number;
  /** How often to look for failed deliveries whose retry workflow was never started. */
  readonly sweepEveryMs: number;
  /** Shortest time between looks for pending deliveries whose lease ran out (resends, a dead dispatcher's). */
  readonly leaseCheckEveryMs: number;
}

/** Shortest pause between looks for a busy origin's set-aside deliveries, so ends of attempts coalesce. */
const ORIGIN_LOOK_MS = 3;

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = { maxInFlight: 64, maxInFlightPerOrigin: 48, batchSize: 100, leaseMs: 60_000, pollMs: 1_000, sweepEveryMs: 10_000, leaseCheckEveryMs: 250 };

export interface DispatchRunControl {
  readonly signal: AbortSignal;
  readonly runForMs: number;
  /** Called on every turn of the loop (the activity heartbeats with the figures so far). */
  readonly heartbeat?: (stats: DispatchStats) => void;
}

/**
 * One run of the dispatcher: claim outbox events in batches, post each delivery's first attempt
 * (signed at the moment it is sent), record the attempts in shared statements, and hand every
 * failed one to a retry workflow. A success whose URL has failed deliveries waiting brings the
 * oldest of them back in the same statement, leased to this run, which posts it at once: its
 * success brings the next (catch-up.ts). It stops taking work when `runForMs` is over or `signal`
 * aborts (worker shutdown), and returns once its attempts in flight are recorded.
 *
 * Attempts run concurrently up to `maxInFlight`, and claiming goes on while they run, so one slow
 * receiver holds a slot for at most its 10 s, not the whole batch. The claim takes at most the free
 * slots' worth of events; an event with two destinations may put the dispatcher one batch over.
 */
export async function runDispatcher(deps: DispatcherDeps, options: DispatcherOptions, control: DispatchRunControl): Promise<DispatchStats> {
  return new DispatchRun(deps, options, control).run();
}

/** What recording one first attempt leaves to its caller. */
interface Recorded {
  readonly failed: FailedAttempt | null;
  /** Failed deliveries brought back by a success of this batch, leased to this run (catch-up.ts). */
  readonly caughtUp: readonly string[];
}

class DispatchRun {
  private readonly stats = { eventsClaimed: 0, attempts: 0, delivered: 0, handedToRetry: 0 };
  private readonly inFlight = new Set<Promise<void>>();
  private readonly recorder: GroupCommit<FinishedAttempt, Recorded>;
  private readonly until: number;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  /** Every slot was taken at the last look: a finished attempt is then worth a new look. */
  private full = false;
  private lastLeaseCheck = 0;
  /** Attempts in flight per origin. */
  private readonly busy = new Map<string, number>();
  /** Origins with deliveries set aside in the table because they had their share in flight. */
  private readonly waiting = new Set<string>();
  /** Waiting origins whose attempts ended since the last look: they have slots for set-aside rows. */
  private readonly freed = new Set<string>();
  private lastOriginLook = 0;

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly options: DispatcherOptions,
    private readonly control: DispatchRunControl,
  ) {
    this.until = Date.now() + control.runForMs;
    this.recorder = new GroupCommit<FinishedAttempt, Recorded>(async (items) => {
      const recorded = await recordFirstAttempts(deps.sequelize, items, RETRY_LADDER_MS[0] as number, options.leaseMs);
      const byId = new Map(recorded.failed.map((f) => [f.deliveryId, f]));
      // The deliveries brought back go to the batch's first item, whose attempt launches them.
      return items.map((i, n) => ({ failed: byId.get(i.deliveryId) ?? null, caughtUp: n === 0 ? recorded.caughtUp : [] }));
    });
  }

  async run(): Promise<DispatchStats> {
    const stopListening = this.deps.wakeups?.onWake(() => this.wake());
    const onAbort = () => this.wake();
    this.control.signal.addEventListener('abort', onAbort);
    let lastSweep = 0;
    try {
      while (!this.stopping()) {
        this.control.heartbeat?.({ ...this.stats });
        // Cleared before looking, so a notification that arrives during the claim is not lost.
        this.woken = false;
        const moreWaiting = await this.claimAndLaunch();
        if (Date.now() - lastSweep >= this.options.sweepEveryMs) {
          lastSweep = Date.now();
          await this.sweepUnowned();
        }
        // A busy origin freed a slot during a look too recent to repeat: look again in a moment.
        const pauseMs = this.freed.size > 0 ? ORIGIN_LOOK_MS : this.options.pollMs;
        if (!moreWaiting) await this.waitForWork(Math.min(pauseMs, Math.max(0, this.until - Date.now())));
      }
    } finally {
      stopListening?.();
      this.control.signal.removeEventListener('abort', onAbort);
      // An attempt ending now may have launched a catch-up before it left the set: wait for those too.
      while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    }
    return { ...this.stats };
  }

  /** Claims what the free slots can take and starts those attempts; true when more may be waiting. */
  private async claimAndLaunch(): Promise<boolean> {
    const room = this.options.maxInFlight - this.inFlight.size;
    this.full = room <= 0;
    if (this.full) return false;
    const limit = Math.min(room, this.options.batchSize);
    const claimed = await claimOutboxEvents(this.deps.sequelize, limit, this.options.leaseMs);
    this.stats.eventsClaimed += claimed.events;
    const ids = [...claimed.deliveryIds];
    if (this.freed.size > 0 && Date.now() - this.lastOriginLook >= ORIGIN_LOOK_MS) {
      this.lastOriginLook = Date.now();
      for (const origin of [...this.freed]) {
        this.freed.delete(origin);
        const room = this.options.maxInFlightPerOrigin - (this.busy.get(origin) ?? 0);
        if (room <= 0) continue;
        const taken = await claimForOrigin(this.deps.sequelize, origin, room, this.options.leaseMs);
        if (taken.length < room) this.waiting.delete(origin);
        ids.push(...taken);
      }
    }
    // Expired leases (a dead dispatcher's, or a resend's) are rare: looked for a few times a second,
    // not on every wake-up, which at a steady trickle of events would double the statements.
    if (ids.length < limit && Date.now() - this.lastLeaseCheck >= this.options.leaseCheckEveryMs) {
      this.lastLeaseCheck = Date.now();
      const full = [...this.busy].filter(([, n]) => n >= this.options.maxInFlightPerOrigin).map(([origin]) => origin);
      ids.push(...(await claimExpiredLeases(this.deps.sequelize, limit - ids.length, this.options.leaseMs, full)));
    }
    await this.launchOrSetAside(ids);
    return claimed.events === limit || ids.length >= limit;
  }

  /**
   * Starts the attempts of deliveries leased to this run. A destination with its share in flight
   * gets the rest back as pending deliveries: they wait in the table (not in this process, where a
   * crash would strand them) until one of its slots frees.
   */
  private async launchOrSetAside(ids: readonly string[]): Promise<void> {
    const setAside: string[] = [];
    for (const job of await loadDeliveryJobs(this.deps.sequelize, ids)) {
      const origin = originOf(job.url);
      if ((this.busy.get(origin) ?? 0) >= this.options.maxInFlightPerOrigin) {
        setAside.push(job.deliveryId);
        this.waiting.add(origin);
      } else {
        this.launch(job, origin);
      }
    }
    await releaseLeases(this.deps.sequelize, setAside);
  }

  /**
   * Deliveries a success brought back (catch-up.ts), leased to this run: posted now, unless the run
   * is ending or has no slot (the attempt that brought them still holds its own), in which case
   * their lease is given back and whichever dispatcher looks next takes them over.
   */
  private async launchCaughtUp(ids: readonly string[]): Promise<void> {
    try {
      if (this.stopping() || this.inFlight.size > this.options.maxInFlight) await releaseLeases(this.deps.sequelize, ids);
      else await this.launchOrSetAside(ids);
    } catch (err) {
      // Still pending and leased: taken over when the lease runs out, like any claimed delivery.
      this.deps.log.warn({ err, deliveryIds: ids }, 'caught-up webhook deliveries not launched; they are taken over when their lease runs out');
    }
  }

  private stopping(): boolean {
    return this.control.signal.aborted || Date.now() >= this.until;
  }

  private launch(job: DeliveryJob, origin: string): void {
    this.busy.set(origin, (this.busy.get(origin) ?? 0) + 1);
    const attempt = this.attempt(job)
      .catch((err: unknown) => this.deps.log.error({ err, deliveryId: job.deliveryId }, 'webhook attempt not recorded; it is made again when its lease runs out'))
      .finally(() => {
        this.inFlight.delete(attempt);
        const left = (this.busy.get(origin) ?? 1) - 1;
        if (left > 0) this.busy.set(origin, left);
        else this.busy.delete(origin);
        if (this.waiting.has(origin)) {
          // Its set-aside deliveries can take the slot.
          this.freed.add(origin);
          this.wake();
        } else if (this.full) {
          // A free slot matters only to a dispatcher that had none; new events wake it by NOTIFY.
          this.wake();
        }
      });
    this.inFlight.add(attempt);
  }

  private async attempt(job: DeliveryJob): Promise<void> {
    const headers = signedHeaders(job.body, job.eventId, new Date(), job.secrets);
    const outcome = await postWebhook(this.deps.egress, job.url, job.body, headers);
    this.stats.attempts += 1;
    const { failed, caughtUp } = await this.recorder.submit({ deliveryId: job.deliveryId, cycle: job.cycle, outcome });
    if (outcome.ok) this.stats.delivered += 1;
    if (failed !== null) await this.handToRetry(failed);
    if (caughtUp.length > 0) await this.launchCaughtUp(caughtUp);
  }

  private async handToRetry(failed: FailedAttempt): Promise<void> {
    try {
      const workflowId = await this.deps.retries.start(failed);
      await markRetryOwned(this.deps.sequelize, failed.deliveryId, failed.cycle, workflowId);
      this.stats.handedToRetry += 1;
    } catch (err) {
      // Recorded as retrying without an owner: the sweep starts its workflow later.
      this.deps.log.warn({ err, deliveryId: failed.deliveryId }, 'could not start the retry workflow yet');
    }
  }

  /** Failed deliveries whose retry workflow was never recorded as started (a crash in between). */
  private async sweepUnowned(): Promise<void> {
    const idleMs = 3 * this.options.sweepEveryMs;
    for (const failed of await unownedRetries(this.deps.sequelize, idleMs, this.options.batchSize)) await this.handToRetry(failed);
  }

  private wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async waitForWork(ms: number): Promise<void> {
    if (this.woken || this.control.signal.aborted || ms <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
    this.wakeUp = null;
  }
}

/** `scheme://host[:port]` of a stored URL, exactly as the table's generated `origin` column reads it. */
function originOf(url: string): string {
  return /^[^:]+:\/\/[^/?#]+/.exec(url)?.[0] ?? url;
}
