import type { LlmProviderName } from './types';

/**
 * The model used when an account set a key but no model: each provider's small, fast, cheap model
 * that supports structured output (OpenAI strict JSON schema; Anthropic forced tool use).
 */
export const DEFAULT_MODELS: Readonly<Record<LlmProviderName, string>> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
};

/**
 * Each HTTP attempt may take this long. Generation of a few hundred tokens takes seconds; the bound
 * is for a provider that hangs. With the SDK's retries the worst case is about
 * (LLM_MAX_RETRIES + 1) x LLM_TIMEOUT_MS plus short back-offs, which callers' activity timeouts
 * must allow for.
 */
export const LLM_TIMEOUT_MS = 60_000;

/**
 * The SDKs retry 408, 409, 429, 5xx and connection errors with back-off and honour Retry-After.
 * Kept small: the activity calling the LLM has its own durable retry policy on top.
 */
export const LLM_MAX_RETRIES = 2;

/** Account-chosen model names: provider ids such as `gpt-4o-mini-2024-07-18` or `claude-haiku-4-5`. */
export const MODEL_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$';
