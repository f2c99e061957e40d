/**
 * The report workflows' contract with whoever starts them, and the inputs and results of their
 * activity. Pure types and constants: the workflow bundle and Node code both import this file.
 *
 * Two workflows send a campaign's emailed reports (docs/decisions.md, "Reports by email"):
 * - `campaignReportScheduleWorkflow`, one per campaign with a `reporting.email`
 *   (id `campaign-reports-<campaignId>`): sleeps until each report time of the campaign's
 *   frequency in its time zone, sends the period's report, and sends a final report when told that
 *   the campaign ended (signal `campaignEnded`), then ends.
 * - `campaignReportWorkflow`, one per report asked for through the API
 *   (id `campaign-report-<reportId>`): sends that one report, retried until it is sent or failed.
 */

import { defineSignal } from '@temporalio/workflow';
import type { ReportFrequency } from '../../src/campaigns/model/report-schedule';

/** Defined with the report times (a pure module src/ may import); re-exported for the workflows' callers. */
export type { ReportFrequency };

/** Why a report was sent: at its time, at the campaign's end, or asked for (POST .../reports). */
export type ReportKind = 'scheduled' | 'final' | 'on_demand';

export interface ReportScheduleInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly frequency: ReportFrequency;
  /** IANA zone of the campaign's schedule: report times and periods are its local days. */
  readonly timeZone: string;
  /** Epoch ms the campaign was created: the first period starts here, not before. */
  readonly since: number;
  /** Continue as new after this many reports (default 100); tests lower it to cross a continue-as-new. */
  readonly maxReportsPerRun?: number;
  /** Set only by continue-as-new: where the previous run left off. */
  readonly carried?: ReportScheduleCarried;
}

/** What one run of the schedule hands the next: enough that no period is reported twice or skipped. */
export interface ReportScheduleCarried {
  /** The last report time handled (sent, or passed over as before `since`): the next comes strictly after it. */
  readonly lastReportAt: number;
  /** End of the last period reported (epoch ms); null before the first. The next period starts here. */
  readonly reportedUntil: number | null;
  /** Scheduled reports sent by every run so far. */
  readonly reportsSent: number;
  /** Runs before this one (continue-as-new count). */
  readonly runs: number;
}

export interface ReportScheduleResult {
  /** `campaign_ended`: the final report went out; `reporting_removed`: the campaign no longer has a report email. */
  readonly outcome: 'campaign_ended' | 'reporting_removed';
  /** Scheduled reports sent over the workflow's life, across continue-as-new (the final one not counted). */
  readonly reportsSent: number;
  /** The final report's result; null when none was sent (reporting removed, or its activity gave up). */
  readonly final: SendReportResult | null;
}

/** Signal: the campaign completed or failed (a stop pauses it: no end); the final report follows at once. */
export const CAMPAIGN_ENDED_SIGNAL = 'campaignEnded';

export interface CampaignEnded {
  /** Epoch ms the campaign ended (the transition's time): the final report's period ends here. */
  readonly at: number;
  readonly status: 'completed' | 'failed';
}

/** Sent by the record-transition activity when the campaign reaches completed or failed. */
export const campaignEndedSignal = defineSignal<[CampaignEnded]>(CAMPAIGN_ENDED_SIGNAL);

/**
 * Signal: the campaign's reporting settings changed (PATCH of `reporting`). A new frequency or zone
 * applies from the next report on; without a report email the workflow ends (no final report).
 */
export const REPORTING_CHANGED_SIGNAL = 'reportingChanged';

export interface ReportingChanged {
  readonly frequency: ReportFrequency;
  readonly timeZone: string;
  /** False when `reporting.email` was removed. */
  readonly hasEmail: boolean;
}

export const reportingChangedSignal = defineSignal<[ReportingChanged]>(REPORTING_CHANGED_SIGNAL);

/** One report to send: the activity reserves it (idempotent on campaign, kind and period end) and emails it. */
export interface SendReportInput {
  readonly campaignId: string;
  readonly kind: ReportKind;
  /** Epoch ms, inclusive. */
  readonly periodStart: number;
  /** Epoch ms, exclusive. */
  readonly periodEnd: number;
  /** Set for an on-demand report: the row the API already inserted. */
  readonly reportId?: string;
}

export interface SendReportResult {
  readonly reportId: string;
  /** `skipped`: nobody to send to (the campaign's reporting.email was removed) or the campaign is gone. */
  readonly status: 'sent' | 'failed' | 'skipped';
}

/** The on-demand report's workflow gave up on it (a day of trouble, or a refusal): its row is marked failed with the last error. */
/**
 * A report its workflow gave up on, to be shown failed rather than pending for ever: an on-demand
 * one by its row, a scheduled or final one by what reserved it (campaign, kind and period end).
 */
export type MarkReportFailedInput =
  | { readonly reportId: string; readonly error: string }
  | { readonly campaignId: string; readonly kind: 'scheduled' | 'final'; readonly periodEnd: number; readonly error: string };

export interface CampaignReportInput {
  readonly reportId: string;
  readonly campaignId: string;
  readonly periodStart: number;
  readonly periodEnd: number;
}

export const reportScheduleWorkflowId = (campaignId: string): string => `campaign-reports-${campaignId}`;
export const campaignReportWorkflowId = (reportId: string): string => `campaign-report-${reportId}`;
