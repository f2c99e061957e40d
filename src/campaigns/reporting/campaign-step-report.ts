import type { Sequelize } from 'sequelize';
import { readSequence, readWinners } from '../sequences/sequence-repository';
import { campaignStepStats, type StepStats } from './step-stats';

/** A campaign's per-step figures with the winners of its variant tests (the campaign is the caller's: ownedCampaign). */
export async function campaignStepReport(sequelize: Sequelize, accountId: string, campaignId: string): Promise<{ steps: StepStats[]; winners: Map<number, string> }> {
  const stored = await readSequence(sequelize, accountId, campaignId);
  const [steps, winners] = await Promise.all([
    campaignStepStats(sequelize, campaignId, stored?.sequence ?? null),
    stored === null ? Promise.resolve(new Map()) : readWinners(sequelize, campaignId, stored.version),
  ]);
  return { steps, winners: new Map([...winners].map(([step, w]) => [step, w.variant])) };
}
