import { startScriptedJsonServer, type JsonHandler, type ScriptedJsonServer, type ScriptedReply } from './scripted-json-server';

export interface MessagesRequest {
  readonly model: string;
  readonly max_tokens: number;
  readonly system?: string;
  readonly messages: Array<{ role: string; content: string }>;
  readonly tools?: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>;
  readonly tool_choice?: { type: string; name?: string };
}

export interface FakeAnthropicOptions {
  /** The only key accepted (`x-api-key`); others get Anthropic's 401. */
  readonly apiKey: string;
  readonly models?: readonly string[];
  /** For a forced tool call: the tool input object. Otherwise: the text. */
  readonly answer?: (req: MessagesRequest) => unknown;
  readonly usage?: { readonly input: number; readonly output: number };
}

/** `url` is the SDK's baseURL (it appends /v1/messages). */
export type FakeAnthropic = ScriptedJsonServer;

const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } });

export function anthropic429(): ScriptedReply {
  return { status: 429, body: anthropicError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'), headers: { 'retry-after-ms': '5' } };
}

/**
 * A local HTTP server speaking the Anthropic Messages API (`POST /v1/messages`): checks
 * `x-api-key` and `anthropic-version`, answers a forced tool call with a `tool_use` block (else a
 * text block) and reports `usage`, in the official response shape.
 */
export async function startFakeAnthropic(opts: FakeAnthropicOptions): Promise<FakeAnthropic> {
  let counter = 0;
  const handle: JsonHandler = (req, takeScripted) => {
    if (req.method !== 'POST' || req.path !== '/v1/messages') return { status: 404, body: anthropicError('not_found_error', 'Not found') };
    if (req.headers['x-api-key'] !== opts.apiKey) return { status: 401, body: anthropicError('authentication_error', 'invalid x-api-key') };
    if (typeof req.headers['anthropic-version'] !== 'string') return { status: 400, body: anthropicError('invalid_request_error', 'anthropic-version: header is required') };
    const next = takeScripted();
    if (next !== undefined) return next;
    const m = req.body as unknown as MessagesRequest;
    if (typeof m.model !== 'string' || typeof m.max_tokens !== 'number' || !Array.isArray(m.messages)) {
      return { status: 400, body: anthropicError('invalid_request_error', 'model, max_tokens and messages are required') };
    }
    if (opts.models !== undefined && !opts.models.includes(m.model)) return { status: 404, body: anthropicError('not_found_error', `model: ${m.model}`) };
    const answer = (opts.answer ?? (() => ({ ok: true })))(m);
    const forced = m.tool_choice?.type === 'tool' ? m.tool_choice.name : undefined;
    if (forced !== undefined && !(m.tools ?? []).some((t) => t.name === forced)) {
      return { status: 400, body: anthropicError('invalid_request_error', `tool_choice names an unknown tool ${forced}`) };
    }
    const usage = opts.usage ?? { input: 100, output: 50 };
    counter += 1;
    return {
      status: 200,
      body: {
        id: `msg_fake${counter}`,
        type: 'message',
        role: 'assistant',
        model: m.model,
        content:
          forced === undefined
            ? [{ type: 'text', text: String(answer), citations: null }]
            : [{ type: 'tool_use', id: `toolu_fake${counter}`, name: forced, input: answer }],
        stop_reason: forced === undefined ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard' },
      },
    };
  };
  return startScriptedJsonServer(handle, (n) => ({ 'request-id': `req_fake${n}` }));
}
