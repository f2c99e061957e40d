import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stand-ins for the outside services an account can configure its own key for (Apollo, OpenAI,
 * Anthropic), on loopback inside the fuzz namespace. The fuzzer's keys are made up, so each answers
 * what the real one answers to a made-up key: 401 with its own error shape. The service's real
 * client code then runs (a rejected key is the account's problem, a 400) instead of failing to
 * connect (a 503 that would only say the machine has no network).
 */
export interface FakeProviders {
  readonly apolloUrl: string;
  readonly openaiUrl: string;
  readonly anthropicUrl: string;
  close(): Promise<void>;
}

const REJECTIONS: Record<string, unknown> = {
  apollo: { error: 'Invalid access credentials.', error_code: 'INVALID_API_KEY' },
  openai: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
  anthropic: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
};

export async function startFakeProviders(): Promise<FakeProviders> {
  const server = http.createServer((req, res) => {
    const provider = (req.url ?? '').split('/')[1] ?? '';
    req.resume();
    req.on('end', () => {
      const body = REJECTIONS[provider];
      res.writeHead(body === undefined ? 404 : 401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body ?? { error: 'not found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apolloUrl: `${base}/apollo`,
    openaiUrl: `${base}/openai/v1`,
    anthropicUrl: `${base}/anthropic`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
