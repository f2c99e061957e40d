import type { Static } from '@sinclair/typebox';
import type { StepCounts, StepRates, StepStats } from '../../../campaigns/reporting/step-stats';
import type { StepStatsResponse } from './step-stats-schemas';

/** Per-step figures in each surface's casing (see campaignStepStats). */

type ResponseA = Static<ReturnType<typeof StepStatsResponse<'snake'>>>;
type ResponseB = Static<ReturnType<typeof StepStatsResponse<'camel'>>>;

const countsA = (c: StepCounts) => ({
  emails_sent: c.emailsSent,
  delivered: c.delivered,
  opened: c.opened,
  clicked: c.clicked,
  replied: c.replied,
  positive_replies: c.positiveReplies,
  bounced: c.bounced,
  unsubscribed: c.unsubscribed,
  meetings_booked: c.meetingsBooked,
  skipped: c.skipped,
});

const ratesA = (r: StepRates) => ({
  delivery_rate: r.deliveryRate,
  open_rate: r.openRate,
  click_rate: r.clickRate,
  reply_rate: r.replyRate,
  positive_reply_rate: r.positiveReplyRate,
  bounce_rate: r.bounceRate,
  unsubscribe_rate: r.unsubscribeRate,
});

const countsB = (c: StepCounts) => ({ ...c });
const ratesB = (r: StepRates) => ({ ...r });

export function stepStatsA(campaignId: string, steps: readonly StepStats[], winners: ReadonlyMap<number, string>): ResponseA {
  return {
    campaign_id: campaignId,
    steps: steps.map((s) => ({
      step: s.step,
      stats: countsA(s.total.counts),
      rates: ratesA(s.total.rates),
      variants: s.variants.map((v) => ({ variant: v.variant, weight: v.weight, winner: v.variant !== null && winners.get(s.step - 1) === v.variant, stats: countsA(v.counts), rates: ratesA(v.rates) })),
    })),
  };
}

export function stepStatsB(campaignId: string, steps: readonly StepStats[], winners: ReadonlyMap<number, string>): ResponseB {
  return {
    campaignId,
    steps: steps.map((s) => ({
      step: s.step,
      stats: countsB(s.total.counts),
      rates: ratesB(s.total.rates),
      variants: s.variants.map((v) => ({ variant: v.variant, weight: v.weight, winner: v.variant !== null && winners.get(s.step - 1) === v.variant, stats: countsB(v.counts), rates: ratesB(v.rates) })),
    })),
  };
}
