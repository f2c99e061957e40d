/**
 * The campaign's vocabulary, shared by the workflow (which owns the live status), the activities
 * and the API. Pure: types and constants only, so the workflow bundle may import it.
 */

/**
 * The six statuses of the spec, and `draft`: a campaign stored but not started (a copy made with
 * `start: false`), which has no workflow yet. The workflow owns the live status of every other
 * campaign and records each transition to the database.
 */
export const CAMPAIGN_STATUSES = ['draft', 'starting', 'running', 'paused', 'budget_paused', 'completed', 'failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export type PauseReason = 'manual' | 'budget_exceeded' | 'quota_exceeded';
export type CompletionReason = 'trial_ended' | 'schedule_complete';
export const BUDGET_TYPES = ['daily', 'weekly', 'monthly'] as const;
export type BudgetType = (typeof BUDGET_TYPES)[number];
/** daily: every day; weekdays: Monday to Friday; weekly: once a week, on the weekday the campaign started. */
export type SendFrequency = 'daily' | 'weekdays' | 'weekly';

export const SEND_FREQUENCIES: readonly SendFrequency[] = ['daily', 'weekdays', 'weekly'];
/** The milestone counts of the spec; each fires once per campaign. */
export const MILESTONES: readonly number[] = [100, 500, 1000];
/** A budget warning fires when spend reaches this fraction of the limit. */
export const BUDGET_WARNING_FRACTION = 0.8;

export interface CampaignBudget {
  readonly dailyUsd: number | null;
  readonly weeklyUsd: number | null;
  readonly monthlyUsd: number | null;
}

/** Minutes after local midnight, in the campaign's time zone: sending happens in [start, end). */
export interface SendWindow {
  readonly startMinute: number;
  readonly endMinute: number;
}

/** Spend in the current budget windows; `key` names the window (a date, a Monday, a month). */
export interface SpendWindow {
  key: string;
  usd: number;
  /** The 80% warning was sent in this window. */
  warned: boolean;
  /** The limit was reached and announced in this window. */
  exceeded: boolean;
}

/** An event for the webhook outbox, recorded with the transition or on its own. */
export interface CampaignEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
  /**
   * The workflow does not see opens or deliveries; the activity that records the event fills
   * these members from the database (authoritative for statistics) before writing it:
   * - 'stats': data.stats = {emails_sent, delivered, opened, replied} (campaign.milestone);
   * - 'final_stats': data.final_stats = {emails_sent, delivered, opened, replied, meetings_booked}
   *   and data.total_cost_usd = every cost of the campaign (campaign.completed).
   */
  readonly fill?: 'stats' | 'final_stats';
}
