/**
 * Which moves a campaign's status allows, in one place: the workflow's Update validators refuse
 * the others (the API answers 409 with the reason), the API refuses them for a draft (which has no
 * workflow), and the campaign page offers only these. Pure, so the workflow may use it.
 *
 * - pause (Surface A) and stop (Surface B): from starting, running and budget_paused; both leave
 *   the campaign paused, the one difference being the surface's word for it.
 * - resume: from paused and budget_paused (the latter only once every budget limit has room,
 *   which the workflow checks against its spend; the page says so).
 * - start: a draft only (it gets its workflow and becomes starting).
 * - edit: anything but completed and failed, which are final: nothing moves or changes them.
 */
import type { CampaignStatus } from './status';

export type CampaignMove = 'pause' | 'stop' | 'resume' | 'start' | 'edit';

const FROM: Readonly<Record<CampaignMove, readonly CampaignStatus[]>> = {
  pause: ['starting', 'running', 'budget_paused'],
  stop: ['starting', 'running', 'budget_paused'],
  resume: ['paused', 'budget_paused'],
  start: ['draft'],
  edit: ['draft', 'starting', 'running', 'paused', 'budget_paused'],
};

export function moveAllowed(move: CampaignMove, status: CampaignStatus): boolean {
  return FROM[move].includes(status);
}

/** The status moves a campaign in this status offers, in the order a page shows them. */
export function allowedMoves(status: CampaignStatus): CampaignMove[] {
  return (['start', 'pause', 'resume', 'stop'] as const).filter((m) => moveAllowed(m, status));
}

const PAST: Readonly<Record<CampaignMove, string>> = { pause: 'paused', stop: 'stopped', resume: 'resumed', start: 'started', edit: 'changed' };

/** Why a move is refused, as the 409 says it. */
export function refusedMoveReason(move: CampaignMove, campaignId: string, status: CampaignStatus): string {
  const from = FROM[move].join(', ').replace(/, ([^,]*)$/, ' or $1');
  return `campaign ${campaignId} is ${status}: only a ${from} campaign can be ${PAST[move]}`;
}
