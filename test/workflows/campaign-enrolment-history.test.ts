import { expect } from 'chai';
import { HISTORY_TEMPLATE, measureEnrolmentHistory } from '../../bench/scenarios/enrol-history';
import { CampaignHarness } from './support/campaign-harness';

/**
 * Issue 27: a campaign of 50,000 leads in enrolment mode keeps a small workflow history. The whole
 * campaign (customer_feedback: 30 new leads a day, two steps five days apart) runs on the
 * time-skipping server with the fake activities (leadPool 50,000); every run's history is then
 * fetched and measured in protobuf bytes, as the server stores it (about a minute). The figures,
 * and what the per-lead-list runs carried instead: `npm run bench -- enrol-history`.
 */
const LEADS = 50_000;
const RUN_BOUND_BYTES = 2 * 1024 * 1024;
const EVENT_BOUND_BYTES = 64 * 1024;

describe('campaign enrolment history (time-skipping, fake activities, 50,000 leads)', function () {
  this.timeout(600_000);
  const h = new CampaignHarness();
  before(() => h.start());
  after(() => h.stop());

  it(`a whole ${HISTORY_TEMPLATE} campaign of 50,000 leads: every run's history under 2 MB, every event under 64 KB`, async () => {
    const m = await measureEnrolmentHistory(h, LEADS);
    expect(m.result).to.include({ status: 'completed', reason: 'schedule_complete' });
    expect(m.result.counters).to.include({ leadsContacted: LEADS, emailsSent: 2 * LEADS, sequencesFinished: LEADS });
    expect(m.runs).to.have.length(m.result.runs + 1);
    for (const [i, run] of m.runs.entries()) {
      expect(run.bytes, `run ${i + 1}'s history`).to.be.below(RUN_BOUND_BYTES);
      expect(run.largestEvent, `largest event of run ${i + 1} (${run.largestEventType})`).to.be.below(EVENT_BOUND_BYTES);
    }
  });
});
