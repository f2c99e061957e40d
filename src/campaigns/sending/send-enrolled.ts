/**
 * A sending day's batch read from the enrolment table: the campaign's due rows (follow-ups first,
 * then first emails within the day's pace and the per-domain cap), each lead's address checked
 * again before its first email when its last check is older than a week, the emails written and
 * sent by the batch (send-batch.ts), and the outcomes written back to the rows. The workflow gets
 * counts only: its history does not grow with the number of leads.
 *
 * With the workflow's instant and the campaign's schedule in the input, a row is due only inside
 * its own window at that instant (zone-groups.ts: per-weekday hours, blackout dates, the holidays
 * of the lead's country, the lead's own zone in lead mode), and the result says when the next row
 * that is waiting enters its window (`nextWakeAt`). Without them (runs started before schedules)
 * the campaign's `day` alone decides, as before.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { BatchItem, BatchItemResult, SendEnrolledInput, SendEnrolledResult } from '../../../workflows/campaign/contract';
import { addDays, isoWeekday, localDate } from '../model/calendar';
import type { CampaignSchedule } from '../model/schedule';
import type { StopFact } from '../model/templates';
import { activeCount } from '../enrolment/enrolment-repository';
import { ACTIVE_STATES_SQL, SKIP_REASONS } from '../enrolment/states';
import { nextWakeAt, sendableGroups, type SendableGroup, type ZoneGroup, type ZoneRules } from '../schedule/zone-groups';
import { runCampaignBatch, type BatchDeps, type BatchRuntime } from './send-batch';

/** Verdicts of addresses checked again before a first email (see src/leads/verification). */
export type Reverify = (accountId: string, leadIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;

export interface EnrolledBatchDeps extends BatchDeps {
  /** Checks again the addresses whose last check is older than a week; absent: no re-check. */
  readonly reverify?: Reverify;
}

interface DueRow {
  lead_id: string;
  step: number;
  subject: string | null;
  thread: string[];
  /** With a schedule: the row's local date at the batch's instant (its group's), from which its next step is counted in lead mode. */
  local_day?: string;
}

const FOLLOW_UPS_SQL = `
SELECT ce.lead_id, ce.step, ce.subject, ce.thread FROM campaign_enrolments ce
WHERE ce.campaign_id = $1 AND ce.state = 'in_sequence' AND ce.next_send_day <= $2::date
ORDER BY ce.next_send_day, ce.enrolled_at, ce.lead_id LIMIT $3`;

/**
 * First emails due (queued, due today or as soon as possible), oldest enrolment first, at most
 * `cap` a day per company domain counting those already sent today (no cap when the campaign sets none).
 */
const FIRSTS_SQL = `
WITH c AS (SELECT max_first_emails_per_domain_per_day AS cap FROM campaigns WHERE id = $1),
today AS (
  SELECT company_domain, count(*)::int AS n FROM campaign_enrolments
  WHERE campaign_id = $1 AND first_sent_day = $2::date AND company_domain IS NOT NULL GROUP BY company_domain
),
firsts AS (
  SELECT ce.lead_id, ce.step, ce.subject, ce.thread, ce.company_domain, ce.enrolled_at,
    row_number() OVER (PARTITION BY ce.company_domain ORDER BY ce.enrolled_at, ce.lead_id) AS rn
  FROM campaign_enrolments ce
  WHERE ce.campaign_id = $1 AND ce.state = 'queued' AND (ce.next_send_day IS NULL OR ce.next_send_day <= $2::date)
)
SELECT f.lead_id, f.step, f.subject, f.thread FROM firsts f, c
WHERE c.cap IS NULL OR f.company_domain IS NULL OR f.rn + COALESCE((SELECT t.n FROM today t WHERE t.company_domain = f.company_domain), 0) <= c.cap
ORDER BY f.enrolled_at, f.lead_id LIMIT $3`;

/**
 * The sendable groups of a scheduled batch (zone-groups.ts) as a recordset: a row belongs to a
 * group by its stored zone and country ('' for none), and is due on or before the group's local date.
 */
const groupsCte = (param: string): string => `g AS (SELECT * FROM jsonb_to_recordset(${param}::jsonb) AS g(time_zone text, country_code text, day date))`;
const IN_GROUP = `COALESCE(ce.time_zone, '') = g.time_zone AND COALESCE(ce.country_code, '') = g.country_code`;

/** FOLLOW_UPS_SQL within the sendable groups ($3), each on its own local date. */
const SCHEDULED_FOLLOW_UPS_SQL = `
WITH ${groupsCte('$3')}
SELECT ce.lead_id, ce.step, ce.subject, ce.thread, to_char(g.day, 'YYYY-MM-DD') AS local_day FROM campaign_enrolments ce JOIN g ON ${IN_GROUP}
WHERE ce.campaign_id = $1 AND ce.state = 'in_sequence' AND ce.next_send_day <= g.day
ORDER BY ce.next_send_day, ce.enrolled_at, ce.lead_id LIMIT $2`;

/** FIRSTS_SQL within the sendable groups ($4; the per-domain cap still counts the campaign's day, $2). */
const SCHEDULED_FIRSTS_SQL = `
WITH ${groupsCte('$4')},
c AS (SELECT max_first_emails_per_domain_per_day AS cap FROM campaigns WHERE id = $1),
today AS (
  SELECT company_domain, count(*)::int AS n FROM campaign_enrolments
  WHERE campaign_id = $1 AND first_sent_day = $2::date AND company_domain IS NOT NULL GROUP BY company_domain
),
firsts AS (
  SELECT ce.lead_id, ce.step, ce.subject, ce.thread, ce.company_domain, ce.enrolled_at, g.day,
    row_number() OVER (PARTITION BY ce.company_domain ORDER BY ce.enrolled_at, ce.lead_id) AS rn
  FROM campaign_enrolments ce JOIN g ON ${IN_GROUP}
  WHERE ce.campaign_id = $1 AND ce.state = 'queued' AND (ce.next_send_day IS NULL OR ce.next_send_day <= g.day)
)
SELECT f.lead_id, f.step, f.subject, f.thread, to_char(f.day, 'YYYY-MM-DD') AS local_day FROM firsts f, c
WHERE c.cap IS NULL OR f.company_domain IS NULL OR f.rn + COALESCE((SELECT t.n FROM today t WHERE t.company_domain = f.company_domain), 0) <= c.cap
ORDER BY f.enrolled_at, f.lead_id LIMIT $3`;

/**
 * The campaign's active rows by stored zone, country and due day: a few rows per zone, whatever
 * the number of leads. Grouped on the raw columns and formatted after (a third of the time at 50,000 rows).
 */
const GROUP_DAYS_SQL = `
SELECT COALESCE(time_zone, '') AS time_zone, COALESCE(country_code, '') AS country_code, to_char(next_send_day, 'YYYY-MM-DD') AS day
FROM (
  SELECT time_zone, country_code, next_send_day FROM campaign_enrolments WHERE campaign_id = $1 AND state IN ${ACTIVE_STATES_SQL}
  GROUP BY time_zone, country_code, next_send_day
) g`;

/** One row's change after the batch: its new state and position, or the end of its sequence. */
interface RowChange {
  lead_id: string;
  state: string;
  step: number | null;
  next_send_day: string | null;
  subject: string | null;
  message_id: string | null;
  reason: string | null;
  /** An email of the sequence went out now (the first one sets first_sent_day). */
  sent: boolean;
}

/**
 * Written only while the row is still active: a lead removed or stopped while the batch ran keeps
 * what happened to it. Returns the rows changed, with whether this was the lead's first email.
 */
const APPLY_SQL = `
WITH u AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS u(lead_id text, state text, step int, next_send_day text, subject text, message_id text, reason text, sent boolean)
), old AS (
  SELECT ce.lead_id, ce.first_sent_day, ce.step FROM campaign_enrolments ce JOIN u ON u.lead_id = ce.lead_id
  WHERE ce.campaign_id = $1 AND ce.state IN ${ACTIVE_STATES_SQL}
  ORDER BY ce.lead_id FOR UPDATE OF ce
)
UPDATE campaign_enrolments ce SET state = u.state, step = COALESCE(u.step, ce.step), next_send_day = COALESCE(u.next_send_day::date, ce.next_send_day),
  subject = COALESCE(u.subject, ce.subject), thread = CASE WHEN u.message_id IS NULL THEN ce.thread ELSE ce.thread || u.message_id END,
  reason = COALESCE(u.reason, ce.reason), first_sent_day = CASE WHEN u.sent THEN COALESCE(ce.first_sent_day, $3::date) ELSE ce.first_sent_day END,
  updated_at = now()
FROM u JOIN old ON old.lead_id = u.lead_id
WHERE ce.campaign_id = $1 AND ce.lead_id = u.lead_id
RETURNING u.lead_id, u.state, (u.sent AND old.first_sent_day IS NULL) AS contacted, old.step < 0 AS was_first`;

const STOP_FACTS: readonly string[] = ['replied', 'meeting_booked', 'unsubscribed', 'bounced'];

/** The day's due rows as batch items (follow-ups first), at most `max`, first emails at most `firsts`. */
async function dueRows(sequelize: Sequelize, input: SendEnrolledInput, groups: readonly SendableGroup[] | null): Promise<DueRow[]> {
  if (groups !== null && groups.length === 0) return [];
  const recordset = groups === null ? null : JSON.stringify(groups);
  const follow = await sequelize.query<DueRow>(recordset === null ? FOLLOW_UPS_SQL : SCHEDULED_FOLLOW_UPS_SQL, {
    bind: recordset === null ? [input.campaignId, input.day, input.maxItems] : [input.campaignId, input.maxItems, recordset],
    type: QueryTypes.SELECT,
  });
  const room = Math.min(input.maxItems - follow.length, Math.max(0, input.firstEmailsLeft));
  if (room <= 0) return follow;
  const firsts = await sequelize.query<DueRow>(recordset === null ? FIRSTS_SQL : SCHEDULED_FIRSTS_SQL, {
    bind: [input.campaignId, input.day, room, ...(recordset === null ? [] : [recordset])],
    type: QueryTypes.SELECT,
  });
  return [...follow, ...firsts];
}

/** The active rows' groups (stored zone and country) with the days they are due on. */
async function zoneGroups(sequelize: Sequelize, campaignId: string): Promise<ZoneGroup[]> {
  const rows = await sequelize.query<{ time_zone: string; country_code: string; day: string | null }>(GROUP_DAYS_SQL, { bind: [campaignId], type: QueryTypes.SELECT });
  const groups = new Map<string, { timeZone: string; countryCode: string; days: (string | null)[] }>();
  for (const r of rows) {
    const key = `${r.time_zone}|${r.country_code}`;
    const g = groups.get(key) ?? { timeZone: r.time_zone, countryCode: r.country_code, days: [] };
    g.days.push(r.day);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/**
 * The weekly campaign's weekday, from its row: its start date's, else the local weekday of its
 * start (as the workflow takes it). Other frequencies do not use it.
 */
async function anchorWeekday(sequelize: Sequelize, campaignId: string, schedule: CampaignSchedule, at: number): Promise<number> {
  if (schedule.frequency !== 'weekly' || schedule.days !== null) return 1;
  const [row] = await sequelize.query<{ start_date: string | null; started: Date | null }>(
    `SELECT to_char(schedule_start_date, 'YYYY-MM-DD') AS start_date, COALESCE(started_at, created_at) AS started FROM campaigns WHERE id = $1`,
    { bind: [campaignId], type: QueryTypes.SELECT },
  );
  if (row?.start_date) return isoWeekday(row.start_date);
  return isoWeekday(localDate(row?.started?.getTime() ?? at, schedule.timezone));
}

/** The schedule's rules at the batch's instant, or null for a run without them (runs before schedules). */
async function zoneRules(sequelize: Sequelize, input: SendEnrolledInput): Promise<ZoneRules | null> {
  const { at, schedule } = input;
  if (at === undefined || schedule === undefined) return null;
  return { at, schedule, anchorWeekday: await anchorWeekday(sequelize, input.campaignId, schedule, at) };
}

/** The change a result makes to its row, or null when the step stays due (deferred, skipped). */
function changeFor(row: DueRow, r: BatchItemResult, input: SendEnrolledInput): RowChange | null {
  const base = { lead_id: row.lead_id, step: null, next_send_day: null, subject: null, message_id: null, reason: null, sent: false };
  if (r.outcome === 'stopped') {
    const fact = r.stopFact ?? 'suppressed';
    if (STOP_FACTS.includes(fact)) return { ...base, state: fact };
    return { ...base, state: row.step < 0 ? 'skipped' : 'finished', reason: r.blockedBy ?? SKIP_REASONS.suppressed };
  }
  if (r.outcome !== 'sent' && r.outcome !== 'already_sent' && r.outcome !== 'omitted') return null;
  const following = input.steps[r.step + 1];
  const sent = r.outcome !== 'omitted';
  return {
    ...base,
    state: following === undefined ? 'finished' : 'in_sequence',
    step: r.step,
    // In each lead's hours a step is counted from the lead's own date, not the campaign's.
    next_send_day: following === undefined ? null : addDays(input.schedule?.leadTimezones === true && row.local_day !== undefined ? row.local_day : input.day, following.delayDays),
    subject: sent ? (r.subject ?? null) : null,
    message_id: sent ? (r.messageId ?? null) : null,
    sent,
  };
}

/** Rows past the sequence's last step (a shorter sequence): finished without sending. */
async function finishBeyond(sequelize: Sequelize, campaignId: string, leadIds: readonly string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const [, n] = await sequelize.query(`UPDATE campaign_enrolments SET state = 'finished', updated_at = now() WHERE campaign_id = $1 AND lead_id = ANY($2::text[]) AND state IN ${ACTIVE_STATES_SQL}`, {
    bind: [campaignId, leadIds],
    type: QueryTypes.UPDATE,
  });
  return Number(n ?? 0);
}

/** First-email addresses whose check (again, when older than a week) says not to send: skipped with the reason. */
async function screenFirsts(deps: EnrolledBatchDeps, input: SendEnrolledInput, rows: DueRow[]): Promise<{ rows: DueRow[]; skipped: number }> {
  const firsts = rows.filter((r) => r.step < 0).map((r) => r.lead_id);
  if (deps.reverify === undefined || firsts.length === 0) return { rows, skipped: 0 };
  const verdicts = await deps.reverify(input.accountId, firsts);
  const settings = await deps.sequelize.query<{ skip_risky_leads: boolean }>('SELECT skip_risky_leads FROM campaigns WHERE id = $1', { bind: [input.campaignId], type: QueryTypes.SELECT });
  const skipRisky = settings[0]?.skip_risky_leads === true;
  const out = new Map<string, string>();
  for (const [leadId, verdict] of verdicts) {
    if (verdict === 'invalid') out.set(leadId, SKIP_REASONS.invalidAddress);
    else if (verdict === 'risky' && skipRisky) out.set(leadId, SKIP_REASONS.riskyAddress);
  }
  if (out.size === 0) return { rows, skipped: 0 };
  const changes = [...out].map(([leadId, reason]) => ({ lead_id: leadId, state: 'skipped', step: null, next_send_day: null, subject: null, message_id: null, reason, sent: false }));
  await deps.sequelize.query(APPLY_SQL, { bind: [input.campaignId, JSON.stringify(changes), input.day], type: QueryTypes.SELECT });
  return { rows: rows.filter((r) => !out.has(r.lead_id)), skipped: out.size };
}

/** One batch of the day from the enrolment table (see the file's comment). */
export async function sendEnrolledBatch(deps: EnrolledBatchDeps, runtime: BatchRuntime, input: SendEnrolledInput): Promise<SendEnrolledResult> {
  const rules = await zoneRules(deps.sequelize, input);
  const before = rules === null ? null : await zoneGroups(deps.sequelize, input.campaignId);
  const due = await dueRows(deps.sequelize, input, rules === null || before === null ? null : sendableGroups(before, rules));
  const beyond = due.filter((r) => r.step + 1 >= input.steps.length);
  const finishedNow = await finishBeyond(deps.sequelize, input.campaignId, beyond.map((r) => r.lead_id));
  const screened = await screenFirsts(
    deps,
    input,
    due.filter((r) => r.step + 1 < input.steps.length),
  );
  const items: BatchItem[] = screened.rows.map((r) => {
    const step = r.step + 1;
    const def = input.steps[step] as SendEnrolledInput['steps'][number];
    return { leadId: r.lead_id, step, kind: def.kind, delayDays: def.delayDays, previousSubject: r.step >= 0 ? r.subject : null, thread: r.thread };
  });

  const counts: Omit<SendEnrolledResult, 'activeLeads' | 'more'> = {
    selected: due.length,
    sent: 0,
    contacted: 0,
    finished: finishedNow,
    omitted: 0,
    firstEmailsTaken: screened.skipped,
    stops: [],
    costUsd: 0,
    halted: null,
  };
  let deferred = false;
  if (items.length > 0) {
    const batch = await runCampaignBatch(deps, runtime, { campaignId: input.campaignId, accountId: input.accountId, mcp: input.mcp, companyId: input.companyId, items, budgetRemainingUsd: input.budgetRemainingUsd, ...(input.sequenceVersion === undefined ? {} : { sequenceVersion: input.sequenceVersion }) });
    const byLead = new Map(screened.rows.map((r) => [r.lead_id, r]));
    const changes = batch.results.flatMap((r) => {
      const row = byLead.get(r.leadId);
      if (r.outcome === 'deferred') deferred = true;
      const change = row === undefined ? null : changeFor(row, r, input);
      return change === null ? [] : [change];
    });
    const applied =
      changes.length === 0
        ? []
        : await deps.sequelize.query<{ lead_id: string; state: string; contacted: boolean; was_first: boolean }>(APPLY_SQL, {
            bind: [input.campaignId, JSON.stringify(changes), input.day],
            type: QueryTypes.SELECT,
          });
    const changed = new Map(changes.map((c) => [c.lead_id, c]));
    const stops: StopFact[] = [];
    let { sent, contacted, finished, omitted, firstEmailsTaken } = counts;
    for (const a of applied) {
      const c = changed.get(a.lead_id) as RowChange;
      if (a.was_first) firstEmailsTaken++;
      if (c.sent) sent++;
      if (a.contacted) contacted++;
      if (c.step !== null && !c.sent) omitted++;
      if (a.state === 'finished' && c.step !== null) finished++;
      if (STOP_FACTS.includes(a.state)) stops.push(a.state as StopFact);
    }
    Object.assign(counts, { sent, contacted, finished, omitted, firstEmailsTaken, stops, costUsd: batch.costUsd, halted: batch.halted });
  }
  const more = due.length >= input.maxItems && counts.halted === null && !deferred;
  const activeLeads = await activeCount(deps.sequelize, input.campaignId);
  if (rules === null || before === null) return { ...counts, more, activeLeads };
  // After the batch's writes: the rows just sent wait for their next step's day.
  const after = due.length === 0 ? before : await zoneGroups(deps.sequelize, input.campaignId);
  return { ...counts, more, activeLeads, nextWakeAt: nextWakeAt(after, rules) };
}
