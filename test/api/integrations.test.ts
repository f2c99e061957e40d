import { expect } from 'chai';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';
import { cliEnv, runOutreach } from '../support/cli';

const OPENAI_KEY = 'sk-proj-abcdefghijklmnop1234';
const ANTHROPIC_KEY = 'sk-ant-api03-zyxwvutsrqponm9876';
const APOLLO_KEY = 'apollo_0123456789abcdEFGH';

interface Masked {
  configured: true;
  last4: string;
}
interface View {
  apolloApiKey: Masked | null;
  openaiApiKey: Masked | null;
  openaiModel: string | null;
  anthropicApiKey: Masked | null;
  anthropicModel: string | null;
  llmProvider: 'openai' | 'anthropic' | null;
  calcomWebhookSecret: Masked | null;
  calendlySigningKey: Masked | null;
  activeLlm: { provider: string; model: string } | null;
  updatedAt: string | null;
}

const EMPTY = {
  apolloApiKey: null,
  openaiApiKey: null,
  openaiModel: null,
  anthropicApiKey: null,
  anthropicModel: null,
  llmProvider: null,
  calcomWebhookSecret: null,
  calendlySigningKey: null,
  activeLlm: null,
  updatedAt: null,
};

describe('integration settings: GET and PATCH /v1/integrations', () => {
  const t = useTestApi();
  const url = () => `${t.api.baseUrl}/v1/integrations`;
  const patch = (key: string, body: unknown) =>
    request<View & { error?: string }>(url(), { method: 'PATCH', headers: { ...surfaceB(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const get = (key: string) => request<View>(url(), { headers: surfaceB(key) });

  it('a new account has nothing configured: the built-in writer', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const res = await get(apiKey);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(EMPTY);
  });

  it('PATCH stores keys and shows them masked; no response ever carries a secret', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const secrets = [OPENAI_KEY, ANTHROPIC_KEY, APOLLO_KEY, 'calcom-secret-0123456789', 'calendly-signing-key-abcdef'];
    const res = await patch(apiKey, {
      openaiApiKey: OPENAI_KEY,
      openaiModel: 'gpt-4.1-mini',
      anthropicApiKey: ANTHROPIC_KEY,
      apolloApiKey: APOLLO_KEY,
      calcomWebhookSecret: secrets[3],
      calendlySigningKey: secrets[4],
    });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({
      openaiApiKey: { configured: true, last4: '1234' },
      openaiModel: 'gpt-4.1-mini',
      anthropicApiKey: { configured: true, last4: '9876' },
      anthropicModel: null,
      apolloApiKey: { configured: true, last4: 'EFGH' },
      calcomWebhookSecret: { configured: true, last4: '6789' },
      calendlySigningKey: { configured: true, last4: 'cdef' },
      llmProvider: null,
      activeLlm: { provider: 'openai', model: 'gpt-4.1-mini' },
    });
    expect(Date.parse(res.body.updatedAt!)).to.be.closeTo(Date.now(), 60_000);
    const again = await get(apiKey);
    expect(again.body).to.deep.equal(res.body);
    for (const s of secrets) {
      expect(res.text).not.to.include(s);
      expect(again.text).not.to.include(s);
      expect(again.text).not.to.include(s.slice(0, -4));
    }
  });

  it('a field left out is kept, null clears it', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    await patch(apiKey, { openaiApiKey: OPENAI_KEY, anthropicApiKey: ANTHROPIC_KEY, anthropicModel: 'claude-sonnet-4-6' });
    const chosen = await patch(apiKey, { llmProvider: 'anthropic' });
    expect(chosen.body).to.deep.include({
      openaiApiKey: { configured: true, last4: '1234' },
      llmProvider: 'anthropic',
      activeLlm: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
    });
    const cleared = await patch(apiKey, { anthropicApiKey: null, anthropicModel: null });
    expect(cleared.status).to.equal(200);
    expect(cleared.body).to.deep.include({ anthropicApiKey: null, anthropicModel: null, llmProvider: 'anthropic', openaiApiKey: { configured: true, last4: '1234' } });
    // the preferred provider has no key any more: the one present is used
    expect(cleared.body.activeLlm).to.deep.equal({ provider: 'openai', model: 'gpt-4o-mini' });
    const empty = await patch(apiKey, {});
    expect(empty.status).to.equal(200);
    expect(empty.body).to.deep.equal(cleared.body);
    const none = await patch(apiKey, { openaiApiKey: null, llmProvider: null });
    expect(none.body).to.deep.include({ openaiApiKey: null, llmProvider: null, activeLlm: null });
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a key too short to mask', { openaiApiKey: 'sk-short' }, /openaiApiKey must NOT have fewer than 16 characters/],
    ['a key with whitespace', { anthropicApiKey: 'sk-ant-api03 with spaces' }, /anthropicApiKey must match pattern/],
    ['an empty string (null clears)', { apolloApiKey: '' }, /apolloApiKey must NOT have fewer than 16 characters/],
    ['a key over 512 characters', { calendlySigningKey: 'k'.repeat(513) }, /calendlySigningKey must NOT have more than 512 characters/],
    ['a model name with spaces', { openaiModel: 'gpt 4o' }, /openaiModel must match pattern/],
    ['a model name that is too long', { anthropicModel: `claude-${'x'.repeat(100)}` }, /anthropicModel must match pattern/],
    ['an unknown provider', { llmProvider: 'mistral' }, /body\.llmProvider must be one of "openai", "anthropic", null/],
    ['an unknown field', { openaiKey: OPENAI_KEY }, /unknown field "openaiKey"/],
    ['a key of the wrong type', { openaiApiKey: 1234567890123456 }, /openaiApiKey/],
    ['an Anthropic key in the OpenAI field', { openaiApiKey: ANTHROPIC_KEY }, /looks like an Anthropic key/],
    ['an OpenAI project key in the Anthropic field', { anthropicApiKey: OPENAI_KEY }, /looks like an OpenAI key/],
  ];
  for (const [what, body, message] of invalid) {
    it(`400 for ${what}, and nothing is changed`, async () => {
      const { apiKey } = await createAccount(t.db.sequelize);
      await patch(apiKey, { openaiModel: 'gpt-4o-mini' });
      const before = await get(apiKey);
      const res = await patch(apiKey, { ...body, openaiModel: body.openaiModel ?? 'gpt-4.1' });
      expect(res.status).to.equal(400);
      expect(Object.keys(res.body)).to.deep.equal(['error']);
      expect(res.body.error).to.match(message);
      expect((await get(apiKey)).body).to.deep.equal(before.body);
    });
  }

  it("changing one account's settings leaves another account's untouched", async () => {
    const a = await createAccount(t.db.sequelize);
    const b = await createAccount(t.db.sequelize);
    await patch(b.apiKey, { anthropicApiKey: ANTHROPIC_KEY, calcomWebhookSecret: 'calcom-secret-bbbbbbbbbb' });
    const bBefore = await get(b.apiKey);
    await patch(a.apiKey, { openaiApiKey: OPENAI_KEY, anthropicApiKey: 'sk-ant-api03-other-account-0000', calcomWebhookSecret: null });
    expect((await get(b.apiKey)).body).to.deep.equal(bBefore.body);
    expect((await get(a.apiKey)).body.anthropicApiKey).to.deep.equal({ configured: true, last4: '0000' });
  });

  it('needs a Surface B key; PATCH needs a JSON body', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    expect((await request(url())).status).to.equal(401);
    expect((await request(url(), { headers: surfaceA(apiKey) })).status).to.equal(401);
    expect((await request(url(), { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' })).status).to.equal(401);
    const text = await request(url(), { method: 'PATCH', headers: { ...surfaceB(apiKey), 'content-type': 'text/plain' }, body: 'openaiApiKey=x' });
    expect(text.status).to.equal(415);
  });

  it('both operations are in the OpenAPI document', () => {
    const paths = t.api.openapi.paths as Record<string, Record<string, { operationId: string }>>;
    expect(paths['/v1/integrations']?.get?.operationId).to.equal('getIntegrations');
    expect(paths['/v1/integrations']?.patch?.operationId).to.equal('updateIntegrations');
  });

  describe('the operator CLI (outreach integrations show|set)', function () {
    // Each command is a fresh Node process that compiles the CLI through tsx: seconds each on a busy machine.
    this.timeout(180_000);
    const cli = (args: string[]) => runOutreach(args, cliEnv(t.db.url));

    it('set then show: masked output, the same settings the API sees', async () => {
      const { accountId, apiKey } = await createAccount(t.db.sequelize);
      const set = await cli(['integrations', 'set', '--account', accountId, '--openai-key', OPENAI_KEY, '--openai-model', 'gpt-4.1-mini', '--calcom-secret', 'calcom-secret-0123456789']);
      expect(set.stderr).to.equal('');
      expect(set.code).to.equal(0);
      expect(set.stdout).not.to.include(OPENAI_KEY);
      const shown = JSON.parse(set.stdout) as Record<string, unknown>;
      expect(shown).to.deep.include({
        account_id: accountId,
        openai_api_key: { configured: true, last4: '1234' },
        openai_model: 'gpt-4.1-mini',
        calcom_webhook_secret: { configured: true, last4: '6789' },
        anthropic_api_key: null,
        active_llm: { provider: 'openai', model: 'gpt-4.1-mini' },
      });
      expect((await get(apiKey)).body).to.deep.include({ openaiApiKey: { configured: true, last4: '1234' }, openaiModel: 'gpt-4.1-mini' });

      const cleared = await cli(['integrations', 'set', '--account', accountId, '--clear', 'openai-key,calcom-secret']);
      expect(cleared.code).to.equal(0);
      const show = await cli(['integrations', 'show', '--account', accountId]);
      expect(JSON.parse(show.stdout)).to.deep.include({ openai_api_key: null, calcom_webhook_secret: null, openai_model: 'gpt-4.1-mini', active_llm: null });
    });

    it('refuses a bad value or an unknown account, changing nothing', async () => {
      const { accountId, apiKey } = await createAccount(t.db.sequelize);
      const short = await cli(['integrations', 'set', '--account', accountId, '--anthropic-key', 'sk-ant-short']);
      expect(short.code).to.not.equal(0);
      expect(short.stderr).to.match(/--anthropic-key must NOT have fewer than 16 characters/);
      const swapped = await cli(['integrations', 'set', '--account', accountId, '--openai-key', ANTHROPIC_KEY]);
      expect(swapped.code).to.equal(2);
      expect(swapped.stderr).to.match(/--openai-key: openaiApiKey looks like an Anthropic key/);
      const provider = await cli(['integrations', 'set', '--account', accountId, '--llm-provider', 'mistral']);
      expect(provider.stderr).to.match(/--llm-provider must be one of openai, anthropic/);
      const unknown = await cli(['integrations', 'show', '--account', 'acc_doesnotexist']);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.include('No account acc_doesnotexist');
      expect((await get(apiKey)).body).to.deep.equal(EMPTY);
    });
  });
});
