import type { CampaignStatus } from '../../campaigns/model/status';

/** Why a campaign is in its status, in words (the stored reason codes of the spec). */
const REASONS: Readonly<Record<string, string>> = {
  manual: 'paused by you',
  budget_exceeded: 'a budget limit was reached',
  quota_exceeded: "the plan's monthly emails are used up",
  trial_ended: 'the trial ended',
  schedule_complete: 'the schedule is complete',
};

const STATUSES: Readonly<Record<CampaignStatus, string>> = {
  draft: 'Draft (not started)',
  starting: 'Starting',
  running: 'Running',
  paused: 'Paused',
  budget_paused: 'Paused for budget',
  completed: 'Completed',
  failed: 'Failed',
};

/** "Paused: paused by you"; an unknown reason code is shown as it is stored. */
export function statusLabel(status: CampaignStatus, reason: string | null): string {
  const words = STATUSES[status] ?? status;
  if (reason === null || reason === '') return words;
  return `${words}: ${REASONS[reason] ?? reason.replaceAll('_', ' ')}`;
}
