import { QueryTypes, type Sequelize } from 'sequelize';
import type { ChaosCampaign } from './campaigns';
import type { AcceptedMessage } from './slow-smtp';

/** Sending back within this long after a restart is the goal (issue: "within 60 seconds"). */
export const RESUME_GOAL_SECONDS = 60;

export interface EmailRow {
  readonly campaign_id: string;
  readonly to_email: string;
  readonly step: number;
  readonly message_id: string;
  readonly status: string;
  /** null when the column does not exist (a database from before the possible-duplicate flag). */
  readonly possible_duplicate: boolean | null;
}

/** The rows of the run's campaigns, with the possible-duplicate flag where the schema has it. */
export async function emailRows(sequelize: Sequelize, campaignIds: readonly string[]): Promise<EmailRow[]> {
  const [{ has }] = await sequelize.query<{ has: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'emails' AND column_name = 'possible_duplicate') AS has`,
    { type: QueryTypes.SELECT },
  ) as [{ has: boolean }];
  return sequelize.query<EmailRow>(
    `SELECT campaign_id, to_email, step, message_id, status, ${has ? 'possible_duplicate' : 'NULL::boolean AS possible_duplicate'}
       FROM emails WHERE campaign_id = ANY($1::text[])`,
    { bind: [campaignIds], type: QueryTypes.SELECT },
  );
}

/** What one fault did and how long sending took to come back. */
export interface FaultFigure {
  readonly name: string;
  /** Seconds since the first email of the run. */
  readonly atSeconds: number;
  /** Where the SMTP transaction in flight was when it struck (or that none was). */
  readonly struck: string;
  /** Seconds from the start of the restart to the next email the server accepted whose transaction began after it; null: none by the deadline. */
  readonly resumeSeconds: number | null;
  /** How long this run waited for that email (the deadline when none came). */
  readonly waitedSeconds: number;
  /** How long the strike took (a kill -9 is over once every process is gone and reaped). */
  readonly strikeSeconds?: number;
  /** The run's deadline came first: nothing was struck. */
  readonly notRun?: boolean;
  readonly note?: string;
}

export interface EmailFigures {
  readonly expected: number;
  /** Distinct Message-IDs the SMTP server accepted. */
  readonly received: number;
  /** Every message the SMTP server accepted, copies included. */
  readonly copies: number;
  readonly recordedSent: number;
  /** Expected emails never received, by what the database says of them. */
  readonly lost: number;
  readonly lostByStatus: Readonly<Record<string, number>>;
  /** Message-IDs received more than once, and how many of those rows are flagged possible_duplicate. */
  readonly duplicated: number;
  readonly duplicatedFlagged: number;
  /** Leads that received their email under two or more Message-IDs (mail systems cannot fold those). */
  readonly resentUnderNewId: number;
  /** Distinct Message-IDs received whose row is not `sent`, by its status. */
  readonly unrecorded: number;
  readonly unrecordedByStatus: Readonly<Record<string, number>>;
  /** Messages the client abandoned after the end of its data that the server still accepted (the ambiguous window). */
  readonly acceptedAfterClientGone: number;
}

const bump = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

/**
 * The email figures from what the SMTP server accepted and what the database recorded. Every lead
 * of a campaign is due one email (the first step), at its own address.
 */
export function emailFigures(campaigns: readonly ChaosCampaign[], accepted: readonly AcceptedMessage[], rows: readonly EmailRow[]): EmailFigures {
  const byMessageId = new Map(rows.map((r) => [r.message_id, r]));
  const rowByAddress = new Map(rows.filter((r) => r.step === 0).map((r) => [r.to_email.toLowerCase(), r]));
  const copies = new Map<string, number>();
  const idsByAddress = new Map<string, Set<string>>();
  for (const m of accepted) {
    const id = m.messageId ?? `(no Message-ID, to ${m.to.join(', ')})`;
    copies.set(id, (copies.get(id) ?? 0) + 1);
    for (const to of m.to) {
      const ids = idsByAddress.get(to.toLowerCase()) ?? new Set<string>();
      ids.add(id);
      idsByAddress.set(to.toLowerCase(), ids);
    }
  }
  const lostByStatus: Record<string, number> = {};
  let expected = 0;
  for (const c of campaigns) {
    for (const lead of c.leads) {
      expected++;
      if (idsByAddress.has(lead.toLowerCase())) continue;
      const row = rowByAddress.get(lead.toLowerCase());
      bump(lostByStatus, row === undefined ? 'no row' : `recorded ${row.status}`);
    }
  }
  const unrecordedByStatus: Record<string, number> = {};
  let duplicated = 0;
  let duplicatedFlagged = 0;
  for (const [id, n] of copies) {
    const row = byMessageId.get(id);
    if (row?.status !== 'sent') bump(unrecordedByStatus, row === undefined ? 'no row with this Message-ID' : row.status);
    if (n > 1) {
      duplicated++;
      if (row?.possible_duplicate === true) duplicatedFlagged++;
    }
  }
  return {
    expected,
    received: copies.size,
    copies: accepted.length,
    recordedSent: rows.filter((r) => r.status === 'sent').length,
    lost: Object.values(lostByStatus).reduce((a, b) => a + b, 0),
    lostByStatus,
    duplicated,
    duplicatedFlagged,
    resentUnderNewId: [...idsByAddress.values()].filter((ids) => ids.size > 1).length,
    unrecorded: Object.values(unrecordedByStatus).reduce((a, b) => a + b, 0),
    unrecordedByStatus,
    acceptedAfterClientGone: accepted.filter((m) => m.clientGone).length,
  };
}

/** Each goal of the run and whether it was met, with the figure that decides it. */
export interface GoalCheck {
  readonly goal: string;
  readonly met: boolean;
  readonly figure: string;
}

export function goalChecks(e: EmailFigures, faults: readonly FaultFigure[]): GoalCheck[] {
  const run = faults.filter((f) => !f.notRun);
  const slow = run.filter((f) => f.resumeSeconds === null || f.resumeSeconds > RESUME_GOAL_SECONDS);
  const notRun = faults.length - run.length;
  const slowest = Math.max(0, ...run.map((f) => f.resumeSeconds ?? 0));
  return [
    { goal: 'no email lost', met: e.lost === 0, figure: `${e.lost} lost` },
    { goal: 'no email received without being recorded as sent', met: e.unrecorded === 0, figure: `${e.unrecorded} unrecorded` },
    {
      goal: 'duplicates only on rows flagged possible_duplicate, under the same Message-ID',
      met: e.duplicated === e.duplicatedFlagged && e.resentUnderNewId === 0,
      figure: `${e.duplicated} duplicated, ${e.duplicatedFlagged} flagged, ${e.resentUnderNewId} resent under a new Message-ID`,
    },
    {
      // A fault that did not run verified nothing: the goal is not met without it.
      goal: `sending back within ${RESUME_GOAL_SECONDS} s of every restart`,
      met: run.length > 0 && slow.length === 0 && notRun === 0,
      figure: [
        slow.length === 0 ? `slowest ${slowest.toFixed(1)} s` : `${slow.length} of ${run.length} restarts missed it`,
        ...(notRun > 0 ? [`${notRun} fault(s) not run`] : []),
      ].join('; '),
    },
  ];
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const breakdown = (m: Readonly<Record<string, number>>): string => {
  const parts = Object.entries(m).map(([k, v]) => `${v} ${k}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
};

export function formatEmailFigures(e: EmailFigures): string[] {
  return [
    `  emails expected                       ${e.expected}`,
    `  received (distinct Message-IDs)       ${e.received}`,
    `  received copies (total)               ${e.copies}`,
    `  recorded as sent                      ${e.recordedSent}`,
    `  lost (expected, never received)       ${e.lost}${breakdown(e.lostByStatus)}`,
    `  duplicated (received more than once)  ${e.duplicated} (${e.duplicatedFlagged} flagged possible_duplicate)`,
    `  resent under a new Message-ID         ${e.resentUnderNewId}`,
    `  unrecorded (received, not sent)       ${e.unrecorded}${breakdown(e.unrecordedByStatus)}`,
    `  accepted after the client was gone    ${e.acceptedAfterClientGone} (killed after the end of its data: the ambiguous window)`,
  ];
}

export function formatFaults(faults: readonly FaultFigure[]): string[] {
  const rows = faults.map((f) => {
    const resume = f.notRun === true ? '-' : f.resumeSeconds === null ? `none in ${f.waitedSeconds.toFixed(0)} s` : `${f.resumeSeconds.toFixed(1)} s`;
    return `  ${pad(f.name, 44)} ${pad(`+${f.atSeconds.toFixed(0)} s`, 8)} ${pad(f.struck, 30)} ${pad(resume, 16)}${f.note === undefined ? '' : ` ${f.note}`}`;
  });
  return [`  ${pad('fault', 44)} ${pad('at', 8)} ${pad('struck', 30)} ${pad('next email', 16)}`, ...rows];
}

export function formatGoals(goals: readonly GoalCheck[]): string[] {
  return goals.map((g) => `  ${g.met ? 'met   ' : 'MISSED'}  ${g.goal}: ${g.figure}`);
}
