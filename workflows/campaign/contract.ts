import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { BudgetType, CampaignBudget, CampaignEvent, CampaignStatus, SendFrequency, SendWindow, SpendWindow } from '../../src/campaigns/model/status';
import type { CampaignSequence, SequencePlan, VariantId } from '../../src/campaigns/model/sequence';
import type { StepKind, StopFact } from '../../src/campaigns/model/templates';
import type { CampaignSchedule } from '../../src/campaigns/model/schedule';

/**
 * The campaign workflow's contract with the API (input, signals, queries) and the inputs and
 * results of its activities (whose signatures come from the implementations: activity-proxies.ts).
 * Pure types and definitions: both the workflow bundle and Node code import this file.
 */

export interface CampaignWorkflowInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly mcp: string;
  readonly targetUrl: string;
  /** Length of the trial in days; the campaign completes when it ends. Undefined: no trial end. */
  readonly trialDays?: number;
  /** YYYY-MM-DD: nothing starts before 00:00 UTC of this date. */
  readonly startDate?: string;
  /** Defaults: daily, UTC, 09:00-17:00, no budget. */
  readonly frequency?: SendFrequency;
  /** IANA time zone of the sending window. */
  readonly timezone?: string;
  readonly sendWindow?: SendWindow;
  /**
   * The whole schedule (per-weekday windows, blackout dates, holidays, lead zones). Absent in the
   * input of campaigns created before it: they follow frequency, timezone and sendWindow above.
   */
  readonly schedule?: CampaignSchedule;
  readonly budget?: CampaignBudget;
  /**
   * The campaign's sequence as stored at create: when each step is due and which steps have a
   * variant test. Absent for campaigns created before sequences were stored: they follow their
   * template's steps (`mcp`), as they always did.
   */
  readonly sequence?: SequencePlan;
  /**
   * Continue as new once the history has this many events, even before the server suggests it
   * (operators lower it to keep histories short; tests lower it to cross a continue-as-new).
   */
  readonly maxHistoryEvents?: number;
  /** Set only by continue-as-new: the state the previous run handed over. */
  readonly carried?: CarriedState;
}

/** One lead whose sequence is under way. */
export interface LeadTrack {
  readonly leadId: string;
  /** Index of the last step sent to this lead; -1 while the first email is still to go. */
  readonly step: number;
  /** Local date (campaign time zone, YYYY-MM-DD) on or after which the next step is due. */
  readonly nextDay: string;
  readonly subject: string;
  /** Message-IDs of the emails sent to this lead, oldest first (for In-Reply-To and References). */
  readonly thread: readonly string[];
}

export interface CampaignCounters {
  emailsSent: number;
  leadsContacted: number;
  /** Leads whose sequence ended by itself (every step sent). */
  sequencesFinished: number;
  replied: number;
  meetingsBooked: number;
  unsubscribed: number;
  bounced: number;
  /** Steps passed over for a lead (absent in state carried by runs that predate it). */
  stepsOmitted?: number;
}

export interface CarriedState {
  readonly status: CampaignStatus;
  readonly reason: string | null;
  readonly pausedFrom: CampaignStatus | null;
  readonly startedAt: number | null;
  readonly trialEndsAt: number | null;
  readonly companyId: string | null;
  readonly lastTickDay: string | null;
  /** New leads taken on `plannedDay` (local date): at most the template's number per day. */
  readonly plannedDay: string | null;
  readonly plannedToday: number;
  readonly counters: CampaignCounters;
  readonly spend: Record<BudgetType, SpendWindow>;
  readonly milestonesReached: readonly number[];
  readonly leads: readonly LeadTrack[];
  /** The last lead search found nobody new: with no sequence under way, the schedule is complete. */
  readonly leadPoolExhausted: boolean;
  readonly totalCostUsd: number;
  readonly runs: number;
  /**
   * When the campaign was last resumed (epoch ms, 0 before any resume): a campaign resumed after
   * its start date starts its trial then. Absent in state carried by runs that predate it.
   */
  readonly lastResumeAt?: number;
  /** Decided variant tests: the winning variant by step (absent before any, or in older runs' state). */
  readonly winners?: Readonly<Record<number, VariantId>>;
  /**
   * The leads' progress lives in the enrolment table (`leads` is then empty): set once the run
   * switched (patch 'enrolment-table'); absent in state carried by runs that predate it.
   */
  readonly enrolment?: boolean;
  /** Sequences under way (queued or in_sequence) as the last activity counted them (enrolment runs). */
  readonly activeLeads?: number;
  /** The settings edits have changed since the run's input (absent: none were edited). */
  readonly live?: LiveState;
}

/**
 * The settings of a campaign as its edits left them, over the workflow's input: a member absent
 * here is the input's. Carried by continue-as-new, so an edit outlives the run it arrived in.
 */
export interface LiveState {
  /** null: the edit removed every limit. */
  readonly budget?: CampaignBudget | null;
  readonly schedule?: CampaignSchedule;
  readonly sequence?: SequencePlan;
  readonly trialDays?: number | null;
  readonly startDate?: string | null;
}

/** What the status query returns: live status and counters, for operators and the API. */
export interface CampaignStatusView {
  readonly status: CampaignStatus;
  readonly reason: string | null;
  readonly startedAt: string | null;
  readonly trialEndsAt: string | null;
  readonly counters: CampaignCounters;
  readonly activeLeads: number;
  readonly spend: Record<BudgetType, { readonly window: string; readonly usd: number; readonly limitUsd: number | null }>;
  readonly milestonesReached: readonly number[];
  readonly totalCostUsd: number;
  /** How many times the workflow continued as new. */
  readonly runs: number;
  /** Decided variant tests: the winning variant by step index (absent when none). */
  readonly winners?: Readonly<Record<number, VariantId>>;
}

export interface CampaignTransition {
  readonly campaignId: string;
  readonly accountId: string;
  readonly status: CampaignStatus;
  readonly reason: string | null;
  /** ISO time of the transition, in workflow time. */
  readonly at: string;
  /** Written to the outbox in the same transaction as the status. */
  readonly events?: readonly CampaignEvent[];
  /** A move a user asked for (an Update): kept in the campaign's history of changes, same transaction. */
  readonly change?: ChangeRecord;
}

/** Who asked for a change: the API key (by surface) or the dashboard session's key. */
export interface ChangeActor {
  readonly via: 'api_a' | 'api_b' | 'dashboard';
  readonly keyId: string;
  readonly keyPrefix: string;
}

/** One field's change, by its Surface A (snake_case) path; Surface B shows the path in camelCase. */
export interface FieldChange {
  readonly field: string;
  readonly from: unknown;
  readonly to: unknown;
}

/** A row of the campaign's history of changes, as an activity writes it. */
export interface ChangeRecord {
  /** Chosen by the API: a retried activity writes the row once. */
  readonly id: string;
  readonly kind: 'edit' | 'pause' | 'stop' | 'resume';
  readonly by: ChangeActor;
  readonly fields: readonly FieldChange[];
}

/** What the API sends with pause, stop and resume. */
export interface ControlRequest {
  readonly changeId: string;
  readonly by: ChangeActor;
}

/** What the workflow decided: the campaign's status after the move, and when it was recorded. */
export interface ControlOutcome {
  readonly status: CampaignStatus;
  readonly reason: string | null;
  readonly at: string;
}

/**
 * The campaign's settings the workflow acts on, as an edit replaces them (absent members: as
 * before). The API has validated the request and computed the whole new value of each member.
 */
export interface LiveSettings {
  readonly budget?: CampaignBudget | null;
  readonly schedule?: CampaignSchedule;
  readonly trialDays?: number | null;
  readonly startDate?: string | null;
}

/**
 * An edit of a campaign (PATCH): the new settings, the row's other columns that change (written by
 * the activity, which the workflow passes them to untouched), the new steps if the sequence changes,
 * and the history record.
 */
export interface CampaignEdit {
  readonly change: ChangeRecord;
  readonly settings: LiveSettings;
  /** Columns of the campaigns row by their model names (name, audience, reporting, lead control ...). */
  readonly columns: Readonly<Record<string, unknown>>;
  /** The whole new sequence (future sends follow it; sent emails keep their content). */
  readonly sequence?: CampaignSequence;
  /**
   * Steps sent to someone (the highest index + 1) as the API counted them: a sequence shorter than
   * this is refused by the validator too (a sent step cannot be removed).
   */
  readonly sentSteps: number;
}

export interface EditOutcome extends ControlOutcome {
  readonly sequenceVersion: number | null;
}

export interface ApplyEditInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly edit: CampaignEdit;
  readonly at: string;
}

export interface ApplyEditResult {
  /** The new sequence's plan when the edit changed it (its version is the next of the campaign's). */
  readonly sequence: SequencePlan | null;
}

export interface CampaignEventsInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly at: string;
  readonly events: readonly CampaignEvent[];
}

export interface PrepareCampaignInput {
  readonly campaignId: string;
  readonly accountId: string;
}

export interface PrepareCampaignResult {
  /** The scraped target, or null when it could not be scraped (the writers cope without it). */
  readonly companyId: string | null;
  /** Why the target was not scraped, for the logs and the Web UI. */
  readonly scrapeProblem: string | null;
}

export interface PlanLeadsInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly limit: number;
  /** Leads the workflow already has; never returned again. */
  readonly exclude: readonly string[];
}

export interface PlanLeadsResult {
  readonly leadIds: readonly string[];
  /** Enrichment spent to find them (Apollo reveals), in USD. */
  readonly costUsd: number;
}

export interface BatchItem {
  readonly leadId: string;
  readonly step: number;
  readonly kind: StepKind;
  readonly delayDays: number;
  readonly previousSubject: string | null;
  /** Message-IDs already sent to this lead, oldest first. */
  readonly thread: readonly string[];
}

export interface SendBatchInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly mcp: string;
  readonly companyId: string | null;
  readonly items: readonly BatchItem[];
  /** The version of the campaign's sequence to write from (absent: the one its row names). */
  readonly sequenceVersion?: number;
  /**
   * USD the campaign may still spend before a budget is reached (the smallest room of its windows),
   * or null without a budget. Checked before every email.
   */
  readonly budgetRemainingUsd: number | null;
}

/**
 * - sent / already_sent: the step went out (now, or by an earlier attempt);
 * - stopped: the lead replied, booked, unsubscribed or bounced (see `stopFact`), or is suppressed;
 * - deferred: every mailbox is at its daily cap, or the SMTP server answered this recipient with a
 *   temporary failure (4xx); the step stays due for the next sending day (same Message-ID);
 * - skipped: not attempted because the batch halted (see `halted`); the step stays due;
 * - omitted: the step cannot be written for this lead (a merge variable it has no value for, a
 *   thread to reply in that never started; see `omittedReason`): passed over, the lead goes on to
 *   its next step as if it had gone out, and the reason is kept (step_skips).
 */
export type BatchOutcome = 'sent' | 'already_sent' | 'stopped' | 'deferred' | 'skipped' | 'omitted';

export interface BatchItemResult {
  readonly leadId: string;
  readonly step: number;
  readonly outcome: BatchOutcome;
  readonly messageId?: string;
  readonly subject?: string;
  readonly stopFact?: StopFact | 'suppressed';
  /** Why a 'suppressed' lead may not get mail (blocklisted, removed from the campaign, an invalid address, a suppression's cause). */
  readonly blockedBy?: string;
  readonly omittedReason?: string;
  /** The step's variant the lead got (written sequences). */
  readonly variant?: VariantId;
}

/**
 * Why a batch stopped before its last item:
 * - budget_exceeded: the spend reached `budgetRemainingUsd`;
 * - quota_exceeded: the account's plan quota of emails for the month is used up;
 * - not_running: the campaign's row is no longer running (a pause committed by the API).
 */
export type BatchHalt = 'budget_exceeded' | 'quota_exceeded' | 'not_running';

export interface SendBatchResult {
  readonly results: readonly BatchItemResult[];
  /** Everything the batch spent (writing and sending), in USD. */
  readonly costUsd: number;
  readonly halted: BatchHalt | null;
}

export interface DecideWinnersInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly sequenceVersion: number;
  /** The steps whose variant test is still open. */
  readonly steps: readonly number[];
}

/** The tests decided now or before, by step. */
export interface DecideWinnersResult {
  readonly decided: ReadonlyArray<{ readonly step: number; readonly variant: VariantId }>;
}

export interface EnrolNewLeadsInput {
  readonly campaignId: string;
  readonly accountId: string;
  /** The sending day (campaign-local date) the new leads' first emails are due on. */
  readonly day: string;
  /** Leads that may await their first email today: the queue is topped up to this. */
  readonly wanted: number;
}

export interface EnrolNewLeadsResult {
  /** Leads queued now. */
  readonly enrolled: number;
  /** Candidates skipped now (each row says why). */
  readonly skipped: number;
  /** Enrichment spent to find them (Apollo reveals), in USD. */
  readonly costUsd: number;
  /** The search found nobody new (null: not searched, the queue was full). */
  readonly poolExhausted: boolean | null;
  readonly activeLeads: number;
}

/** One batch of a sending day, read from the enrolment table (the workflow sends no lead ids). */
export interface SendEnrolledInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly mcp: string;
  readonly companyId: string | null;
  /** The sending day (campaign-local date). */
  readonly day: string;
  /** The steps' delays and kinds (the sequence plan's or the template's). */
  readonly steps: ReadonlyArray<{ readonly delayDays: number; readonly kind: StepKind }>;
  readonly sequenceVersion?: number;
  /** First emails the day's pace still allows. */
  readonly firstEmailsLeft: number;
  /** Items in one batch at most: a day with more runs several batches. */
  readonly maxItems: number;
  readonly budgetRemainingUsd: number | null;
  /**
   * The workflow's clock (epoch ms) and the campaign's schedule: rows are due only inside their own
   * window on this instant (per-weekday hours, blackout dates, holidays of the lead's country, the
   * lead's zone when the schedule says so). Absent (runs before schedules): `day` alone decides.
   */
  readonly at?: number;
  readonly schedule?: CampaignSchedule;
}

export interface SendEnrolledResult {
  /** Due rows the batch took (0: nothing was due). */
  readonly selected: number;
  readonly sent: number;
  /** Leads whose first email went out. */
  readonly contacted: number;
  /** Sequences that ended by themselves (every step sent or passed over). */
  readonly finished: number;
  readonly omitted: number;
  /** Leads that left the queue (first email sent, passed over, stopped or skipped): the day's pace. */
  readonly firstEmailsTaken: number;
  /** Facts that ended sequences in this batch (each counted once: the row changed now). */
  readonly stops: readonly StopFact[];
  readonly costUsd: number;
  readonly halted: BatchHalt | null;
  /** More may be due today: run another batch. */
  readonly more: boolean;
  readonly activeLeads: number;
  /**
   * With `at` and `schedule` given: the first instant after `at` at which an active row that is not
   * sendable now enters its window (null: none within the search horizon). The workflow wakes then.
   */
  readonly nextWakeAt?: number | null;
}

export interface EndLeadSequenceInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly leadId: string;
  readonly fact: StopFact;
}

export interface EndLeadSequenceResult {
  /** The fact ended a sequence still under way (count it). */
  readonly ended: boolean;
  readonly colleaguesStopped: number;
  readonly activeLeads: number;
}

export interface AdoptLeadTracksInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly tracks: readonly LeadTrack[];
}

/** Sent by the API with the time it committed, so the workflow's mirror writes the same instant. */
export interface ControlSignal {
  readonly at?: string;
}

export interface LeadFactSignal {
  readonly leadId: string;
  readonly fact: StopFact;
}

export const pauseSignal = defineSignal<[ControlSignal?]>('pause');
/** Surface B's stop: the same as pause (reason manual). */
export const stopSignal = defineSignal<[ControlSignal?]>('stop');
export const resumeSignal = defineSignal<[ControlSignal?]>('resume');
/** A reply, booked meeting, unsubscribe or bounce of one lead: ends that lead's sequence. */
export const leadFactSignal = defineSignal<[LeadFactSignal]>('leadFact');
/** A lead taken out of the campaign by the user (the enrolment row already says removed). */
export interface LeadRemovedSignal {
  readonly leadId: string;
  /** Its sequence was under way when it was removed. */
  readonly wasActive: boolean;
}
export const leadRemovedSignal = defineSignal<[LeadRemovedSignal]>('leadRemoved');
export const statusQuery = defineQuery<CampaignStatusView>('status');

/**
 * Pause, stop, resume and edit as Temporal Updates: each validator refuses a move the status does
 * not allow (or an invalid edit) before it enters the history, and the handler answers once the
 * transition is recorded in the database, so the API returns what the workflow decided. The
 * signals above remain for runs that still have them in their histories.
 */
export const pauseUpdate = defineUpdate<ControlOutcome, [ControlRequest]>('pauseCampaign');
export const stopUpdate = defineUpdate<ControlOutcome, [ControlRequest]>('stopCampaign');
export const resumeUpdate = defineUpdate<ControlOutcome, [ControlRequest]>('resumeCampaign');
export const editUpdate = defineUpdate<EditOutcome, [CampaignEdit]>('editCampaign');

/** Deterministic workflow id: one workflow per campaign. */
export function campaignWorkflowId(campaignId: string): string {
  return `campaign-${campaignId}`;
}
