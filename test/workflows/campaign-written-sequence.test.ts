import { Context } from '@temporalio/activity';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { createActivities } from '../../activities';
import { newId } from '../../src/accounts/ids';
import { workflowInputOf } from '../../src/campaigns/control/workflow-input';
import { planOf, type SequencePlan } from '../../src/campaigns/model/sequence';
import { chooseVariant } from '../../src/campaigns/sequences/choose';
import { insertSequence } from '../../src/campaigns/sequences/sequence-repository';
import { validateSequence } from '../../src/campaigns/sequences/validate-sequence';
import { Email } from '../../src/db/models';
import { createLogger } from '../../src/log/logger';
import { smtpTransports } from '../../src/sending/transports';
import { statusQuery, type DecideWinnersInput, type DecideWinnersResult } from '../../workflows/campaign/contract';
import { createAccount, testConfig } from '../support/api';
import { seedCampaign, seedFact } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { TestSmtpSink } from '../support/smtp-sink';
import { at, firstDateAfter, MINUTE, plusDays, utcDate, type CampaignHandle } from './support/campaign-harness';
import { leadId, type ItemContext } from './support/fake-activities';
import { RealCampaignHarness } from './support/real-campaign-harness';

/**
 * A campaign's written sequence (its plan in the workflow input: `sequence`) over simulated days:
 * the plan's own delays, steps passed over (`omitted`) for a lead, and the variant tests decided
 * before sending days (`decideVariantWinners`). First with the fake activities, then with the real
 * ones against PostgreSQL and an SMTP sink: a test decided on the campaign's stored figures, stored,
 * announced once, and every later send of the step written as the winner. S is the start date; the
 * sending window is the default 09:00-17:00 UTC, daily.
 */
describe('campaign workflow with a written sequence (time-skipping)', function () {
  this.timeout(120_000);
  const h = new RealCampaignHarness();
  before(() => h.start());
  after(() => h.stop());

  const days = (start: string, offsets: number[]): string[] => offsets.map((n) => plusDays(start, n));
  /** A plan of three steps, 0, 2 and 5 days apart (the template, sales_outreach, has 0, 3, 4, 7). */
  const plan = (autoWinnerSteps: number[] = []): SequencePlan => ({
    version: 1,
    steps: [
      { delayDays: 0, kind: 'first' },
      { delayDays: 2, kind: 'follow_up' },
      { delayDays: 5, kind: 'breakup' },
    ],
    autoWinnerSteps,
  });
  /** The Markdown the workflow shows as its current details in the Web UI. */
  const currentDetails = async (handle: CampaignHandle): Promise<string> => (await handle.query<{ currentDetails: string }>('__temporal_workflow_metadata')).currentDetails;

  describe('fake activities', () => {
    it("the plan's own delays: steps on S, S+2, S+7 (not the template's S+3, S+7, S+14); schedule complete (S .. S+7)", async () => {
      const startDate = firstDateAfter(await h.now(), () => true);
      await h.campaign({ startDate, sequence: plan() }, { leadPool: 2 }, async ({ fake, handle }) => {
        await h.sleepUntil(at(plusDays(startDate, 2), '12:00'));
        expect(await currentDetails(handle)).to.contain('**Sequence** version 1, 3 steps').and.contain('0 steps passed over').and.not.contain('Variant tests');
        const result = await h.resultBy(handle, at(plusDays(startDate, 7), '10:00'));
        expect(result).to.include({ status: 'completed', reason: 'schedule_complete' });
        expect(result.counters).to.deep.equal({ emailsSent: 6, leadsContacted: 2, sequencesFinished: 2, replied: 0, meetingsBooked: 0, unsubscribed: 0, bounced: 0 });
        for (const lead of [leadId(1), leadId(2)]) expect(fake.stepDays(lead), lead).to.deep.equal(days(startDate, [0, 2, 7]));
        // Only three sending days had anything due; every batch names the sequence version to write from.
        expect(fake.batches.map((b) => b.calledDay)).to.deep.equal(days(startDate, [0, 2, 7]));
        expect(fake.batches.every((b) => b.input.sequenceVersion === 1)).to.equal(true);
        const items = fake.batches.flatMap((b) => b.input.items.filter((i) => i.leadId === leadId(1)));
        expect(items.map((i) => [i.step, i.kind, i.delayDays])).to.deep.equal([
          [0, 'first', 0],
          [1, 'follow_up', 2],
          [2, 'breakup', 5],
        ]);
        // No variant test in the plan: nothing to decide.
        expect(fake.winnerChecks).to.deep.equal([]);
      });
    });

    it('a step passed over (omitted) moves the lead on after its delay without counting a send; the last one passed over finishes the sequence; then schedule complete (S .. S+7)', async () => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const [a, b, c] = [leadId(1), leadId(2), leadId(3)];
      // A: its follow-up (step 1) passed over; B: its last step (2); C: its first email (0).
      const omit: Record<string, number> = { [a]: 1, [b]: 2, [c]: 0 };
      const decide = (item: { leadId: string; step: number }): 'omitted' | undefined => (omit[item.leadId] === item.step ? 'omitted' : undefined);
      await h.campaign({ startDate, sequence: plan() }, { leadPool: 3, decide }, async ({ fake, handle }) => {
        await h.sleepUntil(at(plusDays(startDate, 1), '12:00'));
        let view = await handle.query(statusQuery);
        expect(view.counters).to.include({ emailsSent: 2, leadsContacted: 2, stepsOmitted: 1, sequencesFinished: 0 });
        expect(view.activeLeads).to.equal(3);

        await h.sleepUntil(at(plusDays(startDate, 2), '12:00'));
        view = await handle.query(statusQuery);
        // S+2: A's step 1 passed over; B's and C's step 1 sent (C's first email that went out: contacted now).
        expect(view.counters).to.include({ emailsSent: 4, leadsContacted: 3, stepsOmitted: 2, sequencesFinished: 0 });
        expect(view.activeLeads).to.equal(3);
        expect(view.status).to.equal('running');

        const result = await h.resultBy(handle, at(plusDays(startDate, 7), '10:00'));
        expect(result).to.include({ status: 'completed', reason: 'schedule_complete' });
        expect(result.counters).to.deep.equal({ emailsSent: 6, leadsContacted: 3, sequencesFinished: 3, replied: 0, meetingsBooked: 0, unsubscribed: 0, bounced: 0, stepsOmitted: 3 });
        expect(result.activeLeads).to.equal(0);

        // A passed over step 1 on S+2 and got step 2 five days later, as if step 1 had gone out.
        expect(fake.itemsOf(a)).to.deep.equal([
          { step: 0, day: startDate },
          { step: 1, day: plusDays(startDate, 2) },
          { step: 2, day: plusDays(startDate, 7) },
        ]);
        expect(fake.stepDays(a)).to.deep.equal(days(startDate, [0, 7]));
        // B's last step passed over on S+7: its sequence finished, nothing more for it.
        expect(fake.stepDays(b)).to.deep.equal(days(startDate, [0, 2]));
        expect(fake.itemsOf(b).map((i) => i.step)).to.deep.equal([0, 1, 2]);
        expect(fake.stepDays(c)).to.deep.equal(days(startDate, [2, 7]));
        // Completed by the batch of S+7 itself: no later sending day.
        expect(fake.batches.map((x) => x.calledDay)).to.deep.equal(days(startDate, [0, 2, 7]));
        const completed = fake.transitions.find((t) => t.status === 'completed');
        expect(completed?.reason).to.equal('schedule_complete');
        expect(completed?.calledDay).to.equal(plusDays(startDate, 7));
      });
    });

    it('a last step passed over while another lead is still under way does not complete the campaign (S .. S+9)', async () => {
      const startDate = firstDateAfter(await h.now(), () => true);
      // Lead 1 on S: its last step (S+7) passed over. Lead 2 on S+2 (its first email deferred twice) ends on S+9.
      const decide = (item: { leadId: string; step: number }, ctx: ItemContext): 'omitted' | 'deferred' | undefined => {
        if (item.leadId === leadId(1) && item.step === 2) return 'omitted';
        if (item.leadId === leadId(2) && ctx.day < plusDays(startDate, 2)) return 'deferred';
        return undefined;
      };
      await h.campaign({ startDate, sequence: plan() }, { leadPool: 2, decide }, async ({ fake, handle }) => {
        await h.sleepUntil(at(plusDays(startDate, 8), '12:00'));
        const view = await handle.query(statusQuery);
        expect(view).to.include({ status: 'running', activeLeads: 1 });
        expect(view.counters).to.include({ sequencesFinished: 1, stepsOmitted: 1, emailsSent: 4 });
        const result = await h.resultBy(handle, at(plusDays(startDate, 9), '10:00'));
        expect(result).to.include({ status: 'completed', reason: 'schedule_complete' });
        expect(result.counters).to.include({ emailsSent: 5, sequencesFinished: 2, stepsOmitted: 1 });
        expect(fake.stepDays(leadId(2))).to.deep.equal(days(startDate, [2, 4, 9]));
      });
    });

    it('decideVariantWinners: first on the day after the first email went out (not S, not S+1 when S sent nothing), before the batch; a decided step is not asked again; none once all are decided (S .. S+8)', async () => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const S = (n: number): string => plusDays(startDate, n);
      // Everything deferred on S: the first emails go out on S+1. Step 0's test is decided on S+3, step 1's on S+4.
      const decide = (_item: unknown, ctx: ItemContext): 'deferred' | undefined => (ctx.day === startDate ? 'deferred' : undefined);
      const winners = (_input: DecideWinnersInput, call: { calledDay: string }): DecideWinnersResult['decided'] => {
        if (call.calledDay === S(3)) return [{ step: 0, variant: 'B' }];
        if (call.calledDay === S(4)) return [{ step: 1, variant: 'A' }];
        return [];
      };
      await h.campaign({ startDate, trialDays: 8, sequence: plan([0, 1]) }, { leadPool: 2, decide, winners }, async ({ fake, handle, input }) => {
        await h.sleepUntil(at(S(2), '12:00'));
        expect(await currentDetails(handle)).to.contain('**Variant tests** step 1: testing, step 2: testing');
        await h.sleepUntil(at(S(3), '12:00'));
        expect(await currentDetails(handle)).to.contain('**Variant tests** step 1: variant B won, step 2: testing');
        await h.sleepUntil(at(S(5), '12:00'));
        expect(await currentDetails(handle)).to.contain('**Variant tests** step 1: variant B won, step 2: variant A won');

        const result = await h.resultBy(handle, at(S(8)) + MINUTE);
        expect(result).to.include({ status: 'completed', reason: 'trial_ended' });
        expect(fake.winnerChecks.map((w) => [w.calledDay, w.input.steps, w.result.decided])).to.deep.equal([
          [S(2), [0, 1], []],
          [S(3), [0, 1], [{ step: 0, variant: 'B' }]],
          [S(4), [1], [{ step: 1, variant: 'A' }]],
        ]);
        expect(fake.winnerChecks[0]?.input).to.deep.equal({ campaignId: input.campaignId, accountId: 'acc_test', sequenceVersion: 1, steps: [0, 1] });
        // Emails on S+1 (first) and S+3 (follow-up); the sending days went on to S+7 (each plans
        // new leads) without asking again.
        expect(fake.batches.map((b) => b.calledDay)).to.deep.equal([S(0), S(1), S(3)]);
        expect(fake.batches[0]?.result.results.map((r) => r.outcome)).to.deep.equal(['deferred', 'deferred']);
        expect(fake.plans.map((p) => p.calledDay)).to.include.members([S(5), S(6), S(7)]);
        // Each check comes before that day's lead planning and batch.
        for (const check of fake.winnerChecks) {
          const sameDay = fake.calls.filter((c) => c.calledDay === check.calledDay && c.name !== 'recordCampaignTransition').map((c) => c.name);
          expect(sameDay[0], check.calledDay).to.equal('decideVariantWinners');
        }
      });
    });

    it('decided winners are carried over continue-as-new: the next runs never ask for a decided step (S .. S+7)', async () => {
      const startDate = firstDateAfter(await h.now(), () => true);
      const winners = (input: DecideWinnersInput): DecideWinnersResult['decided'] => (input.steps.includes(0) ? [{ step: 0, variant: 'B' }] : []);
      await h.campaign({ startDate, sequence: plan([0, 1]), maxHistoryEvents: 40 }, { leadPool: 2, winners }, async ({ fake, handle }) => {
        const result = await h.resultBy(handle, at(plusDays(startDate, 7), '10:00'));
        expect(result).to.include({ status: 'completed', reason: 'schedule_complete' });
        expect(result.runs).to.be.greaterThan(0);
        const [first, ...later] = fake.winnerChecks;
        expect(first).to.deep.include({ calledDay: plusDays(startDate, 1) });
        expect(first?.input.steps).to.deep.equal([0, 1]);
        expect(later.length).to.be.greaterThan(0);
        expect(later.map((w) => w.input.steps)).to.deep.equal(later.map(() => [1]));
        // Some of these asks came from a later run, which knew step 0 was decided from the state carried to it.
        expect(later.some((w) => w.runId !== first?.runId)).to.equal(true);
      });
    });

    it('a campaign without a sequence in its input follows its template (S, S+3, S+7, S+14) and never calls decideVariantWinners (S .. S+14)', async () => {
      const startDate = firstDateAfter(await h.now(), () => true);
      await h.campaign({ startDate }, { leadPool: 2, winners: () => [{ step: 0, variant: 'B' }] }, async ({ fake, handle }) => {
        await h.sleepUntil(at(plusDays(startDate, 3), '12:00'));
        expect(await currentDetails(handle)).to.contain('**Emails** 4 sent').and.not.contain('**Sequence**');
        const result = await h.resultBy(handle, at(plusDays(startDate, 14), '10:00'));
        expect(result).to.include({ status: 'completed', reason: 'schedule_complete' });
        expect(fake.stepDays(leadId(1))).to.deep.equal(days(startDate, [0, 3, 7, 14]));
        expect(fake.winnerChecks).to.deep.equal([]);
        expect(fake.calls.map((c) => c.name)).to.not.include('decideVariantWinners');
        expect(fake.batches.every((b) => b.input.sequenceVersion === undefined)).to.equal(true);
      });
    });
  });

  describe('real activities (PostgreSQL, SMTP sink)', () => {
    let db: TestDatabase;
    let sink: TestSmtpSink;
    let site: FakeSite;
    const HOME = '<html><head><title>Acme Analytics</title><meta name="description" content="Dashboards for finance teams"></head><body><h1>Acme Analytics</h1></body></html>';

    before(async () => {
      [db, sink, site] = await Promise.all([createTestDatabase(), TestSmtpSink.start(), startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }))]);
    });
    after(async () => {
      await smtpTransports.closeAll();
      await sink?.close();
      await site?.close();
      await db?.drop();
    });

    const rows = <T extends object>(sql: string, bind: unknown[]): Promise<T[]> => db.sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });

    it("step 1's A/B test is decided on S+1 on the stored figures (B: 9 replies of 12, A: none): stored and announced once, the new leads of S+1 all get B, and it is not decided again (S .. S+3)", async () => {
      const { accountId } = await createAccount(db.sequelize, 'pro');
      const domain = `written-seq-${randomBytes(4).toString('hex')}.example`;
      const sequence = validateSequence(
        [
          {
            delayDays: 0,
            variants: [
              { weight: 1, mode: 'template', subject: 'A: a question for {{ company }}', body: 'Hi {{ first_name }},\n\nVariant A asks for a call.' },
              { weight: 1, mode: 'template', subject: 'B: {{ first_name }}, an idea for {{ company }}', body: 'Hi {{ first_name }},\n\nVariant B offers a summary.' },
            ],
            autoWinner: { metric: 'reply_rate', minSends: 10, confidence: 0.95 },
          },
          {
            delayDays: 2,
            variants: [
              { weight: 1, mode: 'template', subject: 'Follow-up A for {{ company }}', body: 'Hi {{ first_name }},\n\nFollow-up A.' },
              { weight: 1, mode: 'template', subject: 'Follow-up B for {{ company }}', body: 'Hi {{ first_name }},\n\nFollow-up B.' },
            ],
          },
        ],
        'camel',
      );
      const firstStep = sequence.steps[0]!.variants;
      /** The variant a lead would be drawn at step 1 without a winner (the batch's own choice, src/campaigns/sequences/choose.ts). */
      const drawn = (id: string): string => chooseVariant(firstStep, id, 0).id;

      /** Inserts leads (first names Lead1, Lead2, ...) whose drawn variant is what `want` asks for, in order. */
      let n = 0;
      const insertLeads = async (want: string[]): Promise<string[]> => {
        const ids: string[] = [];
        for (const variant of want) {
          let id = newId('lead');
          while (drawn(id) !== variant) id = newId('lead');
          n++;
          await db.sequelize.query(`INSERT INTO leads (id, account_id, email, first_name, last_name, title, company, source) VALUES ($1, $2, $3, $4, 'Weber', 'CTO', $5, 'import')`, {
            bind: [id, accountId, `lead${n}@${domain}`, `Lead${n}`, `Company ${n}`],
          });
          ids.push(id);
        }
        return ids;
      };

      // sales_outreach takes 25 new leads a day: the 24 leads of S (12 drawn A, 12 drawn B) all go out on S.
      const S = firstDateAfter(await h.now(), () => true);
      const day = (k: number): string => plusDays(S, k);
      const firstLeads = await insertLeads([...Array<string>(12).fill('A'), ...Array<string>(12).fill('B')]);
      const campaign = await seedCampaign(accountId, { status: 'starting', targetUrl: site.origin, scheduleStartDate: S });
      await db.sequelize.transaction((tx) => insertSequence(db.sequelize, tx, campaign.id, 1, sequence));
      const input = workflowInputOf(campaign, { sequence: planOf(sequence, 1) });
      expect(input.sequence).to.deep.equal({
        version: 1,
        steps: [
          { delayDays: 0, kind: 'first' },
          { delayDays: 2, kind: 'follow_up' },
        ],
        autoWinnerSteps: [0],
      });
      expect(input.mcp).to.equal('sales_outreach');

      const real = createActivities({
        sequelize: db.sequelize,
        config: testConfig({ SMTP_SINK_PORT: String(sink.port), DEFAULT_FROM_EMAIL: 'outreach@sender.example' }),
        log: createLogger('silent', 'test'),
      });
      // The real activity, with each call kept (with the simulated day it was scheduled on).
      const decisions: Array<{ day: string; input: DecideWinnersInput; result: DecideWinnersResult }> = [];
      const activities = {
        ...real,
        decideVariantWinners: async (i: DecideWinnersInput): Promise<DecideWinnersResult> => {
          const result = await real.decideVariantWinners(i);
          decisions.push({ day: utcDate(Context.current().info.currentAttemptScheduledTimestampMs), input: i, result });
          return result;
        },
      };

      const emailsOf = (step: number): Promise<Array<{ lead_id: string; variant: string | null; subject: string; company: string }>> =>
        rows(`SELECT e.lead_id, e.variant, e.subject, l.company FROM emails e JOIN leads l ON l.id = e.lead_id WHERE e.campaign_id = $1 AND e.step = $2 AND e.status = 'sent' ORDER BY e.lead_id`, [
          campaign.id,
          step,
        ]);
      const winnerRows = (): Promise<Array<{ step: number; variant: string; metric: string; sequence_version: number; figures: { variants: unknown[]; pValue: number; confidence: number } }>> =>
        rows(`SELECT step, variant, metric, sequence_version, figures FROM variant_winners WHERE campaign_id = $1`, [campaign.id]);
      const winnerEvents = (): Promise<Array<{ data: Record<string, unknown> }>> => rows(`SELECT data FROM outbox WHERE campaign_id = $1 AND event = 'campaign.variant_winner'`, [campaign.id]);
      const received = (): Promise<Array<{ to: string; subject: string }>> =>
        Promise.all(
          sink.messages
            .filter((m) => m.to.some((a) => a.endsWith(`@${domain}`)))
            .map(async (m) => ({ to: m.to.find((a) => a.endsWith(`@${domain}`)) as string, subject: (await sink.parse(m)).subject ?? '' })),
        );

      await h.realCampaign(input, activities, async (handle) => {
        // Day S: every first lead emailed with the variant drawn for it; no test to check yet.
        await h.sleepUntil(at(S, '17:00'));
        const dayS = await emailsOf(0);
        expect(dayS).to.have.length(24);
        expect(dayS.filter((e) => e.variant === 'A').map((e) => e.lead_id).sort()).to.deep.equal(firstLeads.slice(0, 12).sort());
        expect(dayS.filter((e) => e.variant === 'B').map((e) => e.lead_id).sort()).to.deep.equal(firstLeads.slice(12).sort());
        expect((await received()).filter((m) => m.subject.startsWith('B: '))).to.have.length(12);
        expect(decisions).to.deep.equal([]);
        // The sink accepted each: 'delivered' facts, the test's denominator.
        const delivered = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM email_events WHERE campaign_id = $1 AND type = 'delivered'`, [campaign.id]);
        expect(delivered[0]?.n).to.equal(24);

        // Replies to 9 of B's 12 emails, none to A's.
        const bEmails = await Email.findAll({ where: { campaignId: campaign.id, step: 0, variant: 'B' }, order: [['leadId', 'ASC']] });
        for (const email of bEmails.slice(0, 9)) await seedFact(email, 'replied', { dedupeKey: `replied:${email.id}` });
        // Leads found on S+1, every one of which would be drawn A without a winner.
        const laterLeads = await insertLeads(Array<string>(10).fill('A'));

        // S+1: the test is checked before the day's batch and decided for B.
        await h.sleepUntil(at(day(1), '17:00'));
        expect(decisions.map((d) => [d.day, d.input, d.result])).to.deep.equal([
          [day(1), { campaignId: campaign.id, accountId, sequenceVersion: 1, steps: [0] }, { decided: [{ step: 0, variant: 'B' }] }],
        ]);
        const [winner, ...moreWinners] = await winnerRows();
        expect(moreWinners).to.deep.equal([]);
        expect(winner).to.deep.include({ step: 0, variant: 'B', metric: 'reply_rate', sequence_version: 1 });
        // Two-proportion z-test, pooled: 9/12 against 0/12.
        const pooled = 9 / 24;
        const z = (9 / 12 - 0 / 12) / Math.sqrt(pooled * (1 - pooled) * (1 / 12 + 1 / 12));
        expect(z).to.be.closeTo(3.795, 0.001);
        expect(winner!.figures.pValue).to.be.below(0.05).and.to.be.closeTo(0.000148, 0.00001);
        expect(winner!.figures).to.deep.equal({
          variants: [
            { variant: 'A', sent: 12, delivered: 12, successes: 0, rate: 0 },
            { variant: 'B', sent: 12, delivered: 12, successes: 9, rate: 0.75 },
          ],
          pValue: winner!.figures.pValue,
          confidence: 0.95,
        });
        const events = await winnerEvents();
        expect(events).to.have.length(1);
        expect(events[0]!.data).to.deep.equal({
          step: 1,
          variant: 'B',
          metric: 'reply_rate',
          min_sends: 10,
          confidence: 0.95,
          p_value: winner!.figures.pValue,
          variants: winner!.figures.variants,
        });
        expect(await currentDetails(handle)).to.contain('**Variant tests** step 1: variant B won');

        // The leads of S+1 all got B (their draw was A).
        const dayS1 = (await emailsOf(0)).filter((e) => laterLeads.includes(e.lead_id));
        expect(dayS1).to.have.length(10);
        expect(dayS1.map((e) => e.variant)).to.deep.equal(Array<string>(10).fill('B'));
        const laterAddresses = new Set(Array.from({ length: 10 }, (_v, i) => `lead${25 + i}@${domain}`));
        const laterMails = (await received()).filter((m) => laterAddresses.has(m.to));
        expect(laterMails).to.have.length(10);
        for (const m of laterMails) expect(m.subject).to.match(/^B: Lead\d+, an idea for Company \d+$/);

        // S+2 and S+3: the follow-ups (no test on them); the decision is not taken again.
        await h.sleepUntil(at(day(3), '17:00'));
        expect(decisions).to.have.length(1);
        expect(await winnerRows()).to.have.length(1);
        expect(await winnerEvents()).to.have.length(1);
        const followUps = await emailsOf(1);
        // The 9 leads who replied are stopped; 15 of S and 10 of S+1 got their follow-up.
        expect(followUps).to.have.length(25);
        const replied = new Set(bEmails.slice(0, 9).map((e) => e.leadId));
        expect(followUps.some((e) => replied.has(e.lead_id))).to.equal(false);
        // Step 2 has no test: its variants are still drawn (both appear), each email with its variant's own subject.
        for (const e of followUps) expect(e.subject).to.equal(`Follow-up ${e.variant ?? '?'} for ${e.company}`);
        expect(new Set(followUps.map((e) => e.variant))).to.deep.equal(new Set(['A', 'B']));
        expect((await emailsOf(0)).filter((e) => laterLeads.includes(e.lead_id)).every((e) => e.variant === 'B')).to.equal(true);

        // Every sequence ended with S+3's batch (the lead search found nobody new since S+2): completed.
        const view = await handle.query(statusQuery);
        expect(view).to.include({ status: 'completed', reason: 'schedule_complete', activeLeads: 0 });
        expect(view.counters).to.include({ emailsSent: 24 + 10 + 25, leadsContacted: 34, replied: 9, sequencesFinished: 25 });
      });
    });
  });
});
