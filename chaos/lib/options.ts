import { TEMPLATES, type OutreachTemplate } from '../../src/campaigns/model/templates';
import { seededRandom } from '../../src/util/seeded-random';

/** What a chaos run is asked to do (the CHAOS_* variables; see chaos/run.ts). */
export interface ChaosOptions {
  readonly campaigns: number;
  readonly leads: number;
  readonly smtpDelayMs: number;
  readonly seed: number;
  readonly maxMinutes: number;
  readonly webhookDownHours: number;
  readonly keep: boolean;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name}=${raw}: expected a whole number from ${min} to ${max}`);
  return n;
}

/** The largest number of first emails a campaign sends on one day (its template's new leads per day). */
export const MAX_LEADS = Math.max(...TEMPLATES.map((t) => t.newLeadsPerDay));

export function chaosOptions(env: NodeJS.ProcessEnv = process.env): ChaosOptions {
  return {
    campaigns: integer(env, 'CHAOS_CAMPAIGNS', 4, 1, 10),
    // Every lead is due today only if the template takes that many new leads a day.
    leads: integer(env, 'CHAOS_LEADS', MAX_LEADS, 1, MAX_LEADS),
    smtpDelayMs: integer(env, 'CHAOS_SMTP_DELAY_MS', 250, 20, 5_000),
    seed: integer(env, 'CHAOS_SEED', 1, 0, 2 ** 31 - 1),
    maxMinutes: integer(env, 'CHAOS_MAX_MINUTES', 15, 3, 120),
    webhookDownHours: integer(env, 'CHAOS_WEBHOOK_DOWN_HOURS', 48, 1, 24 * 14),
    keep: env.CHAOS_KEEP === '1' || env.CHAOS_KEEP === 'true',
  };
}

/**
 * The templates a campaign of `leads` leads can use so that every lead's first email is due today
 * (newLeadsPerDay at least `leads`), in the catalog's order.
 */
export function templatesFor(leads: number): OutreachTemplate[] {
  return TEMPLATES.filter((t) => t.newLeadsPerDay >= leads);
}

/** A seeded generator, so CHAOS_SEED replays the same choices. */
export { seededRandom };
