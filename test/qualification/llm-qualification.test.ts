import { expect } from 'chai';
import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { priceTokens } from '../../src/ai';
import type { Config } from '../../src/config/config';
import { writeIntegrations } from '../../src/integrations/integration-repository';
import { qualifyReply, type ReplyInput } from '../../src/qualification';
import { createAccount, request, startTestApi, surfaceB, testConfig, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startFakeAnthropic, type FakeAnthropic, type MessagesRequest } from '../support/fake-anthropic';
import { startFakeOpenAi, type ChatRequest, type FakeOpenAi } from '../support/fake-openai';

const OPENAI_KEY = 'sk-proj-qualify-test-key-0000000000ABCD';
const ANTHROPIC_KEY = 'sk-ant-api03-qualify-test-key-000000EFGH';
const NOW = new Date('2026-11-20T09:00:00Z');

const REPLY: ReplyInput = {
  fromEmail: 'jane@globex.com',
  toEmail: 'sam@outreach.io',
  subject: 'Re: Quick question',
  bodyText: 'Sounds interesting. What does pricing look like for 40 seats?\n\nOn Tue, Nov 17, 2026 at 9:00 AM Sam <sam@outreach.io> wrote:\n> QUOTED-PITCH: would you be open to a call?',
};

interface CostRow {
  category: string;
  cost_name: string;
  feature_slug: string;
  amount_usd: string;
  campaign_id: string | null;
  idempotency_key: string;
  details: Record<string, unknown>;
}

/** A logger whose lines the test can read. */
function capturingLogger(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'warn' }, { write: (s: string) => lines.push(JSON.parse(s) as Record<string, unknown>) });
  return { log, lines };
}

describe('reply qualification with the account LLM', () => {
  let db: TestDatabase;
  let openai: FakeOpenAi;
  let anthropic: FakeAnthropic;
  let config: Config;
  /** What the fake models answer next. */
  let answer: Record<string, unknown>;

  before(async () => {
    db = await createTestDatabase();
    openai = await startFakeOpenAi({
      apiKey: OPENAI_KEY,
      models: ['gpt-4o-mini', 'gpt-4.1-mini'],
      answer: () => JSON.stringify(answer),
      responseModel: (m) => `${m}-2025-04-14`,
      usage: { prompt: 900, completion: 40 },
    });
    anthropic = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY, answer: () => answer, usage: { input: 800, output: 30 } });
    config = testConfig({ OPENAI_BASE_URL: `${openai.url}/v1`, ANTHROPIC_BASE_URL: anthropic.url });
  });
  after(async () => {
    await openai?.close();
    await anthropic?.close();
    await db?.drop();
  });
  beforeEach(() => {
    openai.requests.length = 0;
    anthropic.requests.length = 0;
    answer = { category: 'interested', sentiment: 'positive', confidence: 0.91, next_action: 'answer_question' };
  });

  const costsOf = (accountId: string) =>
    db.sequelize.query<CostRow>('SELECT category, cost_name, feature_slug, amount_usd, campaign_id, idempotency_key, details FROM costs WHERE account_id = $1 ORDER BY id', {
      bind: [accountId],
      type: QueryTypes.SELECT,
    });

  it("uses the account's OpenAI key and model, parses the JSON answer and records the cost", async () => {
    const { accountId } = await createAccount(db.sequelize);
    await writeIntegrations(db.sequelize, accountId, { openaiApiKey: OPENAI_KEY, openaiModel: 'gpt-4.1-mini' });
    const { log } = capturingLogger();

    const q = await qualifyReply({ sequelize: db.sequelize, config, log }, accountId, REPLY, { idempotencyKey: 'rpl_1', now: NOW });

    expect(q).to.deep.equal({ category: 'interested', sentiment: 'positive', confidence: 0.91, nextAction: 'answer_question', qualifiedBy: 'openai', model: 'gpt-4.1-mini-2025-04-14' });
    expect(openai.requests).to.have.length(1);
    const sent = openai.requests[0]!;
    expect(sent.headers.authorization).to.equal(`Bearer ${OPENAI_KEY}`);
    const chat = sent.body as unknown as ChatRequest;
    expect(chat.model).to.equal('gpt-4.1-mini');
    expect(chat.response_format?.type).to.equal('json_schema');
    expect(chat.response_format?.json_schema?.strict).to.equal(true);
    expect(chat.response_format?.json_schema?.schema).to.deep.include({ required: ['category', 'sentiment', 'confidence', 'next_action'] });
    const [system, user] = chat.messages;
    for (const c of ['interested', 'meeting_booked', 'closed', 'neutral', 'not_interested', 'out_of_office', 'unsubscribe']) expect(system!.content).to.include(c);
    expect(user!.content).to.include('What does pricing look like');
    expect(user!.content, 'quoted history is not sent').not.to.include('QUOTED-PITCH');

    const costs = await costsOf(accountId);
    expect(costs).to.have.length(1);
    expect(costs[0]).to.deep.include({ category: 'ai_generation', cost_name: 'openai:gpt-4.1-mini', feature_slug: 'reply-qualification', campaign_id: null, idempotency_key: 'reply-qualification:rpl_1' });
    expect(Number(costs[0]!.amount_usd)).to.be.closeTo(priceTokens('gpt-4.1-mini', { inputTokens: 900, outputTokens: 40 }), 1e-6);
    expect(Number(costs[0]!.amount_usd)).to.be.above(0);
    expect(costs[0]!.details).to.deep.include({ input_tokens: 900, output_tokens: 40, outcome: 'ok' });
    const events = await db.sequelize.query<{ n: string }>("SELECT count(*) AS n FROM outbox WHERE account_id = $1 AND event = 'cost.recorded'", { bind: [accountId], type: QueryTypes.SELECT });
    expect(Number(events[0]!.n)).to.equal(1);

    // A retried caller with the same key is charged once.
    await qualifyReply({ sequelize: db.sequelize, config, log }, accountId, REPLY, { idempotencyKey: 'rpl_1', now: NOW });
    expect(await costsOf(accountId)).to.have.length(1);
  });

  it("uses the account's Anthropic key with the provider's default model", async () => {
    const { accountId } = await createAccount(db.sequelize);
    await writeIntegrations(db.sequelize, accountId, { anthropicApiKey: ANTHROPIC_KEY });
    answer = { category: 'out_of_office', sentiment: 'neutral', confidence: 0.97, next_action: 'follow_up_after:2026-12-07' };

    const q = await qualifyReply({ sequelize: db.sequelize, config, log: capturingLogger().log }, accountId, { ...REPLY, bodyText: 'I am on holiday until 7 December.' }, { now: NOW });

    expect(q).to.deep.equal({ category: 'out_of_office', sentiment: 'neutral', confidence: 0.97, nextAction: 'follow_up_after:2026-12-07', qualifiedBy: 'anthropic', model: 'claude-haiku-4-5' });
    expect(openai.requests).to.have.length(0);
    expect(anthropic.requests).to.have.length(1);
    expect(anthropic.requests[0]!.headers['x-api-key']).to.equal(ANTHROPIC_KEY);
    const m = anthropic.requests[0]!.body as unknown as MessagesRequest;
    expect(m.model).to.equal('claude-haiku-4-5');
    expect(m.tool_choice).to.deep.include({ type: 'tool', name: 'reply_qualification' });
    const costs = await costsOf(accountId);
    expect(costs.map((c) => [c.cost_name, c.feature_slug])).to.deep.equal([['anthropic:claude-haiku-4-5', 'reply-qualification']]);
    expect(Number(costs[0]!.amount_usd)).to.be.closeTo(priceTokens('claude-haiku-4-5', { inputTokens: 800, outputTokens: 30 }), 1e-6);
  });

  it('makes the sentiment follow the category, whatever the model said', async () => {
    const { accountId } = await createAccount(db.sequelize);
    await writeIntegrations(db.sequelize, accountId, { openaiApiKey: OPENAI_KEY });
    answer = { category: 'unsubscribe', sentiment: 'positive', confidence: 0.8, next_action: 'suppress' };
    const q = await qualifyReply({ sequelize: db.sequelize, config, log: capturingLogger().log }, accountId, { ...REPLY, bodyText: 'Remove me.' }, { now: NOW });
    expect(q).to.include({ category: 'unsubscribe', sentiment: 'negative', qualifiedBy: 'openai' });
  });

  it('replaces a next action that does not fit the category with the built-in one', async () => {
    const { accountId } = await createAccount(db.sequelize);
    await writeIntegrations(db.sequelize, accountId, { openaiApiKey: OPENAI_KEY });
    answer = { category: 'neutral', sentiment: 'neutral', confidence: 0.7, next_action: 'suppress' };
    const q = await qualifyReply({ sequelize: db.sequelize, config, log: capturingLogger().log }, accountId, { ...REPLY, bodyText: 'Not my area, please write to dana@globex.com.' }, { now: NOW });
    expect(q).to.include({ category: 'neutral', nextAction: 'contact_referral:dana@globex.com', qualifiedBy: 'openai' });
  });

  it('falls back to the built-in classifier when the provider keeps failing (500), and logs a warning', async () => {
    const { accountId } = await createAccount(db.sequelize);
    await writeIntegrations(db.sequelize, accountId, { openaiApiKey: OPENAI_KEY });
    const failure = { status: 500, body: { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } }, headers: { 'retry-after-ms': '5' } };
    openai.script(failure, failure, failure);
    const { log, lines } = capturingLogger();

    const q = await qualifyReply({ sequelize: db.sequelize, config, log }, accountId, REPLY, { now: NOW });

    expect(q).to.deep.equal({ category: 'interested', sentiment: 'positive', confidence: q.confidence, nextAction: 'answer_question', qualifiedBy: 'builtin' });
    expect(openai.requests.length, 'the SDK retried').to.equal(3);
    expect(lines.some((l) => l.level === 40 && /using the built-in classifier/.test(String(l.msg)) && /server error/.test(String(l.err)))).to.equal(true);
    expect(JSON.stringify(lines)).not.to.include(OPENAI_KEY);
    expect(await costsOf(accountId), 'nothing was charged').to.have.length(0);
  });

  it('falls back on an out-of-range answer but still records the tokens it cost', async () => {
    const { accountId } = await createAccount(db.sequelize);
    await writeIntegrations(db.sequelize, accountId, { openaiApiKey: OPENAI_KEY });
    answer = { category: 'interested', sentiment: 'positive', confidence: 7, next_action: 'answer_question' };
    const { log, lines } = capturingLogger();

    const q = await qualifyReply({ sequelize: db.sequelize, config, log }, accountId, { ...REPLY, bodyText: 'Unsubscribe' }, { now: NOW });

    expect(q).to.include({ category: 'unsubscribe', qualifiedBy: 'builtin' });
    expect(lines).to.have.length(1);
    const costs = await costsOf(accountId);
    expect(costs).to.have.length(1);
    expect(costs[0]!.details).to.deep.include({ outcome: 'out_of_range' });
  });

  it('uses the built-in classifier, without calling any provider, when the account has no key', async () => {
    const { accountId } = await createAccount(db.sequelize);
    const q = await qualifyReply({ sequelize: db.sequelize, config, log: capturingLogger().log }, accountId, { ...REPLY, bodyText: 'Please take me off your list.' }, { now: NOW });
    expect(q).to.deep.equal({ category: 'unsubscribe', sentiment: 'negative', confidence: q.confidence, nextAction: 'suppress', qualifiedBy: 'builtin' });
    expect(openai.requests.length + anthropic.requests.length).to.equal(0);
    expect(await costsOf(accountId)).to.have.length(0);
  });

  describe('POST /v1/qualify with an LLM key', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi(db.sequelize, { env: { OPENAI_BASE_URL: `${openai.url}/v1`, ANTHROPIC_BASE_URL: anthropic.url } });
    });
    after(async () => {
      await api?.close();
    });

    it('answers with the LLM qualification and its model', async () => {
      const { accountId, apiKey } = await createAccount(db.sequelize);
      await writeIntegrations(db.sequelize, accountId, { openaiApiKey: OPENAI_KEY });
      answer = { category: 'meeting_booked', sentiment: 'positive', confidence: 0.88, next_action: 'confirm_meeting' };
      const res = await request(`${api.baseUrl}/v1/qualify`, {
        method: 'POST',
        headers: { ...surfaceB(apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({ fromEmail: 'jane@globex.com', toEmail: 'sam@outreach.io', subject: 'Re: Intro', bodyText: 'Tuesday at 3 works, see you then.' }),
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ category: 'meeting_booked', sentiment: 'positive', confidence: 0.88, nextAction: 'confirm_meeting', qualifiedBy: 'openai', model: 'gpt-4o-mini-2025-04-14' });
      expect((await costsOf(accountId)).map((c) => c.cost_name)).to.deep.equal(['openai:gpt-4o-mini']);
    });
  });
});
