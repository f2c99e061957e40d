/**
 * The campaign_enrolments table's writes outside enrolment and sending (enrol-leads.ts and
 * send-enrolled.ts write the rest): a lead's sequences ended from outside, a lead removed from a
 * campaign, a fact that ends a sequence (and its colleagues'), a workflow's record adopted; and
 * the reads the API and the workflow's activities need. Every end is conditional on the row still
 * being active, so whoever ends a sequence first is the one that counts it.
 */
import type { Sequelize, Transaction } from 'sequelize';
import { QueryTypes } from 'sequelize';
import type { LeadTrack } from '../../../workflows/campaign/contract';
import type { StopFact } from '../model/templates';
import { leadZoneFacts } from '../schedule/lead-zone';
import { ACTIVE_STATES_SQL, SKIP_REASONS, type EnrolmentState } from './states';

const opt = (transaction?: Transaction): { transaction?: Transaction } => (transaction === undefined ? {} : { transaction });

/** Ends every active sequence of a lead in the account (removed, with `reason`): a lead marked, blocked or erased. */
export async function endActiveEnrolments(sequelize: Sequelize, transaction: Transaction | undefined, accountId: string, leadId: string, reason: string): Promise<number> {
  const [, affected] = await sequelize.query(
    `UPDATE campaign_enrolments SET state = 'removed', reason = $3, updated_at = now() WHERE account_id = $1 AND lead_id = $2 AND state IN ${ACTIVE_STATES_SQL}`,
    { bind: [accountId, leadId, reason], type: QueryTypes.UPDATE, ...opt(transaction) },
  );
  return Number(affected ?? 0);
}

export type RemoveOutcome = { readonly removed: true; readonly wasActive: boolean } | { readonly removed: false };

/**
 * Takes a lead out of a campaign: an active sequence stops before its next email (the reservation
 * statement checks the row again), a finished one keeps its outcome but shows as removed. A lead
 * the campaign never had is { removed: false }.
 */
export async function removeFromCampaign(sequelize: Sequelize, accountId: string, campaignId: string, leadId: string): Promise<RemoveOutcome> {
  return sequelize.transaction(async (tx) => {
    const rows = await sequelize.query<{ state: EnrolmentState }>('SELECT state FROM campaign_enrolments WHERE campaign_id = $1 AND lead_id = $2 AND account_id = $3 FOR UPDATE', {
      bind: [campaignId, leadId, accountId],
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    const state = rows[0]?.state;
    if (state === undefined) return { removed: false };
    // Removed already (by the user, or when the lead was marked, blocked or erased): its reason stays.
    if (state === 'removed') return { removed: true, wasActive: false };
    await sequelize.query(`UPDATE campaign_enrolments SET state = 'removed', reason = 'removed by the user', updated_at = now() WHERE campaign_id = $1 AND lead_id = $2`, {
      bind: [campaignId, leadId],
      type: QueryTypes.UPDATE,
      transaction: tx,
    });
    return { removed: true, wasActive: state === 'queued' || state === 'in_sequence' };
  });
}

export interface FactOutcome {
  /** The fact ended the lead's sequence now (it was still under way): the workflow counts it. */
  readonly ended: boolean;
  /** Colleagues at the same company whose sequences stopped with it (stop_company_on_reply). */
  readonly colleaguesStopped: number;
}

/**
 * A reply, booked meeting, unsubscribe or bounce of one lead in one campaign: its row takes the
 * fact as its state when still active. A meeting, or a reply the classifier read as positive,
 * also stops the other active leads of the same company in the campaign when the campaign says so
 * (queued ones are skipped, those mid-sequence finish; both with the reason).
 */
export async function endForFact(sequelize: Sequelize, campaignId: string, leadId: string, fact: StopFact): Promise<FactOutcome> {
  return sequelize.transaction(async (tx) => {
    const ended = await sequelize.query<{ company_domain: string | null }>(
      `UPDATE campaign_enrolments SET state = $3, updated_at = now() WHERE campaign_id = $1 AND lead_id = $2 AND state IN ${ACTIVE_STATES_SQL} RETURNING company_domain`,
      { bind: [campaignId, leadId, fact], type: QueryTypes.SELECT, transaction: tx },
    );
    const colleaguesStopped = await stopColleagues(sequelize, tx, campaignId, leadId, fact);
    return { ended: ended.length > 0, colleaguesStopped };
  });
}

/** stop_company_on_reply: the colleagues of a lead who booked, or whose reply was positive. */
async function stopColleagues(sequelize: Sequelize, tx: Transaction, campaignId: string, leadId: string, fact: StopFact): Promise<number> {
  if (fact !== 'meeting_booked' && fact !== 'replied') return 0;
  const rows = await sequelize.query<{ lead_id: string }>(
    `WITH me AS (
       SELECT ce.company_domain, c.stop_company_on_reply AS stop,
         ($3 = 'meeting_booked' OR EXISTS (SELECT 1 FROM replies r WHERE r.campaign_id = $1 AND r.lead_id = $2 AND r.kind = 'reply' AND r.sentiment = 'positive')) AS positive
       FROM campaign_enrolments ce JOIN campaigns c ON c.id = ce.campaign_id WHERE ce.campaign_id = $1 AND ce.lead_id = $2
     )
     UPDATE campaign_enrolments ce
     SET state = CASE WHEN ce.state = 'queued' THEN 'skipped' ELSE 'finished' END, reason = $4, detail = jsonb_build_object('lead_id', $2::text), updated_at = now()
     FROM me
     WHERE me.stop AND me.positive AND me.company_domain IS NOT NULL AND ce.campaign_id = $1 AND ce.lead_id <> $2
       AND ce.company_domain = me.company_domain AND ce.state IN ${ACTIVE_STATES_SQL}
     RETURNING ce.lead_id`,
    { bind: [campaignId, leadId, fact, SKIP_REASONS.companyReplied], type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.length;
}

/**
 * A campaign that completed or failed: its sequences still under way end with it (queued ones are
 * skipped, the others finished, both with the reason), so its leads page says what happened and
 * nothing shows as due in a campaign that will never send again.
 */
export async function endWithCampaign(sequelize: Sequelize, transaction: Transaction, campaignId: string): Promise<void> {
  await sequelize.query(
    `UPDATE campaign_enrolments SET state = CASE WHEN state = 'queued' THEN 'skipped' ELSE 'finished' END, reason = $2, updated_at = now()
     WHERE campaign_id = $1 AND state IN ${ACTIVE_STATES_SQL}`,
    { bind: [campaignId, SKIP_REASONS.campaignEnded], type: QueryTypes.UPDATE, transaction },
  );
}

/** Sequences still under way in the campaign (queued or in_sequence). */
export async function activeCount(sequelize: Sequelize, campaignId: string): Promise<number> {
  const rows = await sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaign_enrolments WHERE campaign_id = $1 AND state IN ${ACTIVE_STATES_SQL}`, {
    bind: [campaignId],
    type: QueryTypes.SELECT,
  });
  return rows[0]?.n ?? 0;
}

/**
 * The leads a workflow tracked in its own state before enrolment had a table: written as they are
 * (idempotent: an activity retried, or a row the API wrote first, stays).
 */
export async function adoptTracks(sequelize: Sequelize, accountId: string, campaignId: string, tracks: readonly LeadTrack[]): Promise<void> {
  if (tracks.length === 0) return;
  const places = await sequelize.query<{ id: string; city: string | null; country: string | null; country_code: string | null }>(
    'SELECT id, city, country, country_code FROM leads WHERE account_id = $1 AND id = ANY($2::text[])',
    { bind: [accountId, tracks.map((t) => t.leadId)], type: QueryTypes.SELECT },
  );
  const placeOf = new Map(places.map((p) => [p.id, leadZoneFacts({ city: p.city, country: p.country, countryCode: p.country_code })]));
  const rows = tracks.map((t) => {
    const place = placeOf.get(t.leadId);
    return {
      lead_id: t.leadId,
      state: t.step < 0 ? 'queued' : 'in_sequence',
      step: t.step,
      next_send_day: t.nextDay,
      subject: t.subject || null,
      thread: t.thread,
      time_zone: place?.zone?.zone ?? null,
      time_zone_source: place?.zone?.source ?? null,
      country_code: place?.countryCode ?? null,
    };
  });
  await sequelize.query(
    `INSERT INTO campaign_enrolments (campaign_id, lead_id, account_id, state, step, next_send_day, subject, thread, source, time_zone, time_zone_source, country_code)
     SELECT $1, w.lead_id, $2, w.state, w.step, w.next_send_day::date, w.subject, ARRAY(SELECT jsonb_array_elements_text(w.thread)), 'workflow', w.time_zone, w.time_zone_source, w.country_code
     FROM jsonb_to_recordset($3::jsonb) AS w(lead_id text, state text, step int, next_send_day text, subject text, thread jsonb, time_zone text, time_zone_source text, country_code text)
     WHERE EXISTS (SELECT 1 FROM leads l WHERE l.id = w.lead_id)
     ON CONFLICT (campaign_id, lead_id) DO NOTHING`,
    { bind: [campaignId, accountId, JSON.stringify(rows)], type: QueryTypes.INSERT },
  );
}

/** A lead of a campaign as its leads page shows it. */
export interface EnrolmentRow {
  readonly leadId: string;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly company: string | null;
  readonly state: EnrolmentState;
  /** The last step sent (1-based), or null before the first. */
  readonly step: number | null;
  readonly nextSendDate: string | null;
  readonly reason: string | null;
  readonly detail: Record<string, unknown> | null;
  readonly source: string;
  readonly verification: string | null;
  /**
   * The zone the lead is written in: their own (from their city or country) when the campaign
   * sends in each lead's hours, else the campaign's (source 'campaign', also for a lead whose own
   * zone is not known).
   */
  readonly timeZone: string;
  readonly timeZoneSource: TimeZoneSource;
  readonly enrolledAt: string;
  readonly updatedAt: string;
}

/** Where the zone a lead is written in comes from. */
export type TimeZoneSource = 'city' | 'country' | 'campaign';

export interface EnrolmentPage {
  readonly leads: EnrolmentRow[];
  readonly total: number;
  /** Counts by state over the whole campaign (for the page's filter). */
  readonly states: Record<string, number>;
}

interface PageRow {
  lead_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  state: EnrolmentState;
  step: number;
  next_send_day: string | null;
  reason: string | null;
  detail: Record<string, unknown> | null;
  source: string;
  verification: string | null;
  time_zone: string;
  time_zone_source: TimeZoneSource;
  enrolled_at: Date;
  updated_at: Date;
}

/** A page of the campaign's leads with their states, oldest enrolment first; `state` filters. */
export async function listEnrolments(sequelize: Sequelize, campaignId: string, opts: { readonly state?: EnrolmentState; readonly limit: number; readonly offset: number }): Promise<EnrolmentPage> {
  const bind: unknown[] = [campaignId, opts.limit, opts.offset];
  const where = opts.state === undefined ? '' : (bind.push(opts.state), `AND ce.state = $${bind.length}`);
  const [rows, counts] = await Promise.all([
    sequelize.query<PageRow>(
      `SELECT ce.lead_id, l.email, l.first_name, l.last_name, l.company, ce.state, ce.step, to_char(ce.next_send_day, 'YYYY-MM-DD') AS next_send_day,
         ce.reason, ce.detail, ce.source, l.verification, ce.enrolled_at, ce.updated_at,
         CASE WHEN c.lead_timezones AND ce.time_zone IS NOT NULL THEN ce.time_zone ELSE c.timezone END AS time_zone,
         CASE WHEN c.lead_timezones AND ce.time_zone IS NOT NULL THEN ce.time_zone_source ELSE 'campaign' END AS time_zone_source
       FROM campaign_enrolments ce JOIN leads l ON l.id = ce.lead_id JOIN campaigns c ON c.id = ce.campaign_id
       WHERE ce.campaign_id = $1 ${where}
       ORDER BY ce.enrolled_at, ce.lead_id LIMIT $2 OFFSET $3`,
      { bind, type: QueryTypes.SELECT },
    ),
    sequelize.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM campaign_enrolments WHERE campaign_id = $1 GROUP BY state', { bind: [campaignId], type: QueryTypes.SELECT }),
  ]);
  const states = Object.fromEntries(counts.map((c) => [c.state, c.n]));
  const total = opts.state === undefined ? counts.reduce((sum, c) => sum + c.n, 0) : (states[opts.state] ?? 0);
  return {
    total,
    states,
    leads: rows.map((r) => ({
      leadId: r.lead_id,
      email: r.email,
      firstName: r.first_name,
      lastName: r.last_name,
      company: r.company,
      state: r.state,
      step: r.step < 0 ? null : r.step + 1,
      nextSendDate: r.state === 'queued' || r.state === 'in_sequence' ? r.next_send_day : null,
      reason: r.reason,
      detail: r.detail,
      source: r.source,
      verification: r.verification,
      timeZone: r.time_zone,
      timeZoneSource: r.time_zone_source,
      enrolledAt: r.enrolled_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    })),
  };
}
