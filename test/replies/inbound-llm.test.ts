import { expect } from 'chai';
import { startTestApi, request, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai';
import { loadMime } from './mime-fixtures';
import { rows, seedSentEmail } from './seed';

const OPENAI_KEY = 'sk-test-inbound-0123456789abcdefghij';
const INBOUND_SECRET = 'operator-set-inbound-secret-42';

describe('inbound replies qualified by the account\'s own LLM', () => {
  let db: TestDatabase;
  let api: TestApi;
  let openai: FakeOpenAi;

  before(async () => {
    openai = await startFakeOpenAi({
      apiKey: OPENAI_KEY,
      answer: () => JSON.stringify({ category: 'interested', sentiment: 'positive', confidence: 0.93, next_action: 'confirm_proposed_time' }),
      usage: { prompt: 400, completion: 30 },
    });
    db = await createTestDatabase();
    api = await startTestApi(db.sequelize, { env: { OPENAI_BASE_URL: `${openai.url}/v1`, INBOUND_SECRET } });
  });
  after(async () => {
    await api?.close();
    await db?.drop();
    await openai?.close();
  });

  it('uses the OpenAI key, charges the campaign once per reply, and never pays twice for a repeated message', async () => {
    const sent = await seedSentEmail(db.sequelize);
    await db.sequelize.query(`INSERT INTO account_integrations (account_id, openai_api_key) VALUES ($1, $2)`, { bind: [sent.accountId, OPENAI_KEY] });
    const raw = loadMime('gmail-reply.eml', { SENT_ID: sent.messageId, LEAD: sent.leadEmail });
    const post = () =>
      request<{ replyId: string; duplicate: boolean }>(`${api.baseUrl}/inbound/mime`, {
        method: 'POST',
        headers: { 'Content-Type': 'message/rfc822', 'X-Inbound-Secret': INBOUND_SECRET },
        body: raw,
      });

    const res = await post();
    expect(res.status, res.text).to.equal(200);
    const [reply] = await rows<Record<string, unknown>>(db.sequelize, `SELECT category, sentiment, confidence, next_action, qualified_by FROM replies WHERE id = $1`, [
      res.body.replyId,
    ]);
    expect(reply).to.deep.equal({ category: 'interested', sentiment: 'positive', confidence: 0.93, next_action: 'confirm_proposed_time', qualified_by: 'openai' });

    // The model saw what Jane wrote, not our pitch quoted below it.
    expect(openai.requests).to.have.length(1);
    const prompt = JSON.stringify(openai.requests[0]?.body.messages);
    expect(prompt).to.include('Sounds interesting, can we talk Thursday?');
    expect(prompt).to.not.include('cut your onboarding time');

    const costs = await rows<{ campaign_id: string; feature_slug: string; idempotency_key: string }>(
      db.sequelize,
      `SELECT campaign_id, feature_slug, idempotency_key FROM costs WHERE account_id = $1`,
      [sent.accountId],
    );
    expect(costs).to.deep.equal([{ campaign_id: sent.campaignId, feature_slug: 'reply-qualification', idempotency_key: `reply-qualification:${res.body.replyId}` }]);

    const again = await post();
    expect(again.body).to.include({ replyId: res.body.replyId, duplicate: true });
    expect(openai.requests).to.have.length(1);
    expect(await rows(db.sequelize, `SELECT 1 FROM costs WHERE account_id = $1`, [sent.accountId])).to.have.length(1);
  });
});
