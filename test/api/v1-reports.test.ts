import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Campaign } from '../../src/db/models';
import { Cost } from '../../src/db/models';
import type { CostCategory } from '../../src/db/models/cost';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';
import { seedCampaign, seedEmail, seedFact, seedOutcome, seedReply } from '../support/campaign-seed';

const DAY = 86_400_000;
const utcDay = (t: number): string => new Date(t).toISOString().slice(0, 10);

interface CostsBody {
  groupBy: string;
  brandId: string | null;
  from: string | null;
  to: string | null;
  totalCostUsd: number;
  groups: Array<{ key: string | null; totalCostUsd: number; quantity: number; events: number }>;
  error?: string;
}

interface CostRow {
  readonly costName: string;
  readonly featureSlug: string;
  readonly amountUsd: number;
  readonly campaign?: Campaign | null;
  /** What the cost row itself records; default: its campaign's brand. */
  readonly brandId?: string | null;
  readonly quantity?: number;
  readonly at?: Date;
}

const CATEGORY_OF: Readonly<Record<string, CostCategory>> = {
  'email-sending': 'email_sending',
  'email-writing': 'ai_generation',
  'reply-qualification': 'ai_generation',
  'lead-enrichment': 'lead_enrichment',
};

async function seedCostRow(accountId: string, r: CostRow): Promise<void> {
  await Cost.create({
    accountId,
    campaignId: r.campaign?.id ?? null,
    category: CATEGORY_OF[r.featureSlug]!,
    costName: r.costName,
    featureSlug: r.featureSlug,
    brandId: r.brandId === undefined ? (r.campaign?.brandId ?? null) : r.brandId,
    amountUsd: r.amountUsd.toFixed(6),
    quantity: r.quantity ?? 1,
    idempotencyKey: `test:${randomBytes(8).toString('hex')}`,
    occurredAt: r.at ?? new Date(),
  });
}

describe('Surface B statistics: GET /v1/runs/stats/costs and GET /v1/email-gateway/stats', () => {
  const t = useTestApi();
  let key: string;
  let accountId: string;
  let otherAccountId: string;
  let acme1: Campaign;
  let acme2: Campaign;
  let beta: Campaign;
  let legacy: Campaign;

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Owner'));
    ({ accountId: otherAccountId } = await createAccount(t.db.sequelize, 'free', 'Other'));
    acme1 = await seedCampaign(accountId, { targetUrl: 'https://www.acme.com', brandId: 'acme.com' });
    acme2 = await seedCampaign(accountId, { createdVia: 'b', targetUrl: 'acme.com/en', brandId: 'acme.com' });
    beta = await seedCampaign(accountId, { createdVia: 'b', targetUrl: 'https://beta.io', brandId: 'beta.io' });
    // A campaign stored before brands were recorded: counted for the account, under no brand.
    legacy = await seedCampaign(accountId, { targetUrl: 'https://legacy.example', brandId: null });
  });

  const get = <T>(path: string, k = key) => request<T>(`${t.api.baseUrl}${path}`, { headers: surfaceB(k) });

  describe('GET /v1/runs/stats/costs', () => {
    before(async () => {
      // acme.com: 3 emails sent (0.001 each), 2 LLM writes (0.0125 + 0.0075), and an email 10 days ago (0.5).
      for (let i = 0; i < 3; i++) await seedCostRow(accountId, { costName: 'smtp', featureSlug: 'email-sending', amountUsd: 0.001, campaign: acme1 });
      await seedCostRow(accountId, { costName: 'openai:gpt-4o-mini', featureSlug: 'email-writing', amountUsd: 0.0125, campaign: acme2 });
      await seedCostRow(accountId, { costName: 'openai:gpt-4o-mini', featureSlug: 'email-writing', amountUsd: 0.0075, campaign: acme2 });
      await seedCostRow(accountId, { costName: 'smtp', featureSlug: 'email-sending', amountUsd: 0.5, campaign: acme1, at: new Date(Date.now() - 10 * DAY) });
      // beta.io: a provider match recorded without the brand on its row (it is its campaign's), and one email.
      await seedCostRow(accountId, { costName: 'apollo:people_match', featureSlug: 'lead-enrichment', amountUsd: 0.05, campaign: beta, brandId: null });
      await seedCostRow(accountId, { costName: 'smtp', featureSlug: 'email-sending', amountUsd: 0.001, campaign: beta });
      // No campaign and no brand: a POST /v1/qualify with the account's LLM key.
      await seedCostRow(accountId, { costName: 'openai:gpt-4o-mini', featureSlug: 'reply-qualification', amountUsd: 0.004 });
      // Another account's spend on the same brand is never counted.
      const theirs = await seedCampaign(otherAccountId, { brandId: 'acme.com' });
      await seedCostRow(otherAccountId, { costName: 'smtp', featureSlug: 'email-sending', amountUsd: 100, campaign: theirs });
    });

    it('groups by costName by default, most expensive first, with quantities and record counts', async () => {
      const res = await get<CostsBody>('/v1/runs/stats/costs');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({
        groupBy: 'costName',
        brandId: null,
        from: null,
        to: null,
        totalCostUsd: 0.578,
        groups: [
          { key: 'smtp', totalCostUsd: 0.504, quantity: 5, events: 5 },
          { key: 'apollo:people_match', totalCostUsd: 0.05, quantity: 1, events: 1 },
          { key: 'openai:gpt-4o-mini', totalCostUsd: 0.024, quantity: 3, events: 3 },
        ],
      });
      expect((await get<CostsBody>('/v1/runs/stats/costs?groupBy=costName')).body).to.deep.equal(res.body);
    });

    it('groups by featureSlug', async () => {
      const res = await get<CostsBody>('/v1/runs/stats/costs?groupBy=featureSlug');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.totalCostUsd).to.equal(0.578);
      expect(res.body.groups).to.deep.equal([
        { key: 'email-sending', totalCostUsd: 0.504, quantity: 5, events: 5 },
        { key: 'lead-enrichment', totalCostUsd: 0.05, quantity: 1, events: 1 },
        { key: 'email-writing', totalCostUsd: 0.02, quantity: 2, events: 2 },
        { key: 'reply-qualification', totalCostUsd: 0.004, quantity: 1, events: 1 },
      ]);
    });

    it('groups by brandId: a cost belongs to its campaign\'s brand; costs without a campaign have key null', async () => {
      const res = await get<CostsBody>('/v1/runs/stats/costs?groupBy=brandId');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.groupBy).to.equal('brandId');
      expect(res.body.groups).to.deep.equal([
        { key: 'acme.com', totalCostUsd: 0.523, quantity: 6, events: 6 },
        { key: 'beta.io', totalCostUsd: 0.051, quantity: 2, events: 2 },
        { key: null, totalCostUsd: 0.004, quantity: 1, events: 1 },
      ]);
    });

    it('filters by brandId, matched as brand ids are made (case and www. do not matter)', async () => {
      const res = await get<CostsBody>('/v1/runs/stats/costs?brandId=acme.com');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({ groupBy: 'costName', brandId: 'acme.com', totalCostUsd: 0.523 });
      expect(res.body.groups).to.deep.equal([
        { key: 'smtp', totalCostUsd: 0.503, quantity: 4, events: 4 },
        { key: 'openai:gpt-4o-mini', totalCostUsd: 0.02, quantity: 2, events: 2 },
      ]);
      expect((await get<CostsBody>('/v1/runs/stats/costs?brandId=WWW.Acme.com')).body).to.deep.equal(res.body);
      const beta = await get<CostsBody>('/v1/runs/stats/costs?brandId=beta.io&groupBy=brandId');
      expect(beta.body.groups).to.deep.equal([{ key: 'beta.io', totalCostUsd: 0.051, quantity: 2, events: 2 }]);
      const none = await get<CostsBody>('/v1/runs/stats/costs?brandId=nobody.example');
      expect(none.body).to.deep.include({ totalCostUsd: 0, groups: [] });
    });

    it('limits to UTC days from..to, both inclusive', async () => {
      const today = utcDay(Date.now());
      const tenDaysAgo = utcDay(Date.now() - 10 * DAY);
      const recent = await get<CostsBody>(`/v1/runs/stats/costs?from=${utcDay(Date.now() - DAY)}`);
      expect(recent.status, recent.text).to.equal(200);
      expect(recent.body.totalCostUsd).to.equal(0.078);
      expect(recent.body.groups[0]).to.deep.equal({ key: 'apollo:people_match', totalCostUsd: 0.05, quantity: 1, events: 1 });
      const thatDay = await get<CostsBody>(`/v1/runs/stats/costs?from=${tenDaysAgo}&to=${tenDaysAgo}`);
      expect(thatDay.body).to.deep.include({ from: tenDaysAgo, to: tenDaysAgo, totalCostUsd: 0.5 });
      expect(thatDay.body.groups).to.deep.equal([{ key: 'smtp', totalCostUsd: 0.5, quantity: 1, events: 1 }]);
      const untilYesterday = await get<CostsBody>(`/v1/runs/stats/costs?to=${utcDay(Date.now() - DAY)}`);
      expect(untilYesterday.body.totalCostUsd).to.equal(0.5);
      expect((await get<CostsBody>(`/v1/runs/stats/costs?from=${today}&to=${today}`)).body.totalCostUsd).to.equal(0.078);
      const widest = await get<CostsBody>('/v1/runs/stats/costs?from=1970-01-01&to=9999-12-30');
      expect(widest.status, widest.text).to.equal(200);
      expect(widest.body.totalCostUsd).to.equal(0.578);
    });

    it('orders equal costs by key, the group without a brand last', async () => {
      const { apiKey, accountId: id } = await createAccount(t.db.sequelize);
      const zeta = await seedCampaign(id, { brandId: 'zeta.example' });
      const alpha = await seedCampaign(id, { brandId: 'alpha.example' });
      await seedCostRow(id, { costName: 'smtp', featureSlug: 'email-sending', amountUsd: 0.25, campaign: zeta });
      await seedCostRow(id, { costName: 'smtp', featureSlug: 'email-sending', amountUsd: 0.25, campaign: alpha });
      await seedCostRow(id, { costName: 'anthropic:claude-haiku-4-5', featureSlug: 'reply-qualification', amountUsd: 0.25 });
      const res = await get<CostsBody>('/v1/runs/stats/costs?groupBy=brandId', apiKey);
      expect(res.body.groups.map((g) => g.key)).to.deep.equal(['alpha.example', 'zeta.example', null]);
      const byName = await get<CostsBody>('/v1/runs/stats/costs', apiKey);
      expect(byName.body.groups).to.deep.equal([
        { key: 'smtp', totalCostUsd: 0.5, quantity: 2, events: 2 },
        { key: 'anthropic:claude-haiku-4-5', totalCostUsd: 0.25, quantity: 1, events: 1 },
      ]);
    });

    it('an account without costs gets a zero total and no groups', async () => {
      const { apiKey } = await createAccount(t.db.sequelize);
      const res = await get<CostsBody>('/v1/runs/stats/costs?groupBy=featureSlug', apiKey);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ groupBy: 'featureSlug', brandId: null, from: null, to: null, totalCostUsd: 0, groups: [] });
    });

    it('refuses an unknown groupBy naming the valid values, bad dates, and a range that ends before it starts', async () => {
      const bad = await get<CostsBody>('/v1/runs/stats/costs?groupBy=campaign');
      expect(bad.status).to.equal(400);
      for (const value of ['costName', 'brandId', 'featureSlug']) expect(bad.body.error).to.include(value);
      const cases: Array<[string, RegExp]> = [
        ['from=2026-02-30', /from/],
        ['to=yesterday', /to/],
        ['from=2026-03-02&to=2026-03-01', /after/],
        ['from=0000-01-01', /query.from must be a date YYYY-MM-DD, a real day from 1970-01-01 to 9999-12-31/],
        ['to=10000-01-01', /query.to must be a date YYYY-MM-DD, a real day from 1970-01-01 to 9999-12-31/],
        ['brandId=', /brandId/],
        ['limit=5', /unknown field "limit"/],
      ];
      for (const [query, message] of cases) {
        const res = await get<CostsBody>(`/v1/runs/stats/costs?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error, query).to.match(message);
      }
    });

    it('is Surface B only: a Bearer key is 401', async () => {
      const res = await request(`${t.api.baseUrl}/v1/runs/stats/costs`, { headers: surfaceA(key) });
      expect(res.status).to.equal(401);
    });
  });

  describe('GET /v1/email-gateway/stats', () => {
    const ZERO = {
      emailsContacted: 0,
      emailsSent: 0,
      emailsDelivered: 0,
      emailsOpened: 0,
      emailsClicked: 0,
      emailsReplied: 0,
      emailsBounced: 0,
      repliesInterested: 0,
      repliesMeetingBooked: 0,
      repliesClosed: 0,
      repliesNeutral: 0,
      repliesNotInterested: 0,
      repliesOutOfOffice: 0,
      repliesUnsubscribe: 0,
    };
    const ACME = {
      emailsContacted: 4,
      emailsSent: 5,
      emailsDelivered: 4,
      emailsOpened: 2,
      emailsClicked: 1,
      emailsReplied: 2,
      emailsBounced: 1,
      repliesInterested: 1,
      repliesMeetingBooked: 1,
      repliesClosed: 0,
      repliesNeutral: 0,
      repliesNotInterested: 0,
      repliesOutOfOffice: 1,
      repliesUnsubscribe: 0,
    };
    const BETA = {
      emailsContacted: 2,
      emailsSent: 2,
      emailsDelivered: 2,
      emailsOpened: 1,
      emailsClicked: 0,
      emailsReplied: 2,
      emailsBounced: 0,
      repliesInterested: 0,
      repliesMeetingBooked: 0,
      repliesClosed: 0,
      repliesNeutral: 1,
      repliesNotInterested: 1,
      repliesOutOfOffice: 0,
      repliesUnsubscribe: 1,
    };

    before(async () => {
      // acme.com, first campaign: a lead emailed twice (opened, two links clicked, replied interested),
      // a hard bounce, and a lead whose out-of-office auto-reply is no reply but is an out_of_office answer.
      const first = await seedOutcome(acme1, { clicks: 2, replied: true });
      const followUp = await seedEmail(acme1, first.lead, { step: 1 });
      await seedFact(followUp, 'sent', { dedupeKey: `sent:${followUp.id}` });
      await seedFact(followUp, 'delivered', { dedupeKey: `delivered:${followUp.id}` });
      await seedOutcome(acme1, { hardBounce: true });
      const away = await seedOutcome(acme1, { opened: true });
      await seedReply(away.email, away.lead, { kind: 'auto_reply', category: 'out_of_office', sentiment: 'neutral' });
      // acme.com, second campaign: a meeting agreed by reply; a bounce message is no answer at all.
      const booked = await seedOutcome(acme2);
      await seedReply(booked.email, booked.lead, { category: 'meeting_booked', sentiment: 'positive' });
      await seedReply(booked.email, booked.lead, { kind: 'bounce' });
      // beta.io: a refusal, and an unsubscribe by reply followed by a second (neutral) message of the same lead.
      const declined = await seedOutcome(beta, { opened: true });
      await seedReply(declined.email, declined.lead, { category: 'not_interested', sentiment: 'negative' });
      const gone = await seedOutcome(beta, { unsubscribed: true });
      await seedReply(gone.email, gone.lead, { category: 'unsubscribe', sentiment: 'negative' });
      await seedReply(gone.email, gone.lead, { category: 'neutral', sentiment: 'neutral', fact: false });
      // A campaign without a brand: the account's figures only.
      const closed = await seedOutcome(legacy);
      await seedReply(closed.email, closed.lead, { category: 'closed', sentiment: 'positive' });
      // Another account's campaign of the same brand counts for nobody here.
      const theirs = await seedCampaign(otherAccountId, { brandId: 'acme.com' });
      const other = await seedOutcome(theirs, { clicks: 1, replied: true });
      await seedReply(other.email, other.lead, { category: 'closed', sentiment: 'positive', fact: false });
    });

    it('counts one brand\'s campaigns: exactly the fourteen integer members', async () => {
      const res = await get<Record<string, unknown>>('/v1/email-gateway/stats?brandId=acme.com');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal(ACME);
      expect((await get('/v1/email-gateway/stats?brandId=beta.io')).body).to.deep.equal(BETA);
      expect((await get('/v1/email-gateway/stats?brandId=www.ACME.com')).body).to.deep.equal(ACME);
    });

    it('without brandId counts every campaign of the account, brandless ones included', async () => {
      const res = await get<Record<string, number>>('/v1/email-gateway/stats');
      expect(res.status, res.text).to.equal(200);
      const expected = { ...ZERO };
      for (const k of Object.keys(ZERO) as Array<keyof typeof ZERO>) expected[k] = ACME[k] + BETA[k];
      Object.assign(expected, {
        emailsContacted: expected.emailsContacted + 1,
        emailsSent: expected.emailsSent + 1,
        emailsDelivered: expected.emailsDelivered + 1,
        emailsReplied: expected.emailsReplied + 1,
        repliesClosed: 1,
      });
      expect(res.body).to.deep.equal(expected);
      for (const v of Object.values(res.body)) expect(Number.isInteger(v)).to.equal(true);
    });

    it('an unknown brand, or an account without campaigns, is all zeros', async () => {
      expect((await get('/v1/email-gateway/stats?brandId=nobody.example')).body).to.deep.equal(ZERO);
      const { apiKey } = await createAccount(t.db.sequelize);
      expect((await get('/v1/email-gateway/stats', apiKey)).body).to.deep.equal(ZERO);
    });

    it('refuses unknown query fields', async () => {
      const res = await get<{ error: string }>('/v1/email-gateway/stats?brand=acme.com');
      expect(res.status).to.equal(400);
      expect(res.body.error).to.match(/unknown field "brand"/);
    });
  });
});
