import type { QueryInterface } from 'sequelize';

/**
 * Each delivery's origin (`https://host[:port]`, from its normalised URL), so the dispatcher can
 * give every destination its share of attempts in flight: a freed slot takes exactly its origin's
 * next pending deliveries through the index, without scanning anyone else's backlog.
 */
const UP = `
ALTER TABLE webhook_deliveries ADD COLUMN origin TEXT GENERATED ALWAYS AS (substring(url from '^[^:]+://[^/?#]+')) STORED;
CREATE INDEX webhook_deliveries_pending_origin ON webhook_deliveries (origin, lease_until) WHERE status = 'pending';
`;

const DOWN = `
DROP INDEX IF EXISTS webhook_deliveries_pending_origin;
ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS origin;
`;

export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(UP);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(DOWN);
}
