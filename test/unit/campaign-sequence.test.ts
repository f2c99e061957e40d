import { expect } from 'chai';
import type { BatchItemResult, CampaignCounters, LeadTrack } from '../../workflows/campaign/contract';
import { applyBatch, awaitingFirstEmail, countStop, dueItems, newLead } from '../../workflows/campaign/sequence';
import { findTemplate, type OutreachTemplate } from '../../src/campaigns/model/templates';

/** Email sequences of a campaign's leads: which steps are due, and what a batch's results change. */
describe('campaign sequences', () => {
  // sales_outreach: first (0), follow_up (+3), follow_up (+4), breakup (+7).
  const sales = findTemplate('sales_outreach') as OutreachTemplate;
  const at = (leadId: string, step: number, nextDay: string, thread: string[] = []): LeadTrack => ({ leadId, step, nextDay, subject: step < 0 ? '' : `Hi ${leadId}`, thread });
  const result = (leadId: string, step: number, outcome: BatchItemResult['outcome'], extra: Partial<BatchItemResult> = {}): BatchItemResult => ({ leadId, step, outcome, ...extra });

  it('a new lead awaits its first email on the day it was found', () => {
    expect(newLead('l1', '2026-03-02')).to.deep.equal({ leadId: 'l1', step: -1, nextDay: '2026-03-02', subject: '', thread: [] });
    expect(awaitingFirstEmail([newLead('l1', '2026-03-02'), at('l2', 0, '2026-03-05'), newLead('l3', '2026-03-03')])).to.equal(2);
  });

  describe('dueItems', () => {
    it('follow-ups first (they waited longest), then first emails, each in the order found', () => {
      const leads = [newLead('n1', '2026-03-05'), at('f1', 0, '2026-03-05'), newLead('n2', '2026-03-04'), at('f2', 1, '2026-03-03')];
      expect(dueItems(leads, '2026-03-05', sales).map((i) => [i.leadId, i.step])).to.deep.equal([
        ['f1', 1],
        ['f2', 2],
        ['n1', 0],
        ['n2', 0],
      ]);
    });

    it('not before their day', () => {
      const leads = [newLead('n1', '2026-03-06'), at('f1', 0, '2026-03-08')];
      expect(dueItems(leads, '2026-03-05', sales)).to.deep.equal([]);
      expect(dueItems(leads, '2026-03-08', sales).map((i) => i.leadId)).to.deep.equal(['f1', 'n1']);
    });

    it('each item names its step kind and delay, the previous subject and the thread', () => {
      const leads = [newLead('n1', '2026-03-05'), at('f1', 2, '2026-03-05', ['<a>', '<b>', '<c>'])];
      expect(dueItems(leads, '2026-03-05', sales)).to.deep.equal([
        { leadId: 'f1', step: 3, kind: 'breakup', delayDays: 7, previousSubject: 'Hi f1', thread: ['<a>', '<b>', '<c>'] },
        { leadId: 'n1', step: 0, kind: 'first', delayDays: 0, previousSubject: null, thread: [] },
      ]);
    });

    it('a lead past its last step is never due', () => {
      expect(dueItems([at('done', 3, '2026-03-01')], '2026-03-05', sales)).to.deep.equal([]);
    });
  });

  describe('applyBatch', () => {
    const day = '2026-03-05';

    it('sent: the next step is due its delay after the sending day, with the subject and thread kept', () => {
      const applied = applyBatch([newLead('n1', day), at('f1', 0, day, ['<f1.0>'])], [result('n1', 0, 'sent', { messageId: '<n1.0>', subject: 'Hello n1' }), result('f1', 1, 'sent', { messageId: '<f1.1>', subject: 'Re: Hi f1' })], day, sales);
      expect(applied.leads).to.deep.equal([
        { leadId: 'n1', step: 0, nextDay: '2026-03-08', subject: 'Hello n1', thread: ['<n1.0>'] },
        { leadId: 'f1', step: 1, nextDay: '2026-03-09', subject: 'Re: Hi f1', thread: ['<f1.0>', '<f1.1>'] },
      ]);
      expect(applied).to.deep.include({ sent: 2, contacted: 1, finished: 0, stopped: [] });
    });

    it('a step that leaves late (weekend, deferral) counts its delay from the day it left', () => {
      const applied = applyBatch([at('f1', 0, '2026-03-07')], [result('f1', 1, 'sent', { messageId: '<f1.1>' })], '2026-03-09', sales);
      expect(applied.leads[0]?.nextDay).to.equal('2026-03-13'); // Monday + 4
      expect(applied.leads[0]?.subject).to.equal('Hi f1'); // no subject in the result: the previous one stays
    });

    it('already_sent (an earlier attempt) counts as sent', () => {
      const applied = applyBatch([newLead('n1', day)], [result('n1', 0, 'already_sent', { messageId: '<n1.0>', subject: 'Hello' })], day, sales);
      expect(applied).to.deep.include({ sent: 1, contacted: 1 });
      expect(applied.leads[0]?.step).to.equal(0);
    });

    it('the last step finishes the sequence: the lead is no longer tracked', () => {
      const applied = applyBatch([at('f1', 2, day, ['<f1.0>', '<f1.1>', '<f1.2>'])], [result('f1', 3, 'sent', { messageId: '<x>' })], day, sales);
      expect(applied).to.deep.equal({ leads: [], sent: 1, contacted: 0, finished: 1, omitted: 0, stopped: [] });
    });

    it('stopped ends the sequence with its fact (suppressed when none is given)', () => {
      const applied = applyBatch([at('r', 0, day), at('b', 1, day), newLead('s', day)], [result('r', 1, 'stopped', { stopFact: 'replied' }), result('b', 2, 'stopped', { stopFact: 'bounced' }), result('s', 0, 'stopped')], day, sales);
      expect(applied).to.deep.equal({ leads: [], sent: 0, contacted: 0, finished: 0, omitted: 0, stopped: ['replied', 'bounced', 'suppressed'] });
    });

    it('deferred and skipped steps stay due, unchanged; so do leads without a result or with a stale one', () => {
      const leads = [at('d', 0, day), newLead('k', day), at('none', 1, day), at('stale', 1, day)];
      const applied = applyBatch(leads, [result('d', 1, 'deferred'), result('k', 0, 'skipped'), result('stale', 1, 'sent')], day, sales);
      expect(applied).to.deep.equal({ leads, sent: 0, contacted: 0, finished: 0, omitted: 0, stopped: [] });
    });

    it('an omitted step is passed over: the lead goes on to its next step after its delay, and counts as contacted only when an email first goes out', () => {
      const applied = applyBatch([newLead('o', day)], [result('o', 0, 'omitted', { omittedReason: 'no value for first_name' })], day, sales);
      expect(applied).to.deep.include({ sent: 0, contacted: 0, finished: 0, omitted: 1 });
      expect(applied.leads[0]).to.deep.include({ leadId: 'o', step: 0, nextDay: '2026-03-08', thread: [] });
      // Its next step is the first email that goes out: that is when the lead is contacted.
      const next = applyBatch(applied.leads, [result('o', 1, 'sent', { messageId: '<o.1>', subject: 'Hello' })], '2026-03-08', sales);
      expect(next).to.deep.include({ sent: 1, contacted: 1, omitted: 0 });
      // Passing over the last step ends the sequence like sending it.
      const last = applyBatch([at('l', 2, day)], [result('l', 3, 'omitted')], day, sales);
      expect(last).to.deep.include({ finished: 1, omitted: 1, leads: [] });
    });
  });

  it('countStop counts each fact; suppressed counts nothing', () => {
    const counters: CampaignCounters = { emailsSent: 0, leadsContacted: 0, sequencesFinished: 0, replied: 0, meetingsBooked: 0, unsubscribed: 0, bounced: 0 };
    for (const fact of ['replied', 'replied', 'meeting_booked', 'unsubscribed', 'bounced', 'suppressed'] as const) countStop(counters, fact);
    expect(counters).to.deep.equal({ emailsSent: 0, leadsContacted: 0, sequencesFinished: 0, replied: 2, meetingsBooked: 1, unsubscribed: 1, bounced: 1 });
  });
});
