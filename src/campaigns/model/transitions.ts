/**
 * Which moves a campaign's status allows, in one place: the control service refuses the others
 * (409 with the reason) and the campaign page offers only these. Pure, so the workflow may use it.
 *
 * - pause (Surface A) and stop (Surface B): from starting, running and budget_paused; both leave
 *   the campaign paused, the one difference being the surface's word for it.
 * - resume: from paused and budget_paused (the latter only once every budget limit has room, which
 *   the control service checks against the spend; the page says so).
 * - completed and failed are final: nothing moves them.
 */
import type { CampaignStatus } from './status';

export type CampaignMove = 'pause' | 'stop' | 'resume';

const FROM: Readonly<Record<CampaignMove, readonly CampaignStatus[]>> = {
  pause: ['starting', 'running', 'budget_paused'],
  stop: ['starting', 'running', 'budget_paused'],
  resume: ['paused', 'budget_paused'],
};

export function moveAllowed(move: CampaignMove, status: CampaignStatus): boolean {
  return FROM[move].includes(status);
}

/** The moves a campaign in this status offers, in the order a page shows them. */
export function allowedMoves(status: CampaignStatus): CampaignMove[] {
  return (['pause', 'resume', 'stop'] as const).filter((m) => moveAllowed(m, status));
}

/** Why a move is refused, as the 409 says it. */
export function refusedMoveReason(move: CampaignMove, campaignId: string, status: CampaignStatus): string {
  const verb = move === 'stop' ? 'stopped' : move === 'pause' ? 'paused' : 'resumed';
  const from = FROM[move].join(', ').replace(/, ([^,]*)$/, ' or $1');
  return `campaign ${campaignId} is ${status}: only a ${from} campaign can be ${verb}`;
}
