import type { LlmUsage } from './types';

/** USD per one million tokens. */
export interface ModelPrice {
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
}

/**
 * List prices of the providers' standard (not batch, not cached) tokens, per model family. A dated
 * snapshot (`gpt-4o-mini-2024-07-18`, `claude-haiku-4-5-20251001`) is priced as its family.
 * Prices change: update this table when a provider changes them; the cost rows keep the amount
 * charged at the time.
 */
const PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  'gpt-5.4': { inputPerMTok: 2.5, outputPerMTok: 15 },
  'gpt-5.4-mini': { inputPerMTok: 0.75, outputPerMTok: 4.5 },
  'gpt-5.4-nano': { inputPerMTok: 0.2, outputPerMTok: 1.25 },
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4-turbo': { inputPerMTok: 10, outputPerMTok: 30 },
  'gpt-3.5-turbo': { inputPerMTok: 0.5, outputPerMTok: 1.5 },
  o3: { inputPerMTok: 2, outputPerMTok: 8 },
  'o3-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  // Anthropic
  'claude-opus-4-6': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-opus-4': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-3-7-sonnet': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4 },
  'claude-3-haiku': { inputPerMTok: 0.25, outputPerMTok: 1.25 },
};

/**
 * The price of a model the table does not know (a new release, a fine-tune, a proxy's own name).
 * It is deliberately at the expensive end of the providers' current flagships: cost rows drive
 * budgets, and a budget that over-counts pauses a campaign early, while one that under-counts
 * spends the account's money past its limit. Such rows are marked `pricing: "fallback"`.
 */
export const FALLBACK_PRICE: ModelPrice = { inputPerMTok: 5, outputPerMTok: 25 };

export interface PriceLookup {
  readonly price: ModelPrice;
  /** Which table entry matched, or null when the fallback price applies. */
  readonly matched: string | null;
}

const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** Exact name, then without a date suffix, then the longest table name it extends (`gpt-4o-mini-search-preview`). */
export function priceFor(model: string): PriceLookup {
  const name = model.trim().toLowerCase();
  for (const candidate of [name, name.replace(DATE_SUFFIX, '')]) {
    const price = PRICES[candidate];
    if (price !== undefined) return { price, matched: candidate };
  }
  let best: string | null = null;
  for (const known of Object.keys(PRICES)) {
    if (name.startsWith(`${known}-`) && (best === null || known.length > best.length)) best = known;
  }
  return best === null ? { price: FALLBACK_PRICE, matched: null } : { price: PRICES[best]!, matched: best };
}

/** USD for the tokens of one call, rounded to the micro-dollar the costs table stores. */
export function priceTokens(model: string, usage: LlmUsage): number {
  const { price } = priceFor(model);
  const usd = (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
  return Math.round(usd * 1_000_000) / 1_000_000;
}
