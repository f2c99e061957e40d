/**
 * The LLM layer: one small client over OpenAI (Chat Completions) and Anthropic (Messages), with
 * the account's own key (BYOK), for any feature that needs text or a JSON answer from a model
 * (email writing, reply qualification, ...).
 *
 *   const integration = await selectLlm(sequelize, accountId);   // null: no key, use your built-in path
 *   if (integration !== null) {
 *     const llm = createLlm(integration, config, egressFor(config).fetchWith({ timeoutMs: LLM_TIMEOUT_MS }));
 *     const r = await llm.complete<{ category: string }>({
 *       system: 'You classify email replies.',
 *       user: replyText,
 *       maxTokens: 300,
 *       json: { name: 'classification', schema: { type: 'object', properties: { category: { type: 'string', enum: [...] } },
 *                                                 required: ['category'], additionalProperties: false } },
 *     });
 *     r.json.category; r.usage; r.costUsd; r.model;
 *     // record r.costUsd with recordCost(..., { category: 'ai_generation', costName: `${llm.provider}:${llm.model}`, ... })
 *   }
 *
 * What callers can rely on:
 * - `json` answers are validated against the schema (Ajv) before they are returned. Write the
 *   schema for OpenAI's strict mode (see JsonOutputSpec). OpenAI uses `response_format:
 *   json_schema` (strict); Anthropic a single forced tool call (see anthropic-llm.ts for why).
 * - `costUsd` is the call's tokens priced by `pricing.ts` (unknown models: the documented fallback).
 * - Errors are typed (errors.ts): `LlmProviderError` (`kind`, `status`, `retryable`: a bad key is
 *   not retryable, a 429 or 5xx is) after the SDK's own few retries, and `LlmOutputError` (the
 *   answer was not usable; `usage` says what it cost). Messages are safe to show: keys are redacted.
 * - Nothing falls back silently: a caller decides what to do when the provider fails.
 * - Outbound requests go through the fetch it is given: pass the egress client's.
 */
export { createLlm } from './create-llm';
export { chooseLlm, selectLlm } from './select-llm';
export { priceFor, priceTokens, FALLBACK_PRICE, type ModelPrice } from './pricing';
export { DEFAULT_MODELS, LLM_MAX_RETRIES, LLM_TIMEOUT_MS } from './defaults';
export { LlmError, LlmOutputError, LlmProviderError, type LlmOutputProblem, type LlmProviderErrorKind } from './errors';
export type { FetchLike, JsonOutputSpec, Llm, LlmConfig, LlmIntegration, LlmProviderName, LlmRequest, LlmResult, LlmUsage } from './types';
