import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { priceTokens } from '../../src/ai';
import { readAudienceText } from '../../src/campaigns/audience/llm-reader';
import { parseAudienceText } from '../../src/campaigns/audience/parse-text';
import { createLogger } from '../../src/log/logger';
import { writeIntegrations } from '../../src/integrations/integration-repository';
import { createAccount, request, surfaceA, surfaceB, testConfig } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { startFakeAnthropic, type FakeAnthropic, type MessagesRequest } from '../support/fake-anthropic';
import { startFakeOpenAi, type ChatRequest, type FakeOpenAi } from '../support/fake-openai';

/**
 * The LLM reading of a campaign's audience text on create: with the account's OpenAI or Anthropic
 * key the model's filters are the audience (source llm) and its tokens an ai_generation cost of
 * the campaign; without a key, or when the model's answer is unusable or the provider fails, the
 * built-in parser's (source parser).
 */

const OPENAI_KEY = 'sk-proj-audience-test-key-0000000000ABCD';
const ANTHROPIC_KEY = 'sk-ant-api03-audience-test-key-00000EFGH';
const TARGET = 'https://audience-llm-target.invalid';
const TEXT = 'Marketing people in the UK';

const POOL = [
  'Email,First Name,Last Name,Job Title,Company,Country,Industry',
  'anna@kraftwerk.example,Anna,Schmidt,CTO,Kraftwerk Software,Germany,Software',
  'ben@berliner.example,Ben,Weber,Chief Technology Officer,Berliner Daten,Germany,Software',
  'dan@london.example,Dan,Smith,Marketing Manager,London Retail,United Kingdom,Retail',
  'emma@leeds.example,Emma,Jones,Head of Marketing,Leeds Media,UK,Media',
].join('\n');

const EMPTY = { titles: [], seniorities: [], seniorityMin: null, seniorityMax: null, departments: [], locations: [], industries: [], companySizes: [], keywords: [], exclude: { titles: [], companies: [], domains: [], emails: [], industries: [] } };
/** What the model answers by default: deliberately not what the parser reads from TEXT. */
const MODEL_ANSWER = { ...EMPTY, titles: ['CTO'], locations: ['Germany'], companySizes: [{ min: 10, max: null }], exclude: { ...EMPTY.exclude, companies: ['Acme'] } };
const MODEL_FILTERS = { titles: ['CTO'], locations: ['Germany'], companySizes: [{ min: 10 }], exclude: { companies: ['Acme'] } };

interface AudienceB {
  text: string | null;
  filters: Record<string, unknown> | null;
  source: string;
  matchedLeads: number | null;
}
interface CostRow {
  category: string;
  cost_name: string;
  feature_slug: string;
  amount_usd: string;
  campaign_id: string | null;
  details: Record<string, unknown>;
}

describe('campaign audience text read by the account LLM', () => {
  const env: Record<string, string> = {};
  let openai: FakeOpenAi;
  let anthropic: FakeAnthropic;
  /** What the fakes answer next: OpenAI's message content (text), Anthropic's tool input. */
  let openAiAnswer: () => string;
  let anthropicAnswer: () => unknown;

  // Registered before the stack's hooks, so the API starts with the fakes' addresses.
  before(async () => {
    openai = await startFakeOpenAi({ apiKey: OPENAI_KEY, answer: () => openAiAnswer(), usage: { prompt: 700, completion: 60 } });
    anthropic = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY, answer: () => anthropicAnswer(), usage: { input: 650, output: 55 } });
    Object.assign(env, { OPENAI_BASE_URL: `${openai.url}/v1`, ANTHROPIC_BASE_URL: anthropic.url });
  });
  const t = useCampaignStack(env);
  after(async () => {
    await openai?.close();
    await anthropic?.close();
  });
  beforeEach(() => {
    openai.requests.length = 0;
    anthropic.requests.length = 0;
    openAiAnswer = () => JSON.stringify(MODEL_ANSWER);
    anthropicAnswer = () => MODEL_ANSWER;
  });

  async function account(keys: Parameters<typeof writeIntegrations>[2] | null): Promise<{ accountId: string; apiKey: string }> {
    const a = await createAccount(t.db.sequelize);
    if (keys !== null) await writeIntegrations(t.db.sequelize, a.accountId, keys);
    const res = await request(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(a.apiKey), 'content-type': 'text/csv' }, body: POOL });
    expect(res.status, res.text).to.equal(200);
    return a;
  }
  async function createB(apiKey: string, text = TEXT): Promise<string> {
    const res = await request<{ id: string }>(`${t.api.baseUrl}/v1/campaigns`, {
      method: 'POST',
      headers: { ...surfaceB(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Audience', brandUrl: TARGET, targetAudience: text }),
    });
    expect(res.status, res.text).to.equal(201);
    return res.body.id;
  }
  const getB = async (apiKey: string, id: string): Promise<AudienceB> => (await request<{ audience: AudienceB }>(`${t.api.baseUrl}/v1/campaigns/${id}`, { headers: surfaceB(apiKey) })).body.audience;
  const costsOf = (accountId: string) =>
    t.db.sequelize.query<CostRow>('SELECT category, cost_name, feature_slug, amount_usd, campaign_id, details FROM costs WHERE account_id = $1 ORDER BY id', {
      bind: [accountId],
      type: QueryTypes.SELECT,
    });
  const parserFilters = (text = TEXT) => JSON.parse(JSON.stringify(parseAudienceText(text).filters)) as Record<string, unknown>;

  it('OpenAI key: the model reads the text (source llm), GET shows its filters, its cost is the campaign\'s ai_generation cost', async () => {
    const { accountId, apiKey } = await account({ openaiApiKey: OPENAI_KEY });
    const res = await request<{ id: string; audience: { source: string; filters: unknown; matched_leads: number } }>(`${t.api.baseUrl}/campaigns`, {
      method: 'POST',
      headers: { ...surfaceA(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ mcp: 'sales_outreach', target_url: TARGET, target_audience: TEXT }),
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.audience).to.deep.include({ source: 'llm', filters: { titles: ['CTO'], locations: ['Germany'], company_sizes: [{ min: 10 }], exclude: { companies: ['Acme'] } } });
    // The imported leads have no company size: the size filter leaves them out.
    expect(res.body.audience.matched_leads).to.equal(0);
    expect(await getB(apiKey, res.body.id)).to.deep.include({ text: TEXT, source: 'llm', filters: MODEL_FILTERS });

    expect(openai.requests).to.have.length(1);
    const chat = openai.requests[0]!.body as unknown as ChatRequest;
    expect(chat.model).to.equal('gpt-4o-mini');
    expect(chat.response_format?.type).to.equal('json_schema');
    expect(chat.response_format?.json_schema?.strict).to.equal(true);
    expect(chat.response_format?.json_schema?.schema).to.deep.include({ additionalProperties: false });
    expect(chat.messages[1]!.content).to.include(TEXT);

    const costs = await costsOf(accountId);
    expect(costs).to.have.length(1);
    expect(costs[0]).to.deep.include({ category: 'ai_generation', cost_name: 'openai:gpt-4o-mini', feature_slug: 'audience-reading', campaign_id: res.body.id });
    expect(Number(costs[0]!.amount_usd)).to.be.closeTo(priceTokens('gpt-4o-mini', { inputTokens: 700, outputTokens: 60 }), 1e-6);
    expect(costs[0]!.details).to.deep.include({ input_tokens: 700, output_tokens: 60, outcome: 'ok' });
  });

  it('Anthropic key: the same through a forced tool call, and the filters choose the leads', async () => {
    const { accountId, apiKey } = await account({ anthropicApiKey: ANTHROPIC_KEY });
    anthropicAnswer = () => ({ ...EMPTY, titles: ['CTO'], locations: ['Germany'] });
    const id = await createB(apiKey);
    expect(await getB(apiKey, id)).to.deep.equal({ text: TEXT, source: 'llm', filters: { titles: ['CTO'], locations: ['Germany'] }, matchedLeads: 2, reason: null });
    expect(openai.requests).to.have.length(0);
    expect(anthropic.requests).to.have.length(1);
    const m = anthropic.requests[0]!.body as unknown as MessagesRequest;
    expect(m.tool_choice).to.deep.include({ type: 'tool', name: 'audience_filters' });
    const costs = await costsOf(accountId);
    expect(costs.map((c) => [c.category, c.cost_name, c.feature_slug, c.campaign_id])).to.deep.equal([['ai_generation', 'anthropic:claude-haiku-4-5', 'audience-reading', id]]);
    expect(Number(costs[0]!.amount_usd)).to.be.closeTo(priceTokens('claude-haiku-4-5', { inputTokens: 650, outputTokens: 55 }), 1e-6);
  });

  it('an answer that is not JSON: the parser reads the text (source parser); the spent tokens are still charged', async () => {
    const { accountId, apiKey } = await account({ openaiApiKey: OPENAI_KEY });
    openAiAnswer = () => 'Sure! Here are the filters: titles CTO';
    const id = await createB(apiKey);
    expect(await getB(apiKey, id)).to.deep.include({ source: 'parser', filters: parserFilters(), matchedLeads: 2 });
    const costs = await costsOf(accountId);
    expect(costs).to.have.length(1);
    expect(costs[0]).to.deep.include({ feature_slug: 'audience-reading', campaign_id: id });
    expect(costs[0]!.details).to.deep.include({ outcome: 'invalid_json' });
  });

  it('an answer off the schema (an unknown seniority): source parser', async () => {
    const { apiKey } = await account({ openaiApiKey: OPENAI_KEY });
    openAiAnswer = () => JSON.stringify({ ...MODEL_ANSWER, seniorities: ['overlord'] });
    const id = await createB(apiKey);
    expect(await getB(apiKey, id)).to.deep.include({ source: 'parser', filters: parserFilters() });
  });

  it('filters that break the audience rules (a title over 200 characters) or name nobody: source parser', async () => {
    const { apiKey } = await account({ anthropicApiKey: ANTHROPIC_KEY });
    anthropicAnswer = () => ({ ...EMPTY, titles: ['x'.repeat(201)] });
    expect(await getB(apiKey, await createB(apiKey))).to.deep.include({ source: 'parser', filters: parserFilters() });
    anthropicAnswer = () => ({ ...EMPTY, exclude: { ...EMPTY.exclude, companies: ['Acme'] } });
    expect(await getB(apiKey, await createB(apiKey))).to.deep.include({ source: 'parser', filters: parserFilters() });
  });

  it('the provider failing (500 after the client\'s retries): source parser, no cost', async () => {
    const { accountId, apiKey } = await account({ openaiApiKey: OPENAI_KEY });
    const fail = { status: 500, body: { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } }, headers: { 'retry-after-ms': '5' } };
    openai.script(fail, fail, fail);
    const id = await createB(apiKey);
    expect(await getB(apiKey, id)).to.deep.include({ source: 'parser', filters: parserFilters(), matchedLeads: 2 });
    expect(openai.requests).to.have.length(3);
    expect(await costsOf(accountId)).to.deep.equal([]);
  });

  it('a provider slower than the deadline: the parser answers when the deadline passes', async () => {
    const { accountId } = await account({ openaiApiKey: OPENAI_KEY });
    const started = Date.now();
    const hanging = () => new Promise<Response>(() => undefined);
    const reading = await readAudienceText({ sequelize: t.db.sequelize, config: testConfig(env), log: createLogger('silent', 'test'), fetch: hanging, deadlineMs: 200 }, accountId, TEXT);
    expect(Date.now() - started).to.be.below(5_000);
    expect(reading).to.deep.include({ source: 'parser', charge: null });
    expect(JSON.parse(JSON.stringify(reading.filters))).to.deep.equal(parserFilters());
    expect(reading.fallback).to.match(/did not answer within 200 ms/);
  });

  it('no LLM key: the built-in parser, and no provider is called', async () => {
    const { accountId, apiKey } = await account(null);
    const id = await createB(apiKey);
    expect(await getB(apiKey, id)).to.deep.include({ source: 'parser', filters: parserFilters(), matchedLeads: 2 });
    expect(openai.requests.length + anthropic.requests.length).to.equal(0);
    expect(await costsOf(accountId)).to.deep.equal([]);
  });

  it('explicit filters are not sent to the model', async () => {
    const { apiKey } = await account({ openaiApiKey: OPENAI_KEY });
    const res = await request<{ audience: AudienceB }>(`${t.api.baseUrl}/v1/campaigns`, {
      method: 'POST',
      headers: { ...surfaceB(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Audience', brandUrl: TARGET, targetAudience: TEXT, audience: { departments: ['marketing'] } }),
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.audience).to.deep.include({ source: 'explicit', filters: { departments: ['marketing'] } });
    expect(openai.requests).to.have.length(0);
  });
});
