import Anthropic from '@anthropic-ai/sdk';
import { connectionFailure, kindForStatus, LlmOutputError, LlmProviderError, providerErrorMessage, type LlmError } from './errors';
import { parseJsonOutput } from './json-output';
import { priceTokens } from './pricing';
import { LLM_MAX_RETRIES, LLM_TIMEOUT_MS } from './defaults';
import type { ProviderLlmOptions } from './openai-llm';
import type { Llm, LlmRequest, LlmResult, LlmUsage } from './types';

/**
 * Anthropic Messages API through the official SDK.
 *
 * A JSON request is one forced tool call: the schema is the tool's `input_schema` and
 * `tool_choice: {type: 'tool', name}` makes the model answer with exactly that call. The API hands
 * back the tool input as an already-parsed object, so there is no prose, no code fence and no
 * half-quoted JSON to pick apart, and it works on every Claude model with tool use (a JSON-only
 * instruction is a request the model may ignore; strict tool schemas exist only on newer models,
 * and an account may pick any model). The input is still validated against the schema.
 */
export function createAnthropicLlm(opts: ProviderLlmOptions): Llm {
  const client = new Anthropic({
    // Passing the key explicitly keeps the SDK from looking for credentials in the environment or
    // config files (the operator's, not the account's). This SDK version sends an API key as
    // `Authorization: Bearer`; the header the Messages API documents for keys, and the one
    // Anthropic-compatible gateways behind ANTHROPIC_BASE_URL expect, is `x-api-key`, so the key
    // goes there and Authorization is left out.
    apiKey: opts.apiKey,
    defaultHeaders: { 'X-Api-Key': opts.apiKey, Authorization: null },
    baseURL: opts.baseURL,
    fetch: opts.fetch,
    maxRetries: LLM_MAX_RETRIES,
    timeout: LLM_TIMEOUT_MS,
    logLevel: 'off',
  });

  async function complete<T>(req: LlmRequest): Promise<LlmResult<T>> {
    let message: Anthropic.Messages.Message;
    try {
      message = await client.messages.create({
        model: opts.model,
        max_tokens: req.maxTokens,
        system: req.system,
        messages: [{ role: 'user', content: req.user }],
        ...(req.json === undefined
          ? {}
          : {
              tools: [
                {
                  name: req.json.name,
                  description: req.json.description ?? `Return the ${req.json.name} result.`,
                  input_schema: { ...req.json.schema, type: 'object' as const },
                },
              ],
              tool_choice: { type: 'tool' as const, name: req.json.name },
            }),
      });
    } catch (err) {
      throw toLlmError(err, opts.apiKey);
    }
    const usage: LlmUsage = { inputTokens: message.usage?.input_tokens ?? 0, outputTokens: message.usage?.output_tokens ?? 0 };
    const model = message.model || opts.model;
    if (message.stop_reason === 'refusal') throw new LlmOutputError('anthropic', 'refusal', usage, 'Anthropic refused to answer');
    if (message.stop_reason === 'max_tokens') throw new LlmOutputError('anthropic', 'truncated', usage, `Anthropic stopped at the ${req.maxTokens}-token limit`);
    const costUsd = priceTokens(model, usage);
    if (req.json === undefined) {
      const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      if (text.trim() === '') throw new LlmOutputError('anthropic', 'empty', usage, 'Anthropic answered with no text');
      return { text, usage, costUsd, model };
    }
    const name = req.json.name;
    const call = message.content.find((b) => b.type === 'tool_use' && b.name === name);
    if (call === undefined || call.type !== 'tool_use') throw new LlmOutputError('anthropic', 'empty', usage, `Anthropic did not call the ${name} tool`);
    const json = parseJsonOutput<T>('anthropic', req.json, call.input, usage);
    return { text: JSON.stringify(call.input), json, usage, costUsd, model };
  }

  return { provider: 'anthropic', model: opts.model, complete };
}

function toLlmError(err: unknown, apiKey: string): LlmError | unknown {
  if (err instanceof Anthropic.APIUserAbortError) return err;
  if (err instanceof Anthropic.APIConnectionError) return connectionFailure('anthropic', err, err instanceof Anthropic.APIConnectionTimeoutError, apiKey);
  if (err instanceof Anthropic.APIError && typeof err.status === 'number') {
    const kind = kindForStatus(err.status);
    return new LlmProviderError('anthropic', kind, err.status, providerErrorMessage('anthropic', kind, err.status, err.apiMessage ?? err.message, apiKey));
  }
  return err;
}
