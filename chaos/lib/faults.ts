import type { FaultFigure } from './figures';
import type { SlowSmtpServer, SmtpStage } from './slow-smtp';

export interface FaultSpec {
  readonly name: string;
  /** Strike while a transaction is before its end of data (`rcpt`) or after it (`data-end`). */
  readonly stage: SmtpStage;
  /** Transactions at that stage let through first (0: strike at the next one). */
  readonly skip: number;
  /** The fault: a kill -9, or the stop of a server that is then restarted. */
  readonly strike: () => Promise<void>;
  /** What brings the service back (the killed or stopped part started again); the restart's clock starts when it is called. */
  readonly restart: () => Promise<void>;
}

export interface FaultContext {
  readonly smtp: SlowSmtpServer;
  /** When the first email of the run was accepted: fault times are shown from there. */
  readonly firstEmailAt: number;
  /** Longest wait for a transaction to strike in; after it the fault strikes anyway. */
  readonly strikeWaitMs: number;
  /** Longest wait for the next email after a restart (the run's remaining time is taken into account by the caller). */
  readonly resumeWaitMs: number;
  /** Whether some expected email has not been received yet. */
  readonly sendingLeft: () => boolean;
}

const STRUCK: Record<SmtpStage, string> = { rcpt: 'before the end of data', 'data-end': 'after the end of data' };

/**
 * One fault: wait for a transaction at `stage` (up to strikeWaitMs), strike, restart, and measure
 * the seconds from the start of the restart to the first email accepted whose transaction began
 * after it. An email that was in flight during the fault does not count as sending again.
 */
export async function runFault(ctx: FaultContext, spec: FaultSpec): Promise<FaultFigure> {
  let event = null;
  for (let i = 0; i <= spec.skip; i++) {
    event = await ctx.smtp.nextStage(spec.stage, ctx.strikeWaitMs);
    if (event === null) break;
  }
  const wasSending = ctx.sendingLeft();
  const at = Date.now();
  await spec.strike();
  const restartAt = Date.now();
  const next = ctx.smtp.acceptedSince(restartAt, ctx.resumeWaitMs);
  await spec.restart();
  const m = await next;
  return {
    name: spec.name,
    atSeconds: (at - ctx.firstEmailAt) / 1000,
    struck: event === null ? 'no transaction in flight' : STRUCK[spec.stage],
    resumeSeconds: m === null ? null : (m.acceptedAt - restartAt) / 1000,
    waitedSeconds: (Date.now() - restartAt) / 1000,
    strikeSeconds: (restartAt - at) / 1000,
    ...(m === null && !wasSending ? { note: 'every expected email had been received before it' } : {}),
  };
}
