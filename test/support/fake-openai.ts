import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, as the test may want to inspect it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/** A scripted answer for the next request(s), before the normal behaviour resumes. */
export interface ScriptedReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

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

export interface FakeOpenAi {
  /** Base address without /v1 (the SDK's baseURL is `${url}/v1`). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Answers the next requests with these replies, in order. */
  script(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

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
  const requests: RecordedRequest[] = [];
  const scripted: ScriptedReply[] = [];
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        body = {};
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const send = (r: ScriptedReply) => {
        res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
        res.end(JSON.stringify(r.body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send({ status: 404, body: openAiError(`Unknown request URL: ${req.method} ${req.url}`, 'invalid_request_error', null) });
      const given = req.headers.authorization ?? '';
      if (given !== `Bearer ${opts.apiKey}`) return send(openAi401(given.replace(/^Bearer /, '') || 'none'));
      const next = scripted.shift();
      if (next !== undefined) return send(next);
      const chat = body as unknown as ChatRequest;
      if (typeof chat.model !== 'string' || !Array.isArray(chat.messages)) return send({ status: 400, body: openAiError('model and messages are required', 'invalid_request_error', null) });
      if (opts.models !== undefined && !opts.models.includes(chat.model)) {
        return send({ status: 404, body: openAiError(`The model \`${chat.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found') });
      }
      const content = (opts.answer ?? (() => JSON.stringify({ ok: true })))(chat);
      const usage = opts.usage ?? { prompt: 100, completion: 50 };
      counter += 1;
      send({
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
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => scripted.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
