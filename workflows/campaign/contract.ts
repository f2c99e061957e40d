import { defineQuery, defineSignal } from '@temporalio/workflow';

/** The six statuses of the spec; the workflow owns the live one and mirrors it to the database. */
export type CampaignStatus = 'starting' | 'running' | 'paused' | 'budget_paused' | 'completed' | 'failed';

export type PauseReason = 'manual' | 'budget_exceeded' | 'quota_exceeded';
export type CompletionReason = 'trial_ended' | 'schedule_complete';

export interface CampaignWorkflowInput {
  readonly campaignId: string;
  readonly accountId: string;
  readonly mcp: string;
  /** Length of the trial in days; the campaign completes when it ends. Undefined: no trial end. */
  readonly trialDays?: number;
  /** YYYY-MM-DD: nothing starts before 00:00 UTC of this date. */
  readonly startDate?: string;
}

export interface CampaignTransition {
  readonly campaignId: string;
  readonly status: CampaignStatus;
  readonly reason: string | null;
  /** ISO time of the transition, in workflow time. */
  readonly at: string;
}

export interface CampaignStatusView {
  readonly status: CampaignStatus;
  readonly reason: string | null;
  readonly startedAt: string | null;
  readonly trialEndsAt: string | null;
}

export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
export const statusQuery = defineQuery<CampaignStatusView>('status');

/** Deterministic workflow id: one workflow per campaign. */
export function campaignWorkflowId(campaignId: string): string {
  return `campaign-${campaignId}`;
}
