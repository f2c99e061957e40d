/**
 * A campaign's figures per step and per variant: the campaign's own counts (campaign-counts.ts,
 * the same definitions) over the emails of each (step, variant), the positive replies among their
 * replies, and the steps passed over for leads (step_skips). Read by GET .../stats/steps and by
 * the variant tests (auto-winner), so the figures a winner is declared on are the ones shown.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { CampaignSequence, VariantId } from '../model/sequence';
import type { CampaignCounts } from './campaign-counts';
import { rate } from './rates';

export type StepCounts = Omit<CampaignCounts, 'meetingsBooked'> & {
  readonly meetingsBooked: number;
  /** Emails with a reply of positive sentiment (qualified interested, meeting_booked or closed). */
  readonly positiveReplies: number;
  /** Leads for whom the step was passed over (a merge variable without a value, ...). */
  readonly skipped: number;
};

export interface StepRates {
  readonly deliveryRate: number;
  readonly openRate: number;
  readonly clickRate: number;
  readonly replyRate: number;
  readonly positiveReplyRate: number;
  readonly bounceRate: number;
  readonly unsubscribeRate: number;
}

export interface VariantStats {
  /** A-E; null for emails sent before variants were recorded. */
  readonly variant: VariantId | null;
  readonly weight: number | null;
  readonly counts: StepCounts;
  readonly rates: StepRates;
}

export interface StepStats {
  /** 1 for the first email. */
  readonly step: number;
  readonly total: { readonly counts: StepCounts; readonly rates: StepRates };
  readonly variants: readonly VariantStats[];
}

const ZERO: StepCounts = { emailsSent: 0, delivered: 0, bounced: 0, opened: 0, clicked: 0, replied: 0, unsubscribed: 0, meetingsBooked: 0, positiveReplies: 0, skipped: 0 };

export function stepRates(c: StepCounts): StepRates {
  return {
    deliveryRate: rate(c.delivered, c.emailsSent),
    openRate: rate(c.opened, c.delivered),
    clickRate: rate(c.clicked, c.delivered),
    replyRate: rate(c.replied, c.delivered),
    positiveReplyRate: rate(c.positiveReplies, c.delivered),
    bounceRate: rate(c.bounced, c.emailsSent),
    unsubscribeRate: rate(c.unsubscribed, c.delivered),
  };
}

/**
 * The counts of campaign-counts.ts (COUNT_SQL) per (step, variant), computed per email first: each
 * email's facts become one row of flags (hash-aggregated by email id), and the step's figures count
 * emails with a flag. Per email, "distinct emails with an opened fact" is "emails whose opened flag
 * is set", and delivered (|delivered ∪ bounced| − |bounced|) is "delivered and not bounced", so the
 * figures are the campaign's own definitions. Joining the 100,000 emails of a large campaign to
 * their ~250,000 facts and sorting those for six DISTINCT counts took about twice as long.
 * MATERIALIZED keeps the plan serial: inlined, PostgreSQL chose a parallel hash join in which
 * every worker built the whole per-email aggregate again (three times the CPU, no faster).
 */
const STEP_COUNTS_SQL = `
WITH per_email AS MATERIALIZED (
  SELECT email_id,
         count(*) FILTER (WHERE type = 'sent') AS sent,
         bool_or(type = 'delivered') AS delivered,
         bool_or(type = 'bounced') AS bounced,
         bool_or(type = 'opened') AS opened,
         bool_or(type = 'clicked') AS clicked,
         bool_or(type = 'replied') AS replied,
         bool_or(type = 'unsubscribed') AS unsubscribed,
         count(*) FILTER (WHERE type = 'meeting_booked') AS meetings
    FROM email_events
   WHERE campaign_id = $1 AND email_id IS NOT NULL
   GROUP BY email_id
)
SELECT e.step, e.variant,
       sum(p.sent)::int AS "emailsSent",
       count(*) FILTER (WHERE p.delivered AND NOT p.bounced)::int AS "delivered",
       count(*) FILTER (WHERE p.bounced)::int AS "bounced",
       count(*) FILTER (WHERE p.opened)::int AS "opened",
       count(*) FILTER (WHERE p.clicked)::int AS "clicked",
       count(*) FILTER (WHERE p.replied)::int AS "replied",
       count(*) FILTER (WHERE p.unsubscribed)::int AS "unsubscribed",
       sum(p.meetings)::int AS "meetingsBooked"
  FROM per_email p JOIN emails e ON e.id = p.email_id
 WHERE $2::int[] IS NULL OR e.step = ANY($2::int[])
 GROUP BY e.step, e.variant`;

type Key = `${number}:${string}`;
const key = (step: number, variant: string | null): Key => `${step}:${variant ?? ''}`;

/** Counts by (step index, variant) of a campaign; `steps` narrows to those step indexes. */
export async function stepCounts(sequelize: Sequelize, campaignId: string, steps?: readonly number[]): Promise<Map<Key, StepCounts>> {
  const only = steps === undefined ? null : [...steps];
  const [facts, positive, skipped] = await Promise.all([
    sequelize.query<Omit<StepCounts, 'positiveReplies' | 'skipped'> & { step: number; variant: string | null }>(STEP_COUNTS_SQL, {
      bind: [campaignId, only],
      type: QueryTypes.SELECT,
    }),
    sequelize.query<{ step: number; variant: string | null; n: number }>(
      `SELECT e.step, e.variant, count(DISTINCT r.email_id)::int AS n
         FROM replies r JOIN emails e ON e.id = r.email_id
        WHERE r.campaign_id = $1 AND r.kind = 'reply' AND r.sentiment = 'positive' AND ($2::int[] IS NULL OR e.step = ANY($2::int[]))
        GROUP BY e.step, e.variant`,
      { bind: [campaignId, only], type: QueryTypes.SELECT },
    ),
    sequelize.query<{ step: number; variant: string | null; n: number }>(
      `SELECT step, variant, count(*)::int AS n FROM step_skips WHERE campaign_id = $1 AND ($2::int[] IS NULL OR step = ANY($2::int[])) GROUP BY step, variant`,
      { bind: [campaignId, only], type: QueryTypes.SELECT },
    ),
  ]);
  const out = new Map<Key, StepCounts>();
  const at = (step: number, variant: string | null): StepCounts => out.get(key(step, variant)) ?? ZERO;
  for (const f of facts) out.set(key(f.step, f.variant), { ...at(f.step, f.variant), ...withoutKey(f) });
  for (const p of positive) out.set(key(p.step, p.variant), { ...at(p.step, p.variant), positiveReplies: p.n });
  for (const k of skipped) out.set(key(k.step, k.variant), { ...at(k.step, k.variant), skipped: k.n });
  return out;
}

function withoutKey<T extends { step: number; variant: string | null }>(row: T): Omit<T, 'step' | 'variant'> {
  const { step: _s, variant: _v, ...rest } = row;
  return rest;
}

function sum(a: StepCounts, b: StepCounts): StepCounts {
  const out = { ...a } as Record<keyof StepCounts, number>;
  for (const k of Object.keys(ZERO) as Array<keyof StepCounts>) out[k] = a[k] + b[k];
  return out;
}

/**
 * Every step of the sequence with every variant (zeros where nothing happened yet), plus the
 * emails of steps or variants the sequence no longer names (sent before variants were recorded),
 * so the steps' totals add up to the campaign's figures.
 */
export async function campaignStepStats(sequelize: Sequelize, campaignId: string, sequence: CampaignSequence | null): Promise<StepStats[]> {
  const counts = await stepCounts(sequelize, campaignId);
  const stepIndexes = new Set<number>(sequence?.steps.map((_s, i) => i) ?? []);
  for (const k of counts.keys()) stepIndexes.add(Number(k.split(':')[0]));
  return [...stepIndexes]
    .sort((a, b) => a - b)
    .map((i) => {
      const named = sequence?.steps[i]?.variants ?? [];
      const variants: VariantStats[] = named.map((v) => ({ variant: v.id, weight: v.weight, counts: counts.get(key(i, v.id)) ?? ZERO, rates: stepRates(counts.get(key(i, v.id)) ?? ZERO) }));
      for (const [k, c] of counts) {
        const [step, variant] = k.split(':') as [string, string];
        if (Number(step) !== i || named.some((v) => v.id === variant)) continue;
        variants.push({ variant: variant === '' ? null : (variant as VariantId), weight: null, counts: c, rates: stepRates(c) });
      }
      const total = variants.reduce((acc, v) => sum(acc, v.counts), ZERO);
      return { step: i + 1, total: { counts: total, rates: stepRates(total) }, variants };
    });
}
