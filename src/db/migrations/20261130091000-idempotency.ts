import type { QueryInterface } from 'sequelize';

/**
 * `Idempotency-Key` on the create routes (issue 28 point 3, docs/decisions.md "Idempotent
 * creates", src/api/http/idempotency.ts). One row per account and key:
 *
 * - claimed `in_flight` by an INSERT ... ON CONFLICT DO NOTHING before the work starts, so of two
 *   API processes racing with the same key exactly one runs it; `claim_token` names that claim,
 *   so only its owner completes or releases it (a claim taken over is not the old owner's);
 * - `heartbeat_at` is refreshed while the work runs: a claim whose heartbeat is older than the
 *   takeover timeout was left by a process that died, and the next request with the key takes
 *   it over;
 * - `done` with the first answer (status, body, the Location header) once the work has answered a
 *   2xx or 4xx. `response_body` is JSON, not JSONB: a replay sends back the first answer's text
 *   with its members in their order, which JSONB would sort;
 * - kept 24 hours from `created_at`; expired rows are deleted as keys are claimed (the index on
 *   created_at finds them).
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
  claim_token TEXT NOT NULL,
  heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  response_status INT NULL,
  response_body JSON NULL,
  response_headers JSONB NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  completed_at TIMESTAMPTZ NULL,
  PRIMARY KEY (account_id, key),
  CHECK ((state = 'done') = (response_status IS NOT NULL AND completed_at IS NOT NULL))
);
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query('DROP TABLE IF EXISTS idempotency_keys;');
}
