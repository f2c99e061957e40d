import { QueryTypes, type Sequelize } from 'sequelize';
import { newId } from '../accounts/ids';
import { factsOf, type HitFact, type TrackingHit } from './hits';

/**
 * Writes a batch of hits as email facts in ONE statement (so one transaction): the `email_events`
 * rows, idempotent by dedupe key, and for each row actually inserted its `email.<type>` outbox
 * event, shaped exactly as `recordEmailFact` (src/records/email-events.ts) shapes it:
 * `{email_id, lead_id, occurred_at, ...data}`, created at the fact's time. recordEmailFact costs two
 * round trips per fact; a flush after a busy second holds thousands.
 *
 * Account, campaign and lead come from the `emails` row. A hit for an email that no longer exists
 * (its campaign was deleted) is dropped. Replaying hits already written inserts nothing.
 * Returns the number of facts inserted.
 */
const SQL = `
WITH hit AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::text[], $6::text[])
    AS h(email_id, type, at, data, dedupe_key, event_id)
), ins AS (
  INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, data, dedupe_key)
  SELECT e.account_id, e.campaign_id, e.id, e.lead_id, h.type, h.at::timestamptz, h.data, h.dedupe_key
  FROM hit h JOIN emails e ON e.id = h.email_id
  -- Redundant with the join, but it lets the planner fetch the batch's emails by primary key
  -- instead of hashing the whole table every flush.
  WHERE e.id = ANY($1::text[])
  ON CONFLICT (dedupe_key) DO NOTHING
  RETURNING account_id, campaign_id, email_id, lead_id, type, data, dedupe_key, occurred_at
), evt AS (
  INSERT INTO outbox (id, account_id, campaign_id, event, data, created_at)
  SELECT h.event_id, i.account_id, i.campaign_id, 'email.' || i.type,
         jsonb_build_object('email_id', i.email_id, 'lead_id', i.lead_id, 'occurred_at', h.at) || i.data,
         i.occurred_at
  FROM ins i JOIN hit h ON h.dedupe_key = i.dedupe_key
  RETURNING 1
)
SELECT count(*)::int AS inserted FROM evt`;

/** One fact per dedupe key, the earliest: a first open keeps the time of the first load. */
function distinctFacts(hits: readonly TrackingHit[]): HitFact[] {
  const byKey = new Map<string, HitFact>();
  for (const hit of hits) {
    for (const fact of factsOf(hit)) {
      const seen = byKey.get(fact.dedupeKey);
      if (!seen || fact.at < seen.at) byKey.set(fact.dedupeKey, fact);
    }
  }
  return [...byKey.values()];
}

export async function writeHits(sequelize: Sequelize, hits: readonly TrackingHit[]): Promise<number> {
  const facts = distinctFacts(hits);
  if (facts.length === 0) return 0;
  const rows = await sequelize.query<{ inserted: number }>(SQL, {
    bind: [
      facts.map((f) => f.emailId),
      facts.map((f) => f.type),
      facts.map((f) => new Date(f.at).toISOString()),
      facts.map((f) => JSON.stringify(f.data)),
      facts.map((f) => f.dedupeKey),
      facts.map(() => newId('evt')),
    ],
    type: QueryTypes.SELECT,
  });
  return rows[0]?.inserted ?? 0;
}
