import { expect } from 'chai';
import { FALLBACK_PRICE, priceFor, priceTokens } from '../../src/ai/pricing';
import { chooseLlm } from '../../src/ai/select-llm';

describe('LLM pricing table', () => {
  it('prices a model by its table entry, per million input and output tokens', () => {
    expect(priceTokens('gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).to.equal(0.75);
    expect(priceTokens('claude-haiku-4-5', { inputTokens: 1200, outputTokens: 300 })).to.equal(0.0027);
    expect(priceTokens('gpt-4o', { inputTokens: 0, outputTokens: 0 })).to.equal(0);
  });

  it('finds a dated snapshot and a longer variant under their family', () => {
    expect(priceFor('gpt-4o-mini-2024-07-18').matched).to.equal('gpt-4o-mini');
    expect(priceFor('claude-haiku-4-5-20251001').matched).to.equal('claude-haiku-4-5');
    expect(priceFor('claude-3-5-haiku-latest').matched).to.equal('claude-3-5-haiku');
    expect(priceFor('gpt-4o-mini-search-preview').matched).to.equal('gpt-4o-mini');
    expect(priceFor('GPT-4.1-mini').matched).to.equal('gpt-4.1-mini');
    // a longer family name is not mistaken for its prefix
    expect(priceFor('gpt-4o').price).to.deep.equal({ inputPerMTok: 2.5, outputPerMTok: 10 });
    expect(priceFor('gpt-4.1-nano').price.inputPerMTok).to.equal(0.1);
  });

  it('an unknown model gets the documented fallback price, never zero', () => {
    for (const name of ['ft:gpt-4o-mini:acme::abc', 'my-proxy-model', 'gpt-9']) {
      expect(priceFor(name)).to.deep.equal({ price: FALLBACK_PRICE, matched: null });
    }
    expect(priceTokens('my-proxy-model', { inputTokens: 1000, outputTokens: 1000 })).to.equal(0.03);
  });

  it('rounds to the micro-dollar the costs table keeps', () => {
    expect(priceTokens('gpt-4o-mini', { inputTokens: 7, outputTokens: 3 })).to.equal(0.000003); // 0.00000285
  });
});

describe('which LLM an account uses (chooseLlm)', () => {
  const none = { openaiApiKey: null, openaiModel: null, anthropicApiKey: null, anthropicModel: null, llmProvider: null } as const;

  it('no key: null, the built-in path', () => {
    expect(chooseLlm(none)).to.equal(null);
    expect(chooseLlm({ ...none, llmProvider: 'anthropic', anthropicModel: 'claude-haiku-4-5' })).to.equal(null);
  });

  it('one key: that provider, with its model, whatever llmProvider says', () => {
    expect(chooseLlm({ ...none, openaiApiKey: 'sk-o', openaiModel: 'gpt-4.1-mini', llmProvider: 'anthropic' })).to.deep.equal({ provider: 'openai', apiKey: 'sk-o', model: 'gpt-4.1-mini' });
    expect(chooseLlm({ ...none, anthropicApiKey: 'sk-a' })).to.deep.equal({ provider: 'anthropic', apiKey: 'sk-a', model: null });
  });

  it('both keys: llmProvider chooses, OpenAI when unset', () => {
    const both = { ...none, openaiApiKey: 'sk-o', anthropicApiKey: 'sk-a', anthropicModel: 'claude-sonnet-4-6' };
    expect(chooseLlm(both)?.provider).to.equal('openai');
    expect(chooseLlm({ ...both, llmProvider: 'openai' })?.provider).to.equal('openai');
    expect(chooseLlm({ ...both, llmProvider: 'anthropic' })).to.deep.equal({ provider: 'anthropic', apiKey: 'sk-a', model: 'claude-sonnet-4-6' });
  });
});
