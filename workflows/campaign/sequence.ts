/**
 * The email sequences of a campaign's leads (pure): which steps are due on a sending day, and what
 * a batch's results change. The workflow keeps one LeadTrack per lead whose sequence is under way.
 */
import { addDays } from '../../src/campaigns/model/calendar';
import type { BatchItem, BatchItemResult, CampaignCounters, LeadTrack } from './contract';
import type { StepKind, StopFact } from '../../src/campaigns/model/templates';

/**
 * The steps a campaign's leads go through: its stored sequence's plan, or (campaigns created
 * before sequences were stored) its template's steps.
 */
export interface StepsPlan {
  readonly steps: ReadonlyArray<{ readonly delayDays: number; readonly kind: StepKind }>;
}

/** A lead just found: its first email is due on `day`. */
export function newLead(leadId: string, day: string): LeadTrack {
  return { leadId, step: -1, nextDay: day, subject: '', thread: [] };
}

/** Leads whose first email has not gone out yet. */
export function awaitingFirstEmail(leads: readonly LeadTrack[]): number {
  return leads.filter((l) => l.step < 0).length;
}

/**
 * The steps due on `day`: follow-ups first (those leads have waited longest), then first emails,
 * each in the order the leads were found.
 */
export function dueItems(leads: readonly LeadTrack[], day: string, template: StepsPlan): BatchItem[] {
  const due = leads.filter((l) => l.nextDay <= day && l.step + 1 < template.steps.length);
  const ordered = [...due.filter((l) => l.step >= 0), ...due.filter((l) => l.step < 0)];
  return ordered.map((l) => {
    const step = l.step + 1;
    const def = template.steps[step] as StepsPlan['steps'][number];
    return { leadId: l.leadId, step, kind: def.kind, delayDays: def.delayDays, previousSubject: l.step >= 0 ? l.subject : null, thread: l.thread };
  });
}

export interface AppliedBatch {
  readonly leads: LeadTrack[];
  /** Emails that went out (now or by an earlier attempt of the same batch). */
  readonly sent: number;
  /** Leads whose first email went out. */
  readonly contacted: number;
  /** Leads whose last step went out. */
  readonly finished: number;
  readonly stopped: ReadonlyArray<StopFact | 'suppressed'>;
  /** Steps passed over for a lead (a merge variable it has no value for, ...). */
  readonly omitted: number;
}

/**
 * What a batch's results change in the tracked leads. Deferred and skipped steps stay due; an
 * omitted step is passed over (the lead goes on to its next step, due after that step's delay).
 * A lead counts as contacted with its first email that went out, whichever step it was.
 */
export function applyBatch(leads: readonly LeadTrack[], results: readonly BatchItemResult[], day: string, template: StepsPlan): AppliedBatch {
  const byLead = new Map(results.map((r) => [r.leadId, r]));
  const applied = { leads: [] as LeadTrack[], sent: 0, contacted: 0, finished: 0, omitted: 0, stopped: [] as Array<StopFact | 'suppressed'> };
  for (const lead of leads) {
    const r = byLead.get(lead.leadId);
    // No result, or one for another step (stale): the lead stays as it was.
    if (r === undefined || r.step !== lead.step + 1) applied.leads.push(lead);
    else if (r.outcome === 'stopped') applied.stopped.push(r.stopFact ?? 'suppressed');
    else if (r.outcome === 'omitted') {
      applied.omitted++;
      const next = advance(lead, r, day, template);
      if (next === null) applied.finished++;
      else applied.leads.push(next);
    } else if (r.outcome !== 'sent' && r.outcome !== 'already_sent') applied.leads.push(lead);
    else {
      applied.sent++;
      if (lead.thread.length === 0) applied.contacted++;
      const next = advance(lead, r, day, template);
      if (next === null) applied.finished++;
      else applied.leads.push(next);
    }
  }
  return applied;
}

/** A lead whose step `r` went out on `day`: due its next step's delay later, or null after the last. */
function advance(lead: LeadTrack, r: BatchItemResult, day: string, template: StepsPlan): LeadTrack | null {
  const following = template.steps[r.step + 1];
  if (following === undefined) return null;
  return {
    leadId: lead.leadId,
    step: r.step,
    nextDay: addDays(day, following.delayDays),
    subject: r.subject ?? lead.subject,
    thread: r.messageId === undefined ? lead.thread : [...lead.thread, r.messageId],
  };
}

/** Counts a fact that ended a sequence (from a batch or a signal). */
export function countStop(counters: CampaignCounters, fact: StopFact | 'suppressed'): void {
  if (fact === 'replied') counters.replied++;
  else if (fact === 'meeting_booked') counters.meetingsBooked++;
  else if (fact === 'unsubscribed') counters.unsubscribed++;
  else if (fact === 'bounced') counters.bounced++;
}
