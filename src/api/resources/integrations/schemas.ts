import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas';

const Masked = Type.Union(
  [
    Type.Object(
      { configured: Type.Literal(true), last4: Type.String({ minLength: 4, maxLength: 4, description: 'Last four characters of the secret.' }) },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'Never the secret itself: whether it is set, and its last four characters.' },
);

const Provider = Type.Union([Type.Literal('openai'), Type.Literal('anthropic')]);

export const IntegrationsResponse = Type.Object(
  {
    apolloApiKey: Masked,
    openaiApiKey: Masked,
    openaiModel: Type.Union([Type.String(), Type.Null()], { description: 'Null: the default model.' }),
    anthropicApiKey: Masked,
    anthropicModel: Type.Union([Type.String(), Type.Null()], { description: 'Null: the default model.' }),
    llmProvider: Type.Union([Provider, Type.Null()]),
    calcomWebhookSecret: Masked,
    calendlySigningKey: Masked,
    activeLlm: Type.Union([Type.Object({ provider: Provider, model: Type.String() }, { additionalProperties: false }), Type.Null()], {
      description: 'The provider and model that write emails and qualify replies now; null: the built-in writer and classifier.',
    }),
    updatedAt: Type.Union([Timestamp, Type.Null()], { description: 'Null until the first change.' }),
  },
  { additionalProperties: false },
);
