import type { Sequelize } from 'sequelize';
import { priceFor } from '../ai/pricing';
import type { Llm } from '../ai/types';
import { recordCost } from '../costs/cost-repository';
import type { LlmWrite } from './llm/write-with-llm';

/** The cost key of one written email: a retried write is charged once. */
export const writeCostKey = (campaignId: string, leadId: string, step: number): string => `write:${campaignId}:${leadId}:${step}`;

export interface WritingCharge {
  readonly accountId: string;
  readonly campaignId: string | null;
  readonly leadId: string;
  readonly brandId: string | null;
  readonly step: number;
}

/**
 * Records what an LLM-written email cost as one `ai_generation` cost named `<provider>:<model>`
 * (feature `email-writing`), with the tokens of every sample it took, under writeCostKey.
 */
export async function recordWritingCost(
  sequelize: Sequelize,
  llm: Pick<Llm, 'provider' | 'model'>,
  charge: WritingCharge,
  written: LlmWrite,
  as: { readonly key: string; readonly featureSlug: string } = { key: writeCostKey(charge.campaignId ?? '', charge.leadId, charge.step), featureSlug: 'email-writing' },
): Promise<void> {
  const { email, usage, costUsd, attempts } = written;
  await sequelize.transaction(async (tx) =>
    recordCost(sequelize, tx, {
      accountId: charge.accountId,
      campaignId: charge.campaignId,
      brandId: charge.brandId,
      category: 'ai_generation',
      costName: `${llm.provider}:${llm.model}`,
      featureSlug: as.featureSlug,
      amountUsd: costUsd,
      quantity: 1,
      details: {
        lead_id: charge.leadId,
        step: charge.step,
        model: email.model,
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        attempts,
        pricing: priceFor(email.model ?? llm.model).matched === null ? 'fallback' : 'table',
      },
      idempotencyKey: as.key,
    }),
  );
}
