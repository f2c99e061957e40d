/**
 * The variant tests of a campaign's sequence, checked on its figures (reporting/step-stats.ts):
 * a test decided now is stored with the figures it was decided on and announced as the webhook
 * event `campaign.variant_winner`, in one transaction, once (a retried activity finds it stored).
 */
import type { Sequelize } from 'sequelize';
import { NotFoundError } from '../../errors/domain-errors';
import { emitEvent } from '../../webhooks/outbox-repository';
import type { DecideWinnersInput, DecideWinnersResult } from '../../../workflows/campaign/contract';
import { stepCounts } from '../reporting/step-stats';
import { decideTest, rateOf, type VariantTally } from './auto-winner';
import { insertWinner, readSequence, readWinners } from './sequence-repository';

export async function decideVariantWinners(sequelize: Sequelize, input: DecideWinnersInput, now = new Date()): Promise<DecideWinnersResult> {
  const stored = await readSequence(sequelize, input.accountId, input.campaignId, input.sequenceVersion);
  if (stored === null) throw new NotFoundError('campaign');
  const winners = await readWinners(sequelize, input.campaignId, stored.version);
  const decided = [...winners.values()].map((w) => ({ step: w.step, variant: w.variant }));
  const open = input.steps.filter((i) => !winners.has(i) && stored.sequence.steps[i]?.autoWinner != null);
  if (open.length === 0) return { decided };
  const counts = await stepCounts(sequelize, input.campaignId, open);
  for (const i of open) {
    const step = stored.sequence.steps[i]!;
    const rule = step.autoWinner!;
    const tallies: VariantTally[] = step.variants
      .filter((v) => v.weight > 0)
      .map((v) => {
        const c = counts.get(`${i}:${v.id}`);
        return { variant: v.id, sent: c?.emailsSent ?? 0, delivered: c?.delivered ?? 0, successes: (rule.metric === 'reply_rate' ? c?.replied : c?.positiveReplies) ?? 0 };
      });
    const decision = decideTest(tallies, rule);
    if (decision === null) continue;
    const figures = {
      variants: tallies.map((t) => ({ variant: t.variant, sent: t.sent, delivered: t.delivered, successes: t.successes, rate: Math.round(rateOf(t) * 10_000) / 10_000 })),
      pValue: Math.round(decision.pValue * 1e6) / 1e6,
      confidence: rule.confidence,
    };
    await sequelize.transaction(async (tx) => {
      const inserted = await insertWinner(sequelize, tx, input.campaignId, stored.version, { step: i, variant: decision.winner, metric: rule.metric, figures }, now);
      if (!inserted) return;
      await emitEvent(sequelize, tx, {
        accountId: input.accountId,
        campaignId: input.campaignId,
        event: 'campaign.variant_winner',
        at: now,
        data: { step: i + 1, variant: decision.winner, metric: rule.metric, min_sends: rule.minSends, confidence: rule.confidence, p_value: figures.pValue, variants: figures.variants },
      });
    });
    decided.push({ step: i, variant: decision.winner });
  }
  return { decided };
}
