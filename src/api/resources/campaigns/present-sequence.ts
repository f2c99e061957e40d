import type { Static } from '@sinclair/typebox';
import type { CampaignReadModel, StoredWinner } from '../../../campaigns/reporting/campaign-read-model';
import type { CampaignA } from './schemas-a';
import type { CampaignB } from './schemas-b';

/**
 * A campaign's sequence as each surface shows it: every step with its variants (the template's
 * steps too, so nothing the campaign sends is hidden), its test settings and its decided winner.
 */

type Seq = Pick<CampaignReadModel, 'sequence' | 'sequenceVersion' | 'winners'>;
type ViewA = NonNullable<Static<typeof CampaignA>['sequence']>;
type ViewB = NonNullable<Static<typeof CampaignB>['sequence']>;

const round = (n: number, d = 6): number => Math.round(n * 10 ** d) / 10 ** d;
const winnerAt = (winners: Seq['winners'], step: number): StoredWinner | undefined => winners?.find((w) => w.step === step);

export function sequenceA(c: Seq): ViewA | null {
  if (c.sequence === null || c.sequenceVersion === null) return null;
  return {
    source: c.sequence.source,
    preset: c.sequence.preset,
    version: c.sequenceVersion,
    steps: c.sequence.steps.map((s, i) => {
      const w = winnerAt(c.winners, i);
      return {
        step: i + 1,
        delay_days: s.delayDays,
        variants: s.variants.map((v) => ({ id: v.id, weight: v.weight, mode: v.mode, subject: v.subject, body: v.body, instructions: v.instructions })),
        auto_winner: s.autoWinner === null ? null : { metric: s.autoWinner.metric, min_sends: s.autoWinner.minSends, confidence: s.autoWinner.confidence },
        winner:
          w === undefined
            ? null
            : {
                variant: w.variant,
                metric: w.metric,
                decided_at: new Date(w.decidedAt).toISOString(),
                p_value: round(w.figures.pValue),
                confidence: w.figures.confidence,
                variants: w.figures.variants.map((f) => ({ variant: f.variant, sent: f.sent, delivered: f.delivered, successes: f.successes, rate: f.rate })),
              },
      };
    }),
  };
}

export function sequenceB(c: Seq): ViewB | null {
  const a = sequenceA(c);
  if (a === null) return null;
  return {
    source: a.source,
    preset: a.preset,
    version: a.version,
    steps: a.steps.map((s) => ({
      step: s.step,
      delayDays: s.delay_days,
      variants: s.variants,
      autoWinner: s.auto_winner === null ? null : { metric: s.auto_winner.metric, minSends: s.auto_winner.min_sends, confidence: s.auto_winner.confidence },
      winner: s.winner === null ? null : { variant: s.winner.variant, metric: s.winner.metric, decidedAt: s.winner.decided_at, pValue: s.winner.p_value, confidence: s.winner.confidence, variants: s.winner.variants },
    })),
  };
}
