import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

export type LlmProvider = 'openai' | 'anthropic';

/**
 * An account's own keys for outside services (BYOK) and the secrets its calendar webhooks are
 * signed with. No row, or a null key, means the built-in default is used.
 */
export class AccountIntegration extends Model<InferAttributes<AccountIntegration>, InferCreationAttributes<AccountIntegration>> {
  declare accountId: string;
  declare apolloApiKey: CreationOptional<string | null>;
  declare openaiApiKey: CreationOptional<string | null>;
  declare openaiModel: CreationOptional<string | null>;
  declare anthropicApiKey: CreationOptional<string | null>;
  declare anthropicModel: CreationOptional<string | null>;
  declare llmProvider: CreationOptional<LlmProvider | null>;
  declare calcomWebhookSecret: CreationOptional<string | null>;
  declare calendlySigningKey: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function initAccountIntegration(sequelize: Sequelize): void {
  AccountIntegration.init(
    {
      accountId: { ...col.text(false), primaryKey: true },
      apolloApiKey: col.text(),
      openaiApiKey: col.text(),
      openaiModel: col.text(),
      anthropicApiKey: col.text(),
      anthropicModel: col.text(),
      llmProvider: col.text(),
      calcomWebhookSecret: col.text(),
      calendlySigningKey: col.text(),
      createdAt: col.time(false),
      updatedAt: col.time(false),
    },
    { sequelize, tableName: 'account_integrations' },
  );
}
