/**
 * The workflow's mutable state (what continue-as-new carries) and the views built from it:
 * the status query's answer and the Markdown the Temporal Web UI shows as current details.
 */
import { BUDGET_TYPES, emptySpend, limitOf, type Spend } from '../../src/campaigns/model/budget-windows';
import type { CampaignCounters, CampaignStatusView, CampaignWorkflowInput, CarriedState, LeadTrack, LiveState } from './contract';
import type { CampaignBudget, CampaignStatus } from '../../src/campaigns/model/status';
import type { SequencePlan, VariantId } from '../../src/campaigns/model/sequence';

export interface CampaignState {
  status: CampaignStatus;
  reason: string | null;
  /** The status to return to on resume (starting when paused before the start). */
  pausedFrom: CampaignStatus | null;
  startedAt: number | null;
  trialEndsAt: number | null;
  companyId: string | null;
  lastTickDay: string | null;
  /** New leads taken on `plannedDay` (local date): at most the template's daily number. */
  plannedDay: string | null;
  plannedToday: number;
  counters: CampaignCounters;
  spend: Spend;
  milestonesReached: number[];
  leads: LeadTrack[];
  leadPoolExhausted: boolean;
  totalCostUsd: number;
  runs: number;
  /** When the campaign was last resumed (epoch ms; 0 before any resume). */
  lastResumeAt: number;
  /** Decided variant tests: the winning variant by step. */
  winners?: Readonly<Record<number, VariantId>>;
  /** The leads' progress is in the enrolment table (`leads` stays empty): see CarriedState.enrolment. */
  enrolment?: boolean;
  /** Sequences under way as the last activity counted them (enrolment runs). */
  activeLeads?: number;
  /** The settings edits changed (see LiveState). */
  live?: LiveState;
}

/** The sequence the campaign sends now: the last edit's, else the input's (absent for campaigns before stored sequences). */
export function sequenceOf(input: CampaignWorkflowInput, s: CampaignState): SequencePlan | undefined {
  return s.live?.sequence ?? input.sequence;
}

/** The budget in force: the last edit's (null: no limits), else the input's. */
export function budgetOf(input: CampaignWorkflowInput, s: CampaignState): CampaignBudget | undefined {
  if (s.live?.budget !== undefined) return s.live.budget ?? undefined;
  return input.budget;
}

/** Sequences under way: counted by the activities (enrolment runs) or the leads the run tracks. */
export function activeLeadCount(s: CampaignState): number {
  return s.enrolment === true ? (s.activeLeads ?? 0) : s.leads.length;
}

/** A new campaign's state, or the state the previous run carried over (one run more). */
export function initialState(input: CampaignWorkflowInput, now: number): CampaignState {
  const c = input.carried;
  if (c === undefined) return freshState(now);
  return {
    ...c,
    counters: { ...c.counters },
    spend: { ...c.spend },
    milestonesReached: [...c.milestonesReached],
    leads: [...c.leads],
    runs: c.runs + 1,
    lastResumeAt: c.lastResumeAt ?? 0,
  };
}

function freshState(now: number): CampaignState {
  return {
    status: 'starting',
    reason: null,
    pausedFrom: null,
    startedAt: null,
    trialEndsAt: null,
    companyId: null,
    lastTickDay: null,
    plannedDay: null,
    plannedToday: 0,
    counters: { emailsSent: 0, leadsContacted: 0, sequencesFinished: 0, replied: 0, meetingsBooked: 0, unsubscribed: 0, bounced: 0 },
    spend: emptySpend(now),
    milestonesReached: [],
    leads: [],
    leadPoolExhausted: false,
    totalCostUsd: 0,
    runs: 0,
    lastResumeAt: 0,
  };
}

/**
 * What continue-as-new hands to the next run: the whole state, field for field (initialState
 * restores it; a field CarriedState lacks fails the typecheck there).
 */
export function carry(s: CampaignState): CarriedState {
  return { ...s, counters: { ...s.counters }, spend: { ...s.spend }, milestonesReached: [...s.milestonesReached], leads: [...s.leads] };
}

/** The sequence in use, its steps passed over, and its variant tests. */
function sequenceLine(plan: SequencePlan, s: CampaignState): string {
  const tests = plan.autoWinnerSteps.map((step) => `step ${step + 1}: ${s.winners?.[step] === undefined ? 'testing' : `variant ${s.winners[step]} won`}`);
  return [`**Sequence** version ${plan.version}, ${plan.steps.length} steps`, `${s.counters.stepsOmitted ?? 0} steps passed over`, ...(tests.length === 0 ? [] : [`**Variant tests** ${tests.join(', ')}`])].join(' · ');
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function statusView(s: CampaignState, budget: CampaignBudget | undefined): CampaignStatusView {
  const spend = {} as CampaignStatusView['spend'];
  for (const type of BUDGET_TYPES) {
    (spend as Record<string, unknown>)[type] = { window: s.spend[type].key, usd: s.spend[type].usd, limitUsd: limitOf(budget, type) };
  }
  return {
    status: s.status,
    reason: s.reason,
    startedAt: iso(s.startedAt),
    trialEndsAt: iso(s.trialEndsAt),
    counters: { ...s.counters },
    activeLeads: activeLeadCount(s),
    spend,
    milestonesReached: [...s.milestonesReached],
    totalCostUsd: s.totalCostUsd,
    runs: s.runs,
    ...(s.winners === undefined ? {} : { winners: { ...s.winners } }),
  };
}

/** Markdown for the workflow's page in the Temporal Web UI. */
export function describe(input: CampaignWorkflowInput, s: CampaignState, budget: CampaignBudget | undefined, nextSend: number | null): string {
  const c = s.counters;
  const money = (type: (typeof BUDGET_TYPES)[number]): string => {
    const limit = limitOf(budget, type);
    return `${type} $${s.spend[type].usd.toFixed(4)}${limit === null ? '' : ` of $${limit}`}`;
  };
  return [
    `**Campaign** ${input.campaignId} (${input.mcp}) of account ${input.accountId}, target ${input.targetUrl}`,
    `**Status** ${s.status}${s.reason === null ? '' : ` (${s.reason})`}`,
    `**Started** ${iso(s.startedAt) ?? 'not yet'} · **Trial ends** ${iso(s.trialEndsAt) ?? 'no trial end'}`,
    `**Next sending** ${s.status === 'running' && nextSend !== null ? new Date(nextSend).toISOString() : '-'}`,
    `**Emails** ${c.emailsSent} sent to ${c.leadsContacted} leads, ${activeLeadCount(s)} sequences under way, ${c.sequencesFinished} finished`,
    `**Stops** ${c.replied} replied, ${c.meetingsBooked} booked, ${c.unsubscribed} unsubscribed, ${c.bounced} bounced`,
    `**Spend** ${BUDGET_TYPES.map(money).join(' · ')} · total $${s.totalCostUsd.toFixed(4)}`,
    `**Milestones** ${s.milestonesReached.length === 0 ? 'none yet' : s.milestonesReached.join(', ')} · **Run** ${s.runs + 1}`,
    ...(sequenceOf(input, s) === undefined ? [] : [sequenceLine(sequenceOf(input, s)!, s)]),
    ...(s.live === undefined ? [] : ['**Edited** since it started: ' + Object.keys(s.live).join(', ')]),
  ].join('\n\n');
}
