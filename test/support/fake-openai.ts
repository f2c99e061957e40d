import { startScriptedJsonServer, type RecordedRequest, type ScriptedJsonServer, type ScriptedReply } from './scripted-json-server';

export type { RecordedRequest, ScriptedReply };

export interface ChatRequest {
  readonly model: string;
  readonly messages: Array<{ role: string; content: string }>;
  readonly response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
  readonly max_completion_tokens?: number;
}

export interface FakeOpenAiOptions {
  /** The only key accepted (`Authorization: Bearer <key>`); others get OpenAI's 401. */
  readonly apiKey: string;
  /** Models that exist; others get OpenAI's 404 model_not_found. */
  readonly models?: readonly string[];
  /** The assistant message content for a request (for a JSON request: the JSON text). */
  readonly answer?: (req: ChatRequest) => string;
  /** The `model` field of the response (real OpenAI answers with the dated snapshot). */
  readonly responseModel?: (requested: string) => string;
  /** Token counts reported in `usage`. */
  readonly usage?: { readonly prompt: number; readonly completion: number };
}

/** `url` is the base address without /v1 (the SDK's baseURL is `${url}/v1`). */
export type FakeOpenAi = ScriptedJsonServer;

const openAiError = (message: string, type: string, code: string | null) => ({ error: { message, type, param: null, code } });

/** OpenAI's answer to a wrong key: its real shape, including the partly masked key it echoes. */
export function openAi401(key: string): ScriptedReply {
  return { status: 401, body: openAiError(`Incorrect API key provided: ${key.slice(0, 3)}*****${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key') };
}

export function openAi429(): ScriptedReply {
  // retry-after-ms keeps the SDK's back-off at a few milliseconds.
  return { status: 429, body: openAiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'), headers: { 'retry-after-ms': '5' } };
}

/**
 * A local HTTP server speaking the OpenAI Chat Completions API (`POST /v1/chat/completions`), in
 * the official response shape, for the official SDK to talk to.
 */
export async function startFakeOpenAi(opts: FakeOpenAiOptions): Promise<FakeOpenAi> {
  let counter = 0;
  return startScriptedJsonServer((req, takeScripted) => {
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions') return { status: 404, body: openAiError(`Unknown request URL: ${req.method} ${req.path}`, 'invalid_request_error', null) };
    const given = typeof req.headers.authorization === 'string' ? req.headers.authorization : '';
    if (given !== `Bearer ${opts.apiKey}`) return openAi401(given.replace(/^Bearer /, '') || 'none');
    const next = takeScripted();
    if (next !== undefined) return next;
    const chat = req.body as unknown as ChatRequest;
    if (typeof chat.model !== 'string' || !Array.isArray(chat.messages)) return { status: 400, body: openAiError('model and messages are required', 'invalid_request_error', null) };
    if (opts.models !== undefined && !opts.models.includes(chat.model)) {
      return { status: 404, body: openAiError(`The model \`${chat.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found') };
    }
    const content = (opts.answer ?? (() => JSON.stringify({ ok: true })))(chat);
    const usage = opts.usage ?? { prompt: 100, completion: 50 };
    counter += 1;
    return {
      status: 200,
      body: {
        id: `chatcmpl-fake${counter}`,
        object: 'chat.completion',
        created: 1_760_000_000 + counter,
        model: (opts.responseModel ?? ((m: string) => m))(chat.model),
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
        service_tier: 'default',
        system_fingerprint: 'fp_fake',
      },
    };
  });
}
