import { QueryTypes, type Sequelize } from 'sequelize';
import type { LlmProviderName } from '../ai/types';
import { COLUMN, EMPTY_SETTINGS, SETTING_FIELDS, type IntegrationPatch, type IntegrationSettings } from './fields';
import { patchedFields } from './patch-schema';

interface Row {
  apollo_api_key: string | null;
  openai_api_key: string | null;
  openai_model: string | null;
  anthropic_api_key: string | null;
  anthropic_model: string | null;
  llm_provider: LlmProviderName | null;
  calcom_webhook_secret: string | null;
  calendly_signing_key: string | null;
  updated_at: Date;
}

const SELECT_COLUMNS = [...SETTING_FIELDS.map((f) => COLUMN[f]), 'updated_at'].join(', ');

function fromRow(r: Row): IntegrationSettings {
  return {
    apolloApiKey: r.apollo_api_key,
    openaiApiKey: r.openai_api_key,
    openaiModel: r.openai_model,
    anthropicApiKey: r.anthropic_api_key,
    anthropicModel: r.anthropic_model,
    llmProvider: r.llm_provider,
    calcomWebhookSecret: r.calcom_webhook_secret,
    calendlySigningKey: r.calendly_signing_key,
    updatedAt: r.updated_at,
  };
}

/** An account's settings; all null when it never saved any (no row). */
export async function readIntegrations(sequelize: Sequelize, accountId: string): Promise<IntegrationSettings> {
  const rows = await sequelize.query<Row>(`SELECT ${SELECT_COLUMNS} FROM account_integrations WHERE account_id = $1`, {
    bind: [accountId],
    type: QueryTypes.SELECT,
  });
  return rows[0] === undefined ? EMPTY_SETTINGS : fromRow(rows[0]);
}

/**
 * Applies a patch in one statement (the row is created on the first save): only the fields the
 * patch names are written, so two clients changing different fields do not undo each other.
 * The patch must already be valid (`patchProblem`, or the route's schema).
 */
export async function writeIntegrations(sequelize: Sequelize, accountId: string, patch: IntegrationPatch): Promise<IntegrationSettings> {
  const fields = patchedFields(patch);
  if (fields.length === 0) return readIntegrations(sequelize, accountId);
  const columns = fields.map((f) => COLUMN[f]);
  const rows = await sequelize.query<Row>(
    `INSERT INTO account_integrations (account_id, ${columns.join(', ')})
     VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})
     ON CONFLICT (account_id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
     RETURNING ${SELECT_COLUMNS}`,
    { bind: [accountId, ...fields.map((f) => patch[f] ?? null)], type: QueryTypes.SELECT },
  );
  return fromRow(rows[0]!);
}
