import { randomBytes } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';

export type ServiceSecretName = 'tracking' | 'inbound';

/**
 * A secret the whole deployment shares (API processes and workers): the value from the environment
 * when the operator set one, otherwise generated once and kept in PostgreSQL, so every process of
 * one database signs and checks with the same key without any setup.
 */
export async function serviceSecret(sequelize: Sequelize, name: ServiceSecretName, fromEnv: string | undefined): Promise<string> {
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const candidate = randomBytes(32).toString('base64url');
  // Insert-or-read in one statement: two processes starting together agree on the first value.
  const rows = await sequelize.query<{ value: string }>(
    `WITH ins AS (INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value)
     SELECT value FROM ins UNION ALL SELECT value FROM service_secrets WHERE name = $1 LIMIT 1`,
    { bind: [name, candidate], type: QueryTypes.SELECT },
  );
  const row = rows[0];
  if (row === undefined) throw new Error(`service secret ${name} could not be read`);
  return row.value;
}
