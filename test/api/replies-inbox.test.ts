import { expect } from 'chai';
import { newId } from '../../src/accounts/ids';
import type { Campaign, Lead } from '../../src/db/models';
import type { ReplyCategory, ReplyKind, Sentiment } from '../../src/db/models/reply';
import { createAccount, request, surfaceB, useTestApi } from '../support/api';
import { seedCampaign, seedEmail, seedLead, seedReply } from '../support/campaign-seed';

interface Item {
  id: string;
  kind: string;
  campaignId: string | null;
  campaignName: string | null;
  leadId: string | null;
  email: string;
  name: string | null;
  company: string | null;
  title: string | null;
  subject: string | null;
  preview: string;
  category: string | null;
  sentiment: string | null;
  modelCategory: string | null;
  modelSentiment: string | null;
  userCategory: string | null;
  labelledAt: string | null;
  read: boolean;
  readAt: string | null;
  receivedAt: string;
  mailbox: { id: string; fromEmail: string } | null;
  bodyText?: string;
}

interface ListBody {
  replies: Item[];
  page: number;
  perPage: number;
  total: number;
  unread: number;
  error?: string;
}

// Fixed instants in the past: nothing depends on the time of day the suite runs at.
const at = (day: number, hour: number): Date => new Date(Date.UTC(2026, 2, day, hour, 0, 0));

describe('the reply inbox (GET /v1/replies, GET and PATCH /v1/replies/:id)', () => {
  const t = useTestApi();

  const get = <T = ListBody>(key: string, path: string) => request<T>(`${t.api.baseUrl}${path}`, { headers: surfaceB(key) });
  const patch = (key: string, id: string, body: unknown) =>
    request<Item & { error?: string }>(`${t.api.baseUrl}/v1/replies/${id}`, {
      method: 'PATCH',
      headers: { ...surfaceB(key), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function mailbox(accountId: string, fromEmail: string): Promise<string> {
    const id = newId('mbx');
    await t.db.sequelize.query(`INSERT INTO mailboxes (id, account_id, from_email, smtp_url) VALUES ($1, $2, $3, 'smtp://127.0.0.1:2525')`, { bind: [id, accountId, fromEmail] });
    return id;
  }

  interface Seeded {
    readonly id: string;
    readonly lead: Lead;
  }

  /** A lead of `c` emailed (from `mailboxId` when given) who answered at `receivedAt`, labelled as the qualifier would. */
  async function answer(
    c: Campaign,
    receivedAt: Date,
    o: { kind?: ReplyKind; category?: ReplyCategory | null; sentiment?: Sentiment | null; mailboxId?: string; preview?: string; fromEmail?: string } = {},
  ): Promise<Seeded> {
    const lead = await seedLead(c.accountId, { firstName: 'Ada', lastName: `Lead${receivedAt.getTime()}`, company: 'Engines Ltd', title: 'CTO' });
    const email = await seedEmail(c, lead, { sentAt: new Date(receivedAt.getTime() - 3_600_000) });
    if (o.mailboxId !== undefined) await t.db.sequelize.query(`UPDATE emails SET mailbox_id = $2 WHERE id = $1`, { bind: [email.id, o.mailboxId] });
    const reply = await seedReply(email, lead, {
      kind: o.kind,
      category: o.category,
      sentiment: o.sentiment,
      receivedAt,
      preview: o.preview ?? `Answer of ${receivedAt.toISOString()}`,
      ...(o.fromEmail === undefined ? {} : { fromEmail: o.fromEmail, fromName: 'Carl Colleague' }),
    });
    await t.db.sequelize.query(`UPDATE replies SET model_category = category, model_sentiment = sentiment WHERE id = $1`, { bind: [reply.id] });
    return { id: reply.id, lead };
  }

  describe('listing', () => {
    let key: string;
    let otherKey: string;
    let alpha: Campaign;
    let beta: Campaign;
    let mbxA: string;
    let mbxB: string;
    const ids: Record<string, string> = {};

    before(async () => {
      const owner = await createAccount(t.db.sequelize, 'free', 'Owner');
      key = owner.apiKey;
      const other = await createAccount(t.db.sequelize, 'free', 'Other');
      otherKey = other.apiKey;
      alpha = await seedCampaign(owner.accountId, { name: 'Alpha' });
      beta = await seedCampaign(owner.accountId, { name: 'Beta' });
      mbxA = await mailbox(owner.accountId, 'sam@alpha.example');
      mbxB = await mailbox(owner.accountId, 'sue@beta.example');
      // Oldest to newest; two at the same instant (ordered by id then).
      ids.a1 = (await answer(alpha, at(1, 9), { mailboxId: mbxA, category: 'interested', sentiment: 'positive' })).id;
      ids.b1 = (await answer(beta, at(2, 9), { mailboxId: mbxB, category: 'not_interested', sentiment: 'negative' })).id;
      ids.ooo = (await answer(alpha, at(3, 9), { mailboxId: mbxA, kind: 'auto_reply', category: 'out_of_office', sentiment: 'neutral' })).id;
      ids.bounce = (await answer(alpha, at(4, 9), { kind: 'bounce' })).id;
      ids.colleague = (await answer(beta, at(5, 9), { mailboxId: mbxB, category: 'interested', sentiment: 'positive', fromEmail: 'carl@engines.example' })).id;
      ids.same1 = (await answer(alpha, at(6, 9), { category: 'neutral', sentiment: 'neutral' })).id;
      ids.same2 = (await answer(alpha, at(6, 9), { category: 'neutral', sentiment: 'neutral' })).id;
      // Another account's replies never show.
      const foreign = await seedCampaign(other.accountId, { name: 'Foreign' });
      ids.foreign = (await answer(foreign, at(7, 9), { category: 'interested', sentiment: 'positive' })).id;
    });

    it('lists the replies and automatic answers of every campaign, newest first, bounces left out', async () => {
      const res = await get(key, '/v1/replies');
      expect(res.status, res.text).to.equal(200);
      const [later, earlier] = [ids.same1!, ids.same2!].sort().reverse();
      expect(res.body.replies.map((r) => r.id)).to.deep.equal([later, earlier, ids.colleague, ids.ooo, ids.b1, ids.a1]);
      expect(res.body).to.include({ page: 1, perPage: 20, total: 6, unread: 6 });

      const first = res.body.replies.find((r) => r.id === ids.a1)!;
      expect(first).to.deep.include({
        kind: 'reply',
        campaignId: alpha.id,
        campaignName: 'Alpha',
        name: `Ada Lead${at(1, 9).getTime()}`,
        company: 'Engines Ltd',
        title: 'CTO',
        subject: 'Re: Quick question',
        category: 'interested',
        sentiment: 'positive',
        modelCategory: 'interested',
        modelSentiment: 'positive',
        userCategory: null,
        labelledAt: null,
        read: false,
        readAt: null,
        receivedAt: at(1, 9).toISOString(),
        mailbox: { id: mbxA, fromEmail: 'sam@alpha.example' },
      });
      expect(first.leadId).to.match(/^lead_/);
      // A colleague answering: their own name, not the lead's title.
      expect(res.body.replies.find((r) => r.id === ids.colleague)).to.deep.include({ email: 'carl@engines.example', name: 'Carl Colleague', title: null });
      expect(res.body.replies.find((r) => r.id === ids.ooo)).to.include({ kind: 'auto_reply', category: 'out_of_office' });
      expect(res.body.replies.find((r) => r.id === ids.same1)?.mailbox).to.equal(null);

      const bounces = await get(key, '/v1/replies?kind=bounce');
      expect(bounces.body.replies.map((r) => r.id)).to.deep.equal([ids.bounce]);
      expect(bounces.body.replies[0]).to.include({ kind: 'bounce', category: null, sentiment: null });
    });

    it('filters by campaign, category, mailbox, kind and received dates, and pages', async () => {
      const idsOf = async (query: string): Promise<string[]> => {
        const res = await get(key, `/v1/replies?${query}`);
        expect(res.status, res.text).to.equal(200);
        return res.body.replies.map((r) => r.id);
      };
      expect(await idsOf(`campaignId=${beta.id}`)).to.deep.equal([ids.colleague, ids.b1]);
      expect(await idsOf('category=interested')).to.deep.equal([ids.colleague, ids.a1]);
      expect(await idsOf(`mailboxId=${mbxA}`)).to.deep.equal([ids.ooo, ids.a1]);
      expect(await idsOf(`mailboxId=${mbxA}&category=out_of_office`)).to.deep.equal([ids.ooo]);
      expect(await idsOf('kind=auto_reply')).to.deep.equal([ids.ooo]);
      // Days are whole UTC days, both ends included; date-times are instants.
      expect(await idsOf('receivedFrom=2026-03-02&receivedTo=2026-03-03')).to.deep.equal([ids.ooo, ids.b1]);
      expect(await idsOf('receivedFrom=2026-03-02T09:00:00Z&receivedTo=2026-03-03T08:59:59Z')).to.deep.equal([ids.b1]);
      expect(await idsOf('receivedTo=2026-03-01')).to.deep.equal([ids.a1]);
      expect(await idsOf('from=2026-03-02&to=2026-03-03')).to.deep.equal([ids.ooo, ids.b1]);
      expect(await idsOf(`campaignId=${newId('cmp')}`)).to.deep.equal([]);

      const page2 = await get(key, '/v1/replies?perPage=2&page=2');
      expect(page2.body).to.include({ page: 2, perPage: 2, total: 6, unread: 6 });
      expect(page2.body.replies.map((r) => r.id)).to.deep.equal([ids.colleague, ids.ooo]);
      const beyond = await get(key, '/v1/replies?perPage=2&page=9');
      expect(beyond.body.replies).to.deep.equal([]);
      expect(beyond.body.total).to.equal(6);
    });

    it('marks replies read and unread; unread filters and counts follow', async () => {
      const read = await patch(key, ids.b1!, { read: true });
      expect(read.status, read.text).to.equal(200);
      expect(read.body).to.include({ id: ids.b1, read: true, category: 'not_interested' });
      const firstReadAt = read.body.readAt;
      expect(Date.parse(firstReadAt!)).to.be.closeTo(Date.now(), 60_000);
      // Reading again keeps the first time.
      const again = await patch(key, ids.b1!, { read: true });
      expect(again.body.readAt).to.equal(firstReadAt);
      await patch(key, ids.a1!, { read: true });

      const unread = await get(key, '/v1/replies?unread=true');
      expect(unread.body.replies.map((r) => r.id)).to.not.include.members([ids.a1, ids.b1]);
      expect(unread.body).to.include({ total: 4, unread: 4 });
      const readOnes = await get(key, '/v1/replies?unread=false');
      expect(readOnes.body.replies.map((r) => r.id)).to.deep.equal([ids.b1, ids.a1]);
      expect(readOnes.body).to.include({ total: 2, unread: 4 });
      // The unread count is over the other filters.
      const alphaOnly = await get(key, `/v1/replies?campaignId=${alpha.id}`);
      expect(alphaOnly.body).to.include({ total: 4, unread: 3 });
      const unreadFirst = await get(key, '/v1/replies?unreadFirst=true');
      expect(unreadFirst.body.replies.slice(-2).map((r) => r.id)).to.deep.equal([ids.b1, ids.a1]);

      const back = await patch(key, ids.b1!, { read: false });
      expect(back.body).to.include({ read: false, readAt: null });
      expect((await get(key, '/v1/replies')).body.unread).to.equal(5);
    });

    it('shows one reply with its whole text; another account\'s or an unknown id is a 404', async () => {
      const res = await get<Item>(key, `/v1/replies/${ids.a1}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ id: ids.a1, bodyText: `Answer of ${at(1, 9).toISOString()}`, campaignName: 'Alpha' });
      for (const [k, id] of [
        [key, ids.foreign],
        [otherKey, ids.a1],
        [key, 'rpl_nothing'],
      ] as const) {
        const missing = await get<{ error: string }>(k, `/v1/replies/${id}`);
        expect(missing.status).to.equal(404);
        expect(missing.body).to.deep.equal({ error: 'Reply not found' });
        const patched = await patch(k, id!, { read: true });
        expect(patched.status).to.equal(404);
        expect(patched.body).to.deep.equal({ error: 'Reply not found' });
      }
      const foreign = await get<Item>(otherKey, `/v1/replies/${ids.foreign}`);
      expect(foreign.body.read).to.equal(false);
    });

    it('keeps the user\'s label beside the model\'s, and drops it back to the model\'s', async () => {
      const res = await patch(key, ids.same1!, { category: 'interested' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ category: 'interested', sentiment: 'positive', modelCategory: 'neutral', modelSentiment: 'neutral', userCategory: 'interested' });
      expect(Date.parse(res.body.labelledAt!)).to.be.closeTo(Date.now(), 60_000);
      expect((await get(key, '/v1/replies?category=interested')).body.replies.map((r) => r.id)).to.include(ids.same1);
      const dropped = await patch(key, ids.same1!, { category: null, read: true });
      expect(dropped.body).to.include({ category: 'neutral', sentiment: 'neutral', userCategory: null, read: true });
    });

    it('refuses bad input with a 400 naming the field, and a label on a bounce with a 409', async () => {
      const bad: Array<[string, RegExp]> = [
        ['category=maybe', /query\.category must be one of "interested"/],
        ['unread=perhaps', /query\.unread must be boolean/],
        ['kind=spam', /query\.kind must be one of/],
        ['receivedFrom=2026-02-30', /query\.receivedFrom/],
        ['receivedTo=yesterday', /query\.receivedTo/],
        ['receivedFrom=2026-03-05&receivedTo=2026-03-01', /receivedFrom must not be after query\.receivedTo/],
        ['from=2026-03-02&receivedFrom=2026-03-02', /receivedFrom or from, not both/],
        ['to=tomorrow', /query\.to/],
        ['perPage=101', /query\.perPage/],
        ['page=0', /query\.page/],
        ['colour=red', /unknown field "colour"/],
      ];
      for (const [query, message] of bad) {
        const res = await get<{ error: string }>(key, `/v1/replies?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error, query).to.match(message);
      }
      const badBodies: Array<[unknown, RegExp]> = [
        [{}, /body must NOT have fewer than 1 properties/],
        [{ category: 'thrilled' }, /body\.category must be one of "interested"/],
        [{ read: 'yes' }, /body\.read must be boolean/],
        [{ category: 'interested', note: 'x' }, /unknown field "note"/],
      ];
      for (const [body, message] of badBodies) {
        const res = await patch(key, ids.a1!, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error, JSON.stringify(body)).to.match(message);
      }
      const bounce = await patch(key, ids.bounce!, { category: 'interested' });
      expect(bounce.status).to.equal(409);
      expect(bounce.body.error).to.match(/A bounce has no category/);
      // Nothing was written by the refusals.
      const a1 = await get<Item>(key, `/v1/replies/${ids.a1}`);
      expect(a1.body).to.include({ category: 'interested', userCategory: null, labelledAt: null });
      expect((await get<Item>(key, `/v1/replies/${ids.bounce}`)).body).to.include({ category: null, userCategory: null });
    });
  });
});
