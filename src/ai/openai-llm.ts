import OpenAI from 'openai';
import { connectionFailure, kindForStatus, LlmOutputError, LlmProviderError, providerErrorMessage, type LlmError } from './errors';
import { parseJsonOutput } from './json-output';
import { priceTokens } from './pricing';
import { LLM_MAX_RETRIES, LLM_TIMEOUT_MS } from './defaults';
import type { FetchLike, Llm, LlmRequest, LlmResult, LlmUsage } from './types';

export interface ProviderLlmOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly baseURL: string;
  readonly fetch: FetchLike;
}

/**
 * OpenAI Chat Completions through the official SDK. A JSON request uses structured outputs
 * (`response_format: json_schema`, strict), so the model is constrained to the schema; the answer
 * is still validated.
 */
export function createOpenAiLlm(opts: ProviderLlmOptions): Llm {
  const client = new OpenAI({
    apiKey: opts.apiKey,
    baseURL: opts.baseURL,
    fetch: opts.fetch,
    maxRetries: LLM_MAX_RETRIES,
    timeout: LLM_TIMEOUT_MS,
    // The account's own key only: never the operator's organization, project or admin key from the
    // process environment, which the SDK would otherwise pick up and send along.
    organization: null,
    project: null,
    adminAPIKey: null,
    logLevel: 'off',
  });

  async function complete<T>(req: LlmRequest): Promise<LlmResult<T>> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await client.chat.completions.create({
        model: opts.model,
        messages: [
          { role: 'system', content: req.system },
          { role: 'user', content: req.user },
        ],
        max_completion_tokens: req.maxTokens,
        ...(req.json === undefined
          ? {}
          : {
              response_format: {
                type: 'json_schema' as const,
                json_schema: { name: req.json.name, description: req.json.description, schema: { ...req.json.schema }, strict: true },
              },
            }),
      });
    } catch (err) {
      throw toLlmError(err, opts.apiKey);
    }
    const usage: LlmUsage = { inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 };
    const model = completion.model || opts.model;
    const choice = completion.choices[0];
    const message = choice?.message;
    if (message?.refusal) throw new LlmOutputError('openai', 'refusal', usage, `OpenAI refused: ${message.refusal.slice(0, 200)}`);
    const text = message?.content ?? '';
    if (choice?.finish_reason === 'length') throw new LlmOutputError('openai', 'truncated', usage, `OpenAI stopped at the ${req.maxTokens}-token limit`);
    if (text.trim() === '') throw new LlmOutputError('openai', 'empty', usage, 'OpenAI answered with no content');
    const costUsd = priceTokens(model, usage);
    if (req.json === undefined) return { text, usage, costUsd, model };
    return { text, json: parseJsonOutput<T>('openai', req.json, text, usage), usage, costUsd, model };
  }

  return { provider: 'openai', model: opts.model, complete };
}

function toLlmError(err: unknown, apiKey: string): LlmError | unknown {
  if (err instanceof OpenAI.APIUserAbortError) return err;
  if (err instanceof OpenAI.APIConnectionError) return connectionFailure('openai', err, err instanceof OpenAI.APIConnectionTimeoutError, apiKey);
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const kind = kindForStatus(err.status);
    return new LlmProviderError('openai', kind, err.status, providerErrorMessage('openai', kind, err.status, detailOf(err), apiKey));
  }
  return err;
}

/** The provider's own explanation: `{error: {message}}` in OpenAI's error body. */
function detailOf(err: InstanceType<typeof OpenAI.APIError>): string {
  const body = err.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : err.message;
}
