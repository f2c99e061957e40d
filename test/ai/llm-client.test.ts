import { expect } from 'chai';
import { createLlm } from '../../src/ai/create-llm';
import { LlmOutputError, LlmProviderError } from '../../src/ai/errors';
import type { FetchLike, JsonOutputSpec } from '../../src/ai/types';
import { egressFor } from '../../src/egress';
import { testConfig } from '../support/api';
import { anthropic429, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { openAi429, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai';

const OPENAI_KEY = 'sk-proj-test-0123456789abcdefWXYZ';
const ANTHROPIC_KEY = 'sk-ant-api03-test-0123456789abcdefQRST';

const VERDICT: JsonOutputSpec = {
  name: 'verdict',
  schema: {
    type: 'object',
    properties: { label: { type: 'string', enum: ['yes', 'no'] }, score: { type: 'number' } },
    required: ['label', 'score'],
    additionalProperties: false,
  },
};

async function expectRejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

describe('LLM client (src/ai) against local OpenAI and Anthropic servers', () => {
  let openai: FakeOpenAi;
  let anthropic: FakeAnthropic;
  let answer: unknown = { label: 'yes', score: 0.9 };
  const config = testConfig();
  let fetch: FetchLike;

  before(async () => {
    openai = await startFakeOpenAi({ apiKey: OPENAI_KEY, answer: () => (typeof answer === 'string' ? answer : JSON.stringify(answer)), responseModel: (m) => `${m}-2024-07-18`, usage: { prompt: 1000, completion: 200 } });
    anthropic = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY, answer: (req) => (req.tool_choice ? answer : 'plain words'), usage: { input: 2000, output: 400 } });
    fetch = egressFor(config).fetch;
  });
  after(async () => {
    await openai.close();
    await anthropic.close();
  });
  beforeEach(() => {
    openai.requests.length = 0;
    anthropic.requests.length = 0;
    answer = { label: 'yes', score: 0.9 };
  });

  const openaiLlm = (model?: string, key = OPENAI_KEY) => createLlm({ provider: 'openai', apiKey: key, model }, { ...config, openaiBaseUrl: `${openai.url}/v1` }, fetch);
  const anthropicLlm = (model?: string, key = ANTHROPIC_KEY) => createLlm({ provider: 'anthropic', apiKey: key, model }, { ...config, anthropicBaseUrl: anthropic.url }, fetch);

  it('OpenAI: sends the key, the model and a strict json_schema; returns validated JSON, usage and its price', async () => {
    const llm = openaiLlm();
    expect(llm.model).to.equal('gpt-4o-mini');
    const r = await llm.complete<{ label: string; score: number }>({ system: 'Judge.', user: 'Is it?', maxTokens: 100, json: VERDICT });
    expect(r.json).to.deep.equal({ label: 'yes', score: 0.9 });
    expect(r.usage).to.deep.equal({ inputTokens: 1000, outputTokens: 200 });
    expect(r.model).to.equal('gpt-4o-mini-2024-07-18');
    // gpt-4o-mini: 0.15 / 0.60 USD per million tokens
    expect(r.costUsd).to.equal(0.00027);
    const [req] = openai.requests;
    expect(req!.headers.authorization).to.equal(`Bearer ${OPENAI_KEY}`);
    expect(req!.body).to.deep.include({ model: 'gpt-4o-mini', max_completion_tokens: 100 });
    expect(req!.body.messages).to.deep.equal([
      { role: 'system', content: 'Judge.' },
      { role: 'user', content: 'Is it?' },
    ]);
    expect(req!.body.response_format).to.deep.equal({ type: 'json_schema', json_schema: { name: 'verdict', schema: VERDICT.schema, strict: true } });
  });

  it('OpenAI: the configured model is the one requested', async () => {
    await openaiLlm('gpt-4.1-mini').complete({ system: 's', user: 'u', maxTokens: 10 });
    expect(openai.requests[0]!.body.model).to.equal('gpt-4.1-mini');
  });

  it('OpenAI: a wrong key is a non-retryable auth error whose message does not carry the key', async () => {
    const wrong = 'sk-proj-wrong-key-000000000000ABCD';
    const err = await expectRejection(openaiLlm(undefined, wrong).complete({ system: 's', user: 'u', maxTokens: 10 }));
    expect(err).to.be.instanceOf(LlmProviderError);
    const e = err as LlmProviderError;
    expect(e).to.include({ provider: 'openai', kind: 'auth', status: 401, retryable: false });
    expect(e.message).to.match(/^OpenAI rejected the account's API key \(HTTP 401\)/);
    expect(e.message).not.to.include(wrong);
    expect(e.message).not.to.include('ABCD');
    expect(openai.requests).to.have.length(1); // a 401 is not retried
  });

  it('OpenAI: a 429 is retried by the SDK and the next answer is used', async () => {
    openai.script(openAi429());
    const r = await openaiLlm().complete({ system: 's', user: 'u', maxTokens: 10, json: VERDICT });
    expect(r.json).to.deep.equal({ label: 'yes', score: 0.9 });
    expect(openai.requests).to.have.length(2);
  });

  it('OpenAI: persistent 5xx gives up after two retries with a retryable error', async () => {
    const boom = { status: 500, body: { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } }, headers: { 'retry-after-ms': '5' } };
    openai.script(boom, boom, boom);
    const err = await expectRejection(openaiLlm().complete({ system: 's', user: 'u', maxTokens: 10 }));
    expect(err).to.be.instanceOf(LlmProviderError);
    expect(err).to.include({ kind: 'server', status: 500, retryable: true });
    expect(openai.requests).to.have.length(3);
  });

  it('OpenAI: an answer that is not JSON, or not the schema, is a typed output error carrying the usage', async () => {
    answer = 'Sure! Here is the verdict: yes';
    const notJson = await expectRejection(openaiLlm().complete({ system: 's', user: 'u', maxTokens: 10, json: VERDICT }));
    expect(notJson).to.be.instanceOf(LlmOutputError);
    expect(notJson).to.include({ problem: 'invalid_json', retryable: true });
    expect((notJson as LlmOutputError).usage).to.deep.equal({ inputTokens: 1000, outputTokens: 200 });
    answer = { label: 'maybe', score: 1 };
    const wrongShape = await expectRejection(openaiLlm().complete({ system: 's', user: 'u', maxTokens: 10, json: VERDICT }));
    expect(wrongShape).to.be.instanceOf(LlmOutputError);
    expect(wrongShape).to.include({ problem: 'schema_mismatch' });
    expect((wrongShape as Error).message).to.match(/verdict\/label must be equal to one of the allowed values/);
  });

  it('Anthropic: a JSON request is one forced tool call; the headers carry the key and the API version', async () => {
    const llm = anthropicLlm();
    expect(llm.model).to.equal('claude-haiku-4-5');
    const r = await llm.complete<{ label: string }>({ system: 'Judge.', user: 'Is it?', maxTokens: 200, json: VERDICT });
    expect(r.json).to.deep.equal({ label: 'yes', score: 0.9 });
    expect(r.usage).to.deep.equal({ inputTokens: 2000, outputTokens: 400 });
    // claude-haiku-4-5: 1 / 5 USD per million tokens
    expect(r.costUsd).to.equal(0.004);
    const [req] = anthropic.requests;
    expect(req!.headers['x-api-key']).to.equal(ANTHROPIC_KEY);
    expect(req!.headers['anthropic-version']).to.be.a('string').and.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(req!.headers.authorization).to.equal(undefined);
    expect(req!.body).to.deep.include({ model: 'claude-haiku-4-5', max_tokens: 200, system: 'Judge.', tool_choice: { type: 'tool', name: 'verdict' } });
    expect(req!.body.messages).to.deep.equal([{ role: 'user', content: 'Is it?' }]);
    expect(req!.body.tools).to.have.length(1);
    expect((req!.body.tools as Array<{ name: string; input_schema: unknown }>)[0]).to.deep.include({ name: 'verdict', input_schema: VERDICT.schema });
  });

  it('Anthropic: a plain request returns the text blocks', async () => {
    const r = await anthropicLlm('claude-sonnet-4-6').complete({ system: 's', user: 'u', maxTokens: 50 });
    expect(r.text).to.equal('plain words');
    expect(anthropic.requests[0]!.body.model).to.equal('claude-sonnet-4-6');
    expect(anthropic.requests[0]!.body.tools).to.equal(undefined);
    expect(r.costUsd).to.equal(0.012); // 2000 x 3 + 400 x 15 per million
  });

  it('Anthropic: 401 is a non-retryable auth error, 429 then success is retried', async () => {
    const err = await expectRejection(anthropicLlm(undefined, 'sk-ant-api03-not-the-right-key-0000').complete({ system: 's', user: 'u', maxTokens: 10 }));
    expect(err).to.be.instanceOf(LlmProviderError);
    expect(err).to.include({ provider: 'anthropic', kind: 'auth', status: 401, retryable: false });
    expect((err as Error).message).to.equal("Anthropic rejected the account's API key (HTTP 401): invalid x-api-key");
    anthropic.requests.length = 0;
    anthropic.script(anthropic429());
    const r = await anthropicLlm().complete({ system: 's', user: 'u', maxTokens: 10, json: VERDICT });
    expect(r.json).to.deep.equal({ label: 'yes', score: 0.9 });
    expect(anthropic.requests).to.have.length(2);
  });

  it('Anthropic: a tool input that does not match the schema is an output error', async () => {
    answer = { label: 'yes' };
    const err = await expectRejection(anthropicLlm().complete({ system: 's', user: 'u', maxTokens: 10, json: VERDICT }));
    expect(err).to.be.instanceOf(LlmOutputError);
    expect(err).to.include({ provider: 'anthropic', problem: 'schema_mismatch' });
  });

  it('goes through the egress policy: with loopback egress off, the provider is not contacted at all', async () => {
    const strict = testConfig({ ALLOW_LOOPBACK_EGRESS: 'false' });
    const llm = createLlm({ provider: 'openai', apiKey: OPENAI_KEY }, { ...strict, openaiBaseUrl: `${openai.url}/v1` }, egressFor(strict).fetch);
    const err = await expectRejection(llm.complete({ system: 's', user: 'u', maxTokens: 10 }));
    expect(err).to.be.instanceOf(LlmProviderError);
    expect(err).to.include({ kind: 'blocked', retryable: false });
    expect(openai.requests).to.have.length(0);
  });
});
