import type { QueryInterface } from 'sequelize';

/**
 * The audience of a campaign (src/campaigns/audience): the filters it emails, how they were
 * obtained, how many reachable leads of the account matched at the last count, and why none did.
 *
 * - `audience_filters`: AudienceFilters as JSON (camelCase members); NULL when the campaign takes
 *   every lead (`audience_source` all_leads).
 * - `audience_source`: parser, llm, explicit or all_leads. Campaigns stored before this migration
 *   were planned over every lead of the account whatever their text: they keep that (all_leads),
 *   so no running campaign changes whom it writes to.
 * - `audience_matched_leads`: counted at create and again after each planning call, so a read of
 *   the campaign shows it without counting; NULL until first counted.
 * - `audience_reason`: why the audience matches nobody (NULL otherwise).
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE campaigns
  ADD COLUMN audience_filters JSONB,
  ADD COLUMN audience_source TEXT NOT NULL DEFAULT 'all_leads' CHECK (audience_source IN ('parser', 'llm', 'explicit', 'all_leads')),
  ADD COLUMN audience_matched_leads INTEGER CHECK (audience_matched_leads >= 0),
  ADD COLUMN audience_reason TEXT;
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE campaigns
  DROP COLUMN IF EXISTS audience_reason,
  DROP COLUMN IF EXISTS audience_matched_leads,
  DROP COLUMN IF EXISTS audience_source,
  DROP COLUMN IF EXISTS audience_filters;
`);
}
