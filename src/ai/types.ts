import type { Config } from '../config/config';

export type LlmProviderName = 'openai' | 'anthropic';

/** Which provider, with whose key, and which model (null or absent: the provider's default model). */
export interface LlmIntegration {
  readonly provider: LlmProviderName;
  readonly apiKey: string;
  readonly model?: string | null;
}

/** The part of the configuration the LLM layer reads. */
export type LlmConfig = Pick<Config, 'openaiBaseUrl' | 'anthropicBaseUrl'>;

/**
 * A WHATWG fetch, as both SDKs accept it. The service passes its egress fetch (private-address
 * guard, timeouts, size limit); tests may pass the global one.
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Ask for a JSON object matching `schema` (a JSON Schema object). Write it for OpenAI's strict
 * structured outputs, which is the stricter of the two providers: `type: 'object'`, every property
 * listed in `required`, `additionalProperties: false`, and no length or format keywords (check those
 * after the call). `name` is `[A-Za-z0-9_-]{1,64}`.
 */
export interface JsonOutputSpec {
  readonly name: string;
  readonly description?: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface LlmRequest {
  readonly system: string;
  readonly user: string;
  /** Upper bound on generated tokens (OpenAI max_completion_tokens, Anthropic max_tokens). */
  readonly maxTokens: number;
  readonly json?: JsonOutputSpec;
}

export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface LlmResult<T = unknown> {
  /** The answer as text (for a JSON request: the JSON document as text). */
  readonly text: string;
  /** For a JSON request: the parsed object, already validated against the schema. */
  readonly json?: T;
  readonly usage: LlmUsage;
  /** usage priced with `src/ai/pricing.ts` for `model`. */
  readonly costUsd: number;
  /** The model that answered, as the provider reports it (may be a dated snapshot of the requested one). */
  readonly model: string;
}

export interface Llm {
  readonly provider: LlmProviderName;
  /** The requested model (the account's choice or the default). */
  readonly model: string;
  complete<T = unknown>(request: LlmRequest): Promise<LlmResult<T>>;
}
