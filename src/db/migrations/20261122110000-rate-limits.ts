import type { QueryInterface } from 'sequelize';

/**
 * Request counters of the API's rate limits (src/api/rate-limit), in the layout of
 * rate-limiter-flexible's PostgreSQL store: one row per key (`a:<account>`, `b:<account>`), the
 * points of its current window and the window's end in epoch milliseconds.
 *
 * UNLOGGED: a counter lives a minute, so it is not worth a WAL record on every request; after a
 * crash PostgreSQL empties the table and every account starts a fresh window. The lower fill
 * factor leaves room on each page for the row's next version (HOT updates, no index churn).
 */
const UP = `
CREATE UNLOGGED TABLE rate_limits (
  key VARCHAR(255) PRIMARY KEY,
  points INTEGER NOT NULL DEFAULT 0,
  expire BIGINT
) WITH (fillfactor = 70);
`;

export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(UP);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query('DROP TABLE IF EXISTS rate_limits');
}
