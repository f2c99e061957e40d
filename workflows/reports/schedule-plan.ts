/**
 * Which report the schedule sends next, and which period it covers. Pure (the workflow passes its
 * clock in), so the rules are the same whether the workflow just started, continued as new, or
 * had its frequency changed.
 */
import { nextReportEndingAfter, periodOfReportAt, type ReportFrequency, type ReportPeriod } from '../../src/campaigns/model/report-schedule';

export interface ScheduleRules {
  readonly frequency: ReportFrequency;
  readonly timeZone: string;
  /** The campaign's creation: no period starts before it. */
  readonly since: number;
}

export interface ScheduleProgress {
  /** The last report time handled: the next comes strictly after it. */
  readonly lastReportAt: number;
  /** End of the last period reported; null before the first. */
  readonly reportedUntil: number | null;
}

export interface DueReport {
  /** When it goes out: 08:00 local on the report day. */
  readonly at: number;
  readonly period: ReportPeriod;
}

/**
 * The next report after `progress.lastReportAt`. Periods follow on from each other: each starts
 * where the last one reported ended, so a change of frequency neither repeats nor leaves out a day
 * (weekly to daily on a Wednesday: Thursday's report covers Monday to Wednesday). The first starts
 * at the period's own start, or at `since` when the campaign was created within it. A report time
 * whose period ends at or before that start has nothing to report and is passed over.
 */
export function nextDueReport(rules: ScheduleRules, progress: ScheduleProgress): DueReport {
  const at = nextReportEndingAfter(rules.frequency, rules.timeZone, progress.lastReportAt, progress.reportedUntil ?? rules.since);
  const period = periodOfReportAt(rules.frequency, rules.timeZone, at);
  return { at, period: { start: progress.reportedUntil ?? Math.max(rules.since, period.start), end: period.end } };
}

/** The final report: from where the last report ended (or the creation) to the campaign's end. */
export function finalPeriod(rules: ScheduleRules, progress: ScheduleProgress, endedAt: number): ReportPeriod {
  const start = progress.reportedUntil ?? rules.since;
  // A late signal can arrive after a report whose period reaches past the end: the final report
  // then covers nothing new, but still says the campaign ended.
  return { start, end: Math.max(start, endedAt) };
}
