import { expect } from 'chai';
import type { CampaignWorkflowInput } from '../../workflows/campaign/contract';
import { carry, initialState, type CampaignState } from '../../workflows/campaign/state';

/**
 * What continue-as-new hands on (pure, no server): the whole state, so that a field added to
 * CampaignState and forgotten on the way fails here (the literal below must name every field).
 */
describe('campaign workflow carried state', () => {
  const input: CampaignWorkflowInput = { campaignId: 'cmp_1', accountId: 'acc_1', mcp: 'sales_outreach', targetUrl: 'https://target.example' };
  const now = Date.parse('2026-03-04T10:00:00Z');
  // Every field away from its initial value.
  const state: CampaignState = {
    status: 'budget_paused',
    reason: 'budget_exceeded',
    pausedFrom: 'running',
    startedAt: now - 3 * 86_400_000,
    trialEndsAt: now + 11 * 86_400_000,
    companyId: 'company-1',
    lastTickDay: '2026-03-04',
    plannedDay: '2026-03-04',
    plannedToday: 7,
    counters: { emailsSent: 120, leadsContacted: 60, sequencesFinished: 3, replied: 2, meetingsBooked: 1, unsubscribed: 1, bounced: 4 },
    spend: {
      daily: { key: '2026-03-04', usd: 1, warned: true, exceeded: true },
      weekly: { key: '2026-03-02', usd: 3.5, warned: false, exceeded: false },
      monthly: { key: '2026-03', usd: 3.5, warned: false, exceeded: false },
    },
    milestonesReached: [100],
    leads: [{ leadId: 'lead-0001', step: 1, nextDay: '2026-03-08', subject: 'Hello', thread: ['<a@x>', '<b@x>'] }],
    leadPoolExhausted: true,
    totalCostUsd: 4.25,
    runs: 2,
    lastResumeAt: now - 86_400_000,
  };

  it('every field of the state reaches the next run, which counts one run more', () => {
    const next = initialState({ ...input, carried: carry(state) }, now + 1_000);
    expect(next).to.deep.equal({ ...state, runs: 3 });
    expect(Object.keys(carry(state)).sort()).to.deep.equal(Object.keys(state).sort());
  });

  it('the next run does not share the carried arrays and objects with the previous one', () => {
    const carried = carry(state);
    const next = initialState({ ...input, carried }, now);
    next.counters.emailsSent++;
    next.leads.pop();
    next.milestonesReached.push(500);
    expect(carried.counters.emailsSent).to.equal(120);
    expect(carried.leads).to.have.length(1);
    expect(carried.milestonesReached).to.deep.equal([100]);
  });

  it('state carried by a run that did not carry lastResumeAt yet starts from 0', () => {
    const { lastResumeAt: _omitted, ...older } = carry(state);
    expect(initialState({ ...input, carried: older }, now).lastResumeAt).to.equal(0);
  });
});
