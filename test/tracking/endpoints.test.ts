import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import fs from 'node:fs/promises';
import { QueryTypes } from 'sequelize';
import { TRANSPARENT_GIF } from '../../src/tracking/pixel';
import { request, useTestApi } from '../support/api';
import { createSentEmail, eventsOf, outboxOf } from './fixtures/emails';

describe('tracking endpoints: open pixel, click redirects, unsubscribe', () => {
  // Hits reach PostgreSQL only when a test flushes, so what a test sees never depends on timing.
  const t = useTestApi({ tracking: { flushIntervalMs: 3_600_000 } });
  const links = () => t.api.tracking.links;
  /** A link as the email carries it, pointed at the test server. */
  const local = (link: string): string => {
    const u = new URL(link);
    return `${t.api.baseUrl}${u.pathname}${u.search}`;
  };
  const flush = async (): Promise<void> => {
    expect(await t.api.tracking.recorder.flush()).to.equal(true);
  };
  const journalFiles = async (): Promise<string[]> => fs.readdir(t.api.tracking.recorder.dir);

  describe('GET /t/o/:token (open pixel)', () => {
    it('answers the transparent GIF on every load and records the open once, with the time of the first load', async () => {
      const email = await createSentEmail(t.db.sequelize);
      const url = local(links().openPixelUrl(email.emailId));
      const before = Date.now();
      const first = await fetch(url);
      const after = Date.now();
      for (let i = 0; i < 3; i++) expect((await fetch(url)).status).to.equal(200);
      expect(first.status).to.equal(200);
      expect(first.headers.get('content-type')).to.equal('image/gif');
      expect(first.headers.get('cache-control')).to.equal('no-store, private');
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes.length).to.equal(43);
      expect(bytes.equals(TRANSPARENT_GIF)).to.equal(true);
      expect(bytes.subarray(0, 6).toString('latin1')).to.equal('GIF89a');

      // A query string (cache busting) and HEAD get the same answer.
      expect(Buffer.from(await (await fetch(`${url}?r=123`)).arrayBuffer()).equals(TRANSPARENT_GIF)).to.equal(true);
      const head = await fetch(url, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-type'), head.headers.get('content-length')]).to.deep.equal([200, 'image/gif', '43']);

      await flush();
      await fetch(url); // a load after the flush changes nothing either
      await flush();
      const events = await eventsOf(t.db.sequelize, email.emailId);
      expect(events.map((e) => e.type)).to.deep.equal(['opened']);
      const [open] = events;
      expect(open).to.deep.include({ account_id: email.accountId, campaign_id: email.campaignId, lead_id: email.leadId, dedupe_key: `opened:${email.emailId}` });
      // The journal keeps milliseconds, like the request's clock.
      expect(open?.occurred_at.getTime()).to.be.within(before, after);
      const outbox = await outboxOf(t.db.sequelize, email.emailId);
      expect(outbox).to.have.length(1);
      expect(outbox[0]).to.deep.include({ event: 'email.opened', account_id: email.accountId, campaign_id: email.campaignId });
      expect(outbox[0]?.data).to.deep.equal({ email_id: email.emailId, lead_id: email.leadId, occurred_at: open?.occurred_at.toISOString() });
      expect(await journalFiles()).to.deep.equal([]);
    });

    it('answers the same GIF to a forged token and records nothing', async () => {
      const email = await createSentEmail(t.db.sequelize);
      const other = await createSentEmail(t.db.sequelize);
      const valid = new URL(links().openPixelUrl(email.emailId)).pathname;
      const otherSig = new URL(links().openPixelUrl(other.emailId)).pathname.split('.')[1];
      const forged = [
        valid.replace(/\.([A-Za-z0-9_-])/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`), // one character of the signature changed
        `/t/o/${email.emailId}.${otherSig}.gif`, // another email's signature
        valid.replace(/\.gif$/, '.png'),
        `/t/o/${email.emailId}.gif`,
        '/t/o/nothing',
        `/t/o/${'x'.repeat(3000)}.gif`,
      ];
      for (const path of forged) {
        const res = await fetch(`${t.api.baseUrl}${path}`);
        expect(res.status, path).to.equal(200);
        expect(res.headers.get('content-type'), path).to.equal('image/gif');
        expect(Buffer.from(await res.arrayBuffer()).equals(TRANSPARENT_GIF), path).to.equal(true);
      }
      expect(await journalFiles()).to.deep.equal([]);
      await flush();
      expect(await eventsOf(t.db.sequelize, email.emailId)).to.deep.equal([]);
    });
  });

  describe('GET /t/c/:emailId/:n (click redirect)', () => {
    const target = 'https://example.com/pricing?plan=pro&ref=a%20b#top';

    it('redirects to the exact target and records the click once per link, with an implied open', async () => {
      const email = await createSentEmail(t.db.sequelize);
      const url = local(links().clickUrl(email.emailId, 2, target));
      const before = Date.now();
      for (let i = 0; i < 3; i++) {
        const res = await fetch(url, { redirect: 'manual' });
        expect(res.status).to.equal(302);
        expect(res.headers.get('location')).to.equal(target);
      }
      await flush();
      const events = await eventsOf(t.db.sequelize, email.emailId);
      expect(events.map((e) => [e.type, e.dedupe_key, e.data])).to.have.deep.members([
        ['clicked', `clicked:${email.emailId}:2`, { url: target }],
        ['opened', `opened:${email.emailId}`, { via: 'click' }],
      ]);
      for (const e of events) expect(e.occurred_at.getTime()).to.be.within(before, Date.now());
      const outbox = await outboxOf(t.db.sequelize, email.emailId);
      expect(outbox.map((o) => o.event).sort()).to.deep.equal(['email.clicked', 'email.opened']);
      const clicked = outbox.find((o) => o.event === 'email.clicked');
      expect(clicked?.data).to.deep.equal({ email_id: email.emailId, lead_id: email.leadId, occurred_at: events.find((e) => e.type === 'clicked')?.occurred_at.toISOString(), url: target });

      // Another link of the same email is its own click; the open stays the first one.
      expect((await fetch(local(links().clickUrl(email.emailId, 3, 'http://example.org/')), { redirect: 'manual' })).headers.get('location')).to.equal('http://example.org/');
      await flush();
      const after = await eventsOf(t.db.sequelize, email.emailId);
      expect(after.filter((e) => e.type === 'clicked')).to.have.length(2);
      expect(after.filter((e) => e.type === 'opened')).to.have.length(1);
    });

    it('refuses, without a Location header, any link whose signature does not cover exactly it', async () => {
      const email = await createSentEmail(t.db.sequelize);
      const other = await createSentEmail(t.db.sequelize);
      const good = new URL(links().clickUrl(email.emailId, 1, target));
      const sig = good.searchParams.get('s') ?? '';
      const otherSig = new URL(links().clickUrl(other.emailId, 1, target)).searchParams.get('s') ?? '';
      const at = (emailId: string, n: number | string, u: string, s: string): string =>
        `${t.api.baseUrl}/t/c/${emailId}/${n}?u=${encodeURIComponent(u)}&s=${encodeURIComponent(s)}`;
      const forged: Array<[string, string]> = [
        ['an altered URL', at(email.emailId, 1, 'https://evil.example/pricing?plan=pro&ref=a%20b#top', sig)],
        ['an altered signature', at(email.emailId, 1, target, `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`)],
        ['an altered index', at(email.emailId, 2, target, sig)],
        ["another email's signature", at(email.emailId, 1, target, otherSig)],
        ['a signature moved to another email', at(other.emailId, 1, target, sig)],
        ['a javascript: URL, even signed', local(links().clickUrl(email.emailId, 1, 'javascript:alert(document.cookie)'))],
        ['a data: URL, even signed', local(links().clickUrl(email.emailId, 1, 'data:text/html,<script>alert(1)</script>'))],
        ['a second u parameter', `${local(good.href)}&u=${encodeURIComponent('https://evil.example/')}`],
        ['no signature', `${t.api.baseUrl}/t/c/${email.emailId}/1?u=${encodeURIComponent(target)}`],
        ['a negative index', at(email.emailId, -1, target, sig)],
      ];
      for (const [what, url] of forged) {
        const res = await fetch(url, { redirect: 'manual' });
        expect(res.status, what).to.equal(400);
        expect(res.headers.get('location'), what).to.equal(null);
        expect(((await res.json()) as { error: string }).error, what).to.be.a('string');
      }
      await flush();
      expect(await eventsOf(t.db.sequelize, email.emailId)).to.deep.equal([]);
      expect(await eventsOf(t.db.sequelize, other.emailId)).to.deep.equal([]);
    });
  });

  describe('/u/:token (unsubscribe)', () => {
    const suppression = async (accountId: string, address: string) =>
      t.db.sequelize.query<{ reason: string; source_email_id: string }>(`SELECT reason, source_email_id FROM suppressions WHERE account_id = $1 AND email = $2`, {
        bind: [accountId, address],
        type: QueryTypes.SELECT,
      });
    const leadUnsubscribedAt = async (leadId: string): Promise<Date | null> =>
      (await t.db.sequelize.query<{ unsubscribed_at: Date | null }>(`SELECT unsubscribed_at FROM leads WHERE id = $1`, { bind: [leadId], type: QueryTypes.SELECT }))[0]?.unsubscribed_at ?? null;
    const oneClick = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' };

    it('the GET page asks for confirmation and changes nothing', async () => {
      const email = await createSentEmail(t.db.sequelize, 'jane.doe@example.com');
      const url = local(links().unsubscribeUrl(email.emailId));
      for (let i = 0; i < 2; i++) {
        const page = await request(url);
        expect(page.status).to.equal(200);
        expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
        expect(page.headers.get('content-security-policy')).to.include("default-src 'none'");
        expect(page.text).to.include('<form method="post">').and.include('j•••@example.com').and.not.include('jane.doe');
        expect(page.text).not.to.match(/<(script|link|img)\b/);
      }
      expect(await suppression(email.accountId, email.toEmail)).to.deep.equal([]);
      expect(await leadUnsubscribedAt(email.leadId)).to.equal(null);
      expect(await eventsOf(t.db.sequelize, email.emailId)).to.deep.equal([]);
    });

    it('the RFC 8058 one-click POST suppresses the address before answering and records the unsubscribe once', async () => {
      const email = await createSentEmail(t.db.sequelize);
      const url = local(links().unsubscribeUrl(email.emailId));
      const res = await request(url, oneClick);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      // No flush: the answer means it is committed.
      expect(await suppression(email.accountId, email.toEmail)).to.deep.equal([{ reason: 'unsubscribe', source_email_id: email.emailId }]);
      expect(await leadUnsubscribedAt(email.leadId)).to.be.instanceOf(Date);
      expect((await request(url, oneClick)).status).to.equal(200);
      const events = await eventsOf(t.db.sequelize, email.emailId);
      expect(events.map((e) => [e.type, e.dedupe_key])).to.deep.equal([['unsubscribed', `unsubscribed:${email.emailId}`]]);
      expect((await outboxOf(t.db.sequelize, email.emailId)).map((o) => o.event)).to.deep.equal(['email.unsubscribed']);
      // Afterwards the page says so, without a button.
      const page = await request(url);
      expect(page.text).to.include('You are unsubscribed').and.not.include('<form');
    });

    it('accepts the one-click body as multipart/form-data (what RFC 8058 recommends)', async () => {
      const email = await createSentEmail(t.db.sequelize);
      const body = new FormData();
      body.set('List-Unsubscribe', 'One-Click');
      const res = await request(local(links().unsubscribeUrl(email.emailId)), { method: 'POST', body });
      expect(res.status).to.equal(200);
      expect(await suppression(email.accountId, email.toEmail)).to.have.length(1);
    });

    it("the page's own button unsubscribes and answers a confirmation page", async () => {
      const email = await createSentEmail(t.db.sequelize);
      const res = await request(local(links().unsubscribeUrl(email.emailId)), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'confirm=yes',
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.text).to.include('You are unsubscribed');
      expect(await suppression(email.accountId, email.toEmail)).to.have.length(1);
    });

    it('a forged token gets a 404 page and changes nothing; a POST without the one-click body is refused', async () => {
      const email = await createSentEmail(t.db.sequelize);
      const other = await createSentEmail(t.db.sequelize);
      const otherSig = new URL(links().unsubscribeUrl(other.emailId)).pathname.split('.')[1];
      const openSig = new URL(links().openPixelUrl(email.emailId)).pathname.split('.')[1];
      for (const token of [`${email.emailId}.${otherSig}`, `${email.emailId}.${openSig}`, email.emailId, 'em_nothing.AAAA']) {
        const page = await request(`${t.api.baseUrl}/u/${token}`);
        expect(page.status, token).to.equal(404);
        expect(page.headers.get('content-type'), token).to.equal('text/html; charset=utf-8');
        expect(page.text, token).to.include('This link is not valid');
        const post = await request(`${t.api.baseUrl}/u/${token}`, oneClick);
        expect(post.status, token).to.equal(404);
        expect(post.text, token).to.include('This link is not valid');
      }
      const valid = local(links().unsubscribeUrl(email.emailId));
      const wrongBody = await request(valid, { ...oneClick, body: 'List-Unsubscribe=Yes' });
      expect(wrongBody.status).to.equal(400);
      const json = await request(valid, { ...oneClick, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(json.status).to.equal(415);
      expect(await suppression(email.accountId, email.toEmail)).to.deep.equal([]);
      expect(await eventsOf(t.db.sequelize, email.emailId)).to.deep.equal([]);
    });
  });

  it('the tracking endpoints are in the (valid) OpenAPI document under the tracking tag', async () => {
    const doc = (await request<{ paths: Record<string, Record<string, { tags: string[]; security: unknown[] }>> }>(`${t.api.baseUrl}/openapi.json`)).body;
    const result = await new Validator().validate(doc as never);
    expect(result.valid, JSON.stringify(result.errors)).to.equal(true);
    for (const [path, method] of [['/t/o/{token}', 'get'], ['/t/c/{emailId}/{n}', 'get'], ['/u/{token}', 'get'], ['/u/{token}', 'post']] as const) {
      const op = doc.paths[path]?.[method];
      expect(op?.tags, `${method} ${path}`).to.deep.equal(['tracking']);
      expect(op?.security).to.deep.equal([]);
    }
  });
});
