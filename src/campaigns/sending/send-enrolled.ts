/**
 * A sending day's batch read from the enrolment table: the campaign's due rows (follow-ups first,
 * then first emails within the day's pace and the per-domain cap), each lead's address checked
 * again before its first email when its last check is older than a week, the emails written and
 * sent by the batch (send-batch.ts), and the outcomes written back to the rows. The workflow gets
 * counts only: its history does not grow with the number of leads.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { BatchItem, BatchItemResult, SendEnrolledInput, SendEnrolledResult } from '../../../workflows/campaign/contract';
import { addDays } from '../model/calendar';
import type { StopFact } from '../model/templates';
import { activeCount } from '../enrolment/enrolment-repository';
import { ACTIVE_STATES_SQL, SKIP_REASONS } from '../enrolment/states';
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
async function dueRows(sequelize: Sequelize, input: SendEnrolledInput): Promise<DueRow[]> {
  const follow = await sequelize.query<DueRow>(FOLLOW_UPS_SQL, { bind: [input.campaignId, input.day, input.maxItems], type: QueryTypes.SELECT });
  const room = Math.min(input.maxItems - follow.length, Math.max(0, input.firstEmailsLeft));
  if (room <= 0) return follow;
  const firsts = await sequelize.query<DueRow>(FIRSTS_SQL, { bind: [input.campaignId, input.day, room], type: QueryTypes.SELECT });
  return [...follow, ...firsts];
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
    next_send_day: following === undefined ? null : addDays(input.day, following.delayDays),
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
  const due = await dueRows(deps.sequelize, input);
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
  return { ...counts, more, activeLeads: await activeCount(deps.sequelize, input.campaignId) };
}
