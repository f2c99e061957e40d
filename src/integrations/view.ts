import { DEFAULT_MODELS } from '../ai/defaults';
import { chooseLlm } from '../ai/select-llm';
import type { LlmProviderName } from '../ai/types';
import type { IntegrationSettings } from './fields';

/** How a secret is shown: never the value, only that it is set and its last four characters. */
export interface MaskedSecret {
  readonly configured: true;
  readonly last4: string;
}

/** The settings as the API and the CLI show them. */
export interface IntegrationsView {
  readonly apolloApiKey: MaskedSecret | null;
  readonly openaiApiKey: MaskedSecret | null;
  readonly openaiModel: string | null;
  readonly anthropicApiKey: MaskedSecret | null;
  readonly anthropicModel: string | null;
  readonly llmProvider: LlmProviderName | null;
  readonly calcomWebhookSecret: MaskedSecret | null;
  readonly calendlySigningKey: MaskedSecret | null;
  /** What writes emails and qualifies replies now: the chosen provider and model, or null for the built-in writer and classifier. */
  readonly activeLlm: { readonly provider: LlmProviderName; readonly model: string } | null;
  readonly updatedAt: string | null;
}

export function maskSecret(value: string | null): MaskedSecret | null {
  // By code point, as the schema counts: slice(-4) could cut a surrogate pair in half.
  return value === null ? null : { configured: true, last4: Array.from(value).slice(-4).join('') };
}

export function toView(s: IntegrationSettings): IntegrationsView {
  const llm = chooseLlm(s);
  return {
    apolloApiKey: maskSecret(s.apolloApiKey),
    openaiApiKey: maskSecret(s.openaiApiKey),
    openaiModel: s.openaiModel,
    anthropicApiKey: maskSecret(s.anthropicApiKey),
    anthropicModel: s.anthropicModel,
    llmProvider: s.llmProvider,
    calcomWebhookSecret: maskSecret(s.calcomWebhookSecret),
    calendlySigningKey: maskSecret(s.calendlySigningKey),
    activeLlm: llm === null ? null : { provider: llm.provider, model: llm.model ?? DEFAULT_MODELS[llm.provider] },
    updatedAt: s.updatedAt === null ? null : s.updatedAt.toISOString(),
  };
}
