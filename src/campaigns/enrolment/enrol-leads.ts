/**
 * Enrolment: putting leads into a campaign, each as `queued` or as `skipped` with its reason.
 * Used by the daily planning (the campaign's sources) and by the API's enrol by hand. Every check
 * that decides whether a person may start a sequence is made here, in one statement, under a lock
 * per account, so two campaigns enrolling the same person at the same moment cannot both take them.
 */
import type { Sequelize, Transaction } from 'sequelize';
import { QueryTypes } from 'sequelize';
import { getDomain } from 'tldts';
import { leadZoneFacts } from '../schedule/lead-zone';
import { ACTIVE_STATES_SQL, SKIP_REASONS, type EnrolmentSource } from './states';

/** The campaign settings enrolment depends on. */
export interface EnrolSettings {
  readonly campaignId: string;
  readonly accountId: string;
  readonly allowDuplicateLeads: boolean;
  readonly skipRiskyLeads: boolean;
}

/** One candidate's verdict: queued, or skipped with a reason (and what it names). */
export type Verdict = { readonly queue: true } | { readonly queue: false; readonly reason: string; readonly detail?: Record<string, unknown> };

interface CandidateRow {
  id: string;
  email: string;
  company_domain: string | null;
  city: string | null;
  country: string | null;
  country_code: string | null;
  user_status: string | null;
  verification: string | null;
  erased: boolean;
  blocklisted: boolean;
  suppressed_by: string | null;
  other_campaign: { id: string; name: string } | null;
  enrolled_state: string | null;
}

/**
 * The checks, for `ids` in their order (ids not of the account are left out). The other-campaign
 * lookup reads the active-lead index; campaigns that ended do not hold their people.
 *
 * The blocklist and suppression checks are joins over the chunk; the two enrolment lookups stay
 * one index probe per candidate (as joins the planner hashes every active row of the account, or
 * every row of the campaign, for each chunk: ~20 ms each at 50,000). The blocklist check is
 * `blockedSql`'s (an address entry equal to the lowered address, or a domain entry equal to one
 * of `email_domain_suffixes`), written as two joins so the suffixes are computed once per
 * candidate: as blockedSql's EXISTS per candidate over a small blocklist, the planner scans the
 * entries and calls the function once per entry and candidate (7 s for 1,000 candidates and 250
 * entries, where this takes ~0.1 s; `npm run bench -- enrol`, docs/performance.md).
 */
const CANDIDATES_SQL = `
WITH c AS MATERIALIZED (
  SELECT l.id, l.email, l.company_domain, l.city, l.country, l.country_code, l.user_status, l.verification, l.erased_at, l.bounced_at, l.unsubscribed_at, c.n
  FROM unnest($3::text[]) WITH ORDINALITY AS c(id, n)
  JOIN leads l ON l.id = c.id AND l.account_id = $1
),
blocked AS (
  SELECT c.id FROM c JOIN blocklist_entries blk ON blk.account_id = $1 AND blk.kind = 'address' AND blk.value = lower(c.email)
  UNION
  SELECT c.id FROM c CROSS JOIN LATERAL unnest(email_domain_suffixes(c.email)) AS sfx(value)
  JOIN blocklist_entries blk ON blk.account_id = $1 AND blk.kind = 'domain' AND blk.value = sfx.value
)
SELECT c.id, c.email, c.company_domain, c.city, c.country, c.country_code, c.user_status, c.verification, c.erased_at IS NOT NULL AS erased,
  EXISTS (SELECT 1 FROM blocked b WHERE b.id = c.id) AS blocklisted,
  COALESCE(s.reason, CASE WHEN c.bounced_at IS NOT NULL THEN 'bounced' WHEN c.unsubscribed_at IS NOT NULL THEN 'unsubscribed' END) AS suppressed_by,
  (SELECT jsonb_build_object('id', oc.id, 'name', oc.name) FROM campaign_enrolments oe JOIN campaigns oc ON oc.id = oe.campaign_id
    WHERE oe.account_id = $1 AND oe.lead_id = c.id AND oe.state IN ${ACTIVE_STATES_SQL} AND oe.campaign_id <> $2
      AND oc.status NOT IN ('completed', 'failed')
    ORDER BY oe.enrolled_at LIMIT 1) AS other_campaign,
  (SELECT ce.state FROM campaign_enrolments ce WHERE ce.campaign_id = $2 AND ce.lead_id = c.id) AS enrolled_state
FROM c
LEFT JOIN suppressions s ON s.account_id = $1 AND s.email = c.email
ORDER BY c.n`;

/** Why this candidate may not start a sequence in the campaign, or that it may. Pure. */
export function verdictFor(row: CandidateRow, settings: EnrolSettings): Verdict {
  if (row.erased) return { queue: false, reason: SKIP_REASONS.userStatus, detail: { status: 'erased' } };
  if (row.user_status !== null) return { queue: false, reason: SKIP_REASONS.userStatus, detail: { status: row.user_status } };
  if (row.suppressed_by !== null) return { queue: false, reason: SKIP_REASONS.suppressed, detail: { cause: row.suppressed_by } };
  if (row.blocklisted) return { queue: false, reason: SKIP_REASONS.blocklisted };
  if (row.verification === 'invalid') return { queue: false, reason: SKIP_REASONS.invalidAddress };
  if (row.verification === 'risky' && settings.skipRiskyLeads) return { queue: false, reason: SKIP_REASONS.riskyAddress };
  if (row.other_campaign !== null && !settings.allowDuplicateLeads) {
    return { queue: false, reason: `${SKIP_REASONS.otherCampaign} (${row.other_campaign.name})`, detail: { campaign_id: row.other_campaign.id, campaign_name: row.other_campaign.name } };
  }
  return { queue: true };
}

/** One row enrolment writes (a candidate queued or skipped), as the insert's recordset reads it. */
interface EnrolmentWrite {
  lead_id: string;
  state: 'queued' | 'skipped';
  reason: string | null;
  detail: Record<string, unknown> | null;
  company_domain: string | null;
  /** The lead's own IANA zone (lead-zone.ts), null when neither city nor country gives one. */
  time_zone: string | null;
  time_zone_source: 'city' | 'country' | null;
  /** ISO 3166-1 alpha-2, for the holidays of the lead's country. */
  country_code: string | null;
}

/** The company a lead belongs to, as a registrable domain: its company's domain, else its address's. */
export function companyDomainOf(email: string, companyDomain: string | null): string | null {
  const raw = (companyDomain ?? '').trim().toLowerCase() || email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return getDomain(raw) ?? (raw === '' ? null : raw);
}

export interface EnrolOptions {
  readonly source: EnrolmentSource;
  /** Local date the first email is due on; null: the next sending day. */
  readonly day: string | null;
  /** Queue at most this many (the rest are not enrolled now: planning takes them another day). */
  readonly maxQueued?: number;
  /**
   * Enrolment by hand: a lead the campaign removed or skipped before is checked again and
   * re-queued when it now may start; planning leaves such a lead as it is.
   */
  readonly retake: boolean;
}

export interface EnrolResult {
  readonly queued: string[];
  /** Leads skipped now (a row with the reason is written), by reason. */
  readonly skipped: Record<string, number>;
  /** Ids already in the campaign (any state but a retaken one), left as they are. */
  readonly alreadyEnrolled: string[];
  /** Ids that are not leads of the account. */
  readonly unknown: string[];
  /** Candidates not looked at because maxQueued was reached. */
  readonly notTaken: number;
}

/**
 * Enrols `ids` (leads of the account; others are reported unknown) into the campaign: each is
 * queued or skipped with its reason, in one transaction holding the account's enrolment lock.
 */
export async function enrolLeads(sequelize: Sequelize, settings: EnrolSettings, ids: readonly string[], opts: EnrolOptions, outer?: Transaction): Promise<EnrolResult> {
  const work = async (tx: Transaction): Promise<EnrolResult> => {
    // One enrolment of an account at a time: "in another campaign" must see the other's commit.
    await sequelize.query(`SELECT pg_advisory_xact_lock(hashtext('enrolment:' || $1))`, { bind: [settings.accountId], type: QueryTypes.SELECT, transaction: tx });
    const rows = await sequelize.query<CandidateRow>(CANDIDATES_SQL, { bind: [settings.accountId, settings.campaignId, [...new Set(ids)]], type: QueryTypes.SELECT, transaction: tx });
    const found = new Set(rows.map((r) => r.id));
    const result = { queued: [] as string[], skipped: {} as Record<string, number>, alreadyEnrolled: [] as string[], unknown: ids.filter((id) => !found.has(id)), notTaken: 0 };
    const writes: EnrolmentWrite[] = [];
    for (const row of rows) {
      const retaken = opts.retake && (row.enrolled_state === 'removed' || row.enrolled_state === 'skipped');
      if (row.enrolled_state !== null && !retaken) {
        result.alreadyEnrolled.push(row.id);
        continue;
      }
      const verdict = verdictFor(row, settings);
      if (verdict.queue && opts.maxQueued !== undefined && result.queued.length >= opts.maxQueued) {
        result.notTaken++;
        continue;
      }
      const domain = companyDomainOf(row.email, row.company_domain);
      if (verdict.queue) result.queued.push(row.id);
      else result.skipped[verdict.reason] = (result.skipped[verdict.reason] ?? 0) + 1;
      // The lead's own zone, for a campaign that writes each lead in their hours (or may yet, after an edit).
      const place = leadZoneFacts({ city: row.city, country: row.country, countryCode: row.country_code });
      writes.push({
        lead_id: row.id,
        state: verdict.queue ? 'queued' : 'skipped',
        reason: verdict.queue ? null : verdict.reason,
        detail: verdict.queue ? null : (verdict.detail ?? null),
        company_domain: domain,
        time_zone: place.zone?.zone ?? null,
        time_zone_source: place.zone?.source ?? null,
        country_code: place.countryCode,
      });
    }
    if (writes.length > 0) {
      await sequelize.query(
        `INSERT INTO campaign_enrolments (campaign_id, lead_id, account_id, state, step, next_send_day, reason, detail, source, company_domain, time_zone, time_zone_source, country_code)
         SELECT $1, w.lead_id, $2, w.state, -1, $4::date, w.reason, w.detail, $5, w.company_domain, w.time_zone, w.time_zone_source, w.country_code
         FROM jsonb_to_recordset($3::jsonb) AS w(lead_id text, state text, reason text, detail jsonb, company_domain text, time_zone text, time_zone_source text, country_code text)
         ON CONFLICT (campaign_id, lead_id) DO UPDATE SET state = EXCLUDED.state, step = -1, next_send_day = EXCLUDED.next_send_day, reason = EXCLUDED.reason,
           detail = EXCLUDED.detail, source = EXCLUDED.source, company_domain = EXCLUDED.company_domain,
           time_zone = EXCLUDED.time_zone, time_zone_source = EXCLUDED.time_zone_source, country_code = EXCLUDED.country_code, thread = '{}', subject = NULL, first_sent_day = NULL,
           enrolled_at = now(), updated_at = now()
         WHERE campaign_enrolments.state IN ('removed', 'skipped')`,
        { bind: [settings.campaignId, settings.accountId, JSON.stringify(writes), opts.day, opts.source], type: QueryTypes.INSERT, transaction: tx },
      );
    }
    return result;
  };
  return outer === undefined ? sequelize.transaction(work) : work(outer);
}

/** The enrolment settings stored on a campaign row, or null when it is not the account's. */
export async function enrolSettingsOf(sequelize: Sequelize, accountId: string, campaignId: string): Promise<(EnrolSettings & { readonly status: string; readonly leadListIds: string[] }) | null> {
  const rows = await sequelize.query<{ status: string; allow_duplicate_leads: boolean; skip_risky_leads: boolean; lead_list_ids: string[] }>(
    'SELECT status, allow_duplicate_leads, skip_risky_leads, lead_list_ids FROM campaigns WHERE id = $1 AND account_id = $2',
    { bind: [campaignId, accountId], type: QueryTypes.SELECT },
  );
  const r = rows[0];
  if (r === undefined) return null;
  return { campaignId, accountId, status: r.status, allowDuplicateLeads: r.allow_duplicate_leads, skipRiskyLeads: r.skip_risky_leads, leadListIds: r.lead_list_ids };
}
