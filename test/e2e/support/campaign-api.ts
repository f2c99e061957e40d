import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { request, surfaceA, surfaceB, type JsonResponse } from '../../support/api';
import type { CampaignStack } from '../../support/campaign-stack';
import { pages, startFakeSite, type FakeSite } from '../../support/fake-site';

/** The shared secret the tests' mail relay presents on POST /inbound/mime (env INBOUND_SECRET). */
export const INBOUND_SECRET = 'e2e-webhooks-inbound-secret-0123456789';

const HOME = '<html><head><title>Northwind Analytics</title><meta name="description" content="Revenue dashboards for finance teams"></head><body><h1>Northwind Analytics</h1></body></html>';

/** The campaigns' target: a real page on 127.0.0.1, so preparing a campaign scrapes it at once. */
export function startTargetSite(): Promise<FakeSite> {
  return startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
}

export interface ImportedLead {
  readonly email: string;
  readonly name: string;
  readonly title: string;
  readonly company: string;
}

/**
 * The public API calls the webhook e2e tests drive campaigns with, on a `useCampaignStack()`
 * stack (read lazily: the stack's fields are set once its `before` has run).
 */
export function campaignApi(t: CampaignStack, baseUrl: () => string = () => t.api.baseUrl) {
  const a = <T = Record<string, unknown>>(key: string, method: string, path: string, body?: unknown): Promise<JsonResponse<T>> =>
    request<T>(`${baseUrl()}${path}`, {
      method,
      headers: { ...surfaceA(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  return {
    get: <T = Record<string, unknown>>(key: string, path: string) => a<T>(key, 'GET', path),

    /** POST /v1/leads/import of `count` leads `lead<i>@<domain>` with a name, title and company each. */
    async importLeads(key: string, domain: string, count: number): Promise<ImportedLead[]> {
      const leads = Array.from({ length: count }, (_, i) => ({ email: `lead${i}@${domain}`, first: `Ada${i}`, last: 'Lovelace', title: 'Head of Finance', company: `Company ${i}` }));
      const csv = ['email,first_name,last_name,title,company', ...leads.map((l) => `${l.email},${l.first},${l.last},${l.title},${l.company}`)].join('\n');
      const res = await request(`${baseUrl()}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'text/csv' }, body: csv });
      expect(res.status, res.text).to.equal(200);
      return leads.map((l) => ({ email: l.email, name: `${l.first} ${l.last}`, title: l.title, company: l.company }));
    },

    /** POST /campaigns; sends all day (UTC) unless the body says otherwise. Returns the id. */
    async createCampaign(key: string, body: Record<string, unknown>): Promise<string> {
      const schedule = { send_window: { start: '00:00', end: '24:00' }, ...(body.schedule as Record<string, unknown> | undefined) };
      const res = await a<{ id: string }>(key, 'POST', '/campaigns', { ...body, schedule });
      expect(res.status, res.text).to.equal(201);
      return res.body.id;
    },

    async pause(key: string, id: string): Promise<void> {
      const res = await a(key, 'POST', `/campaigns/${id}/pause`);
      expect(res.status, res.text).to.equal(200);
    },

    async resume(key: string, id: string): Promise<void> {
      const res = await a(key, 'POST', `/campaigns/${id}/resume`);
      expect(res.status, res.text).to.equal(200);
    },

    /** A reply to `sent` (a message from the SMTP sink) through POST /inbound/mime, as a mail relay posts it. */
    async reply(sent: (typeof t.sink.messages)[number], from: string, text: string): Promise<string> {
      const parsed = await t.sink.parse(sent);
      const mime = [
        `From: ${from}`,
        'To: outreach@localhost',
        `Subject: Re: ${parsed.subject ?? ''}`,
        `In-Reply-To: ${parsed.messageId ?? ''}`,
        `References: ${parsed.messageId ?? ''}`,
        `Message-ID: <reply-${Date.now()}-${Math.random().toString(36).slice(2)}@e2e.example>`,
        `Date: ${new Date().toUTCString()}`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        text,
        '',
      ].join('\r\n');
      const res = await request<{ replyId: string; matched: boolean }>(`${baseUrl()}/inbound/mime`, {
        method: 'POST',
        headers: { 'X-Inbound-Secret': INBOUND_SECRET, 'content-type': 'message/rfc822' },
        body: mime,
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.matched, 'the reply matched the sent email').to.equal(true);
      return res.body.replyId;
    },

    /** Sets the account's Cal.com webhook secret through PATCH /v1/integrations. */
    async configureCalcom(key: string, secret: string): Promise<void> {
      const res = await request(`${baseUrl()}/v1/integrations`, { method: 'PATCH', headers: { ...surfaceB(key), 'content-type': 'application/json' }, body: JSON.stringify({ calcomWebhookSecret: secret }) });
      expect(res.status, res.text).to.equal(200);
    },

    /** A signed Cal.com BOOKING_CREATED for `attendee`, as Cal.com posts it to the account's endpoint. */
    async calcomBooking(accountId: string, secret: string, attendee: { email: string; name: string }, startTime: string): Promise<void> {
      const body = JSON.stringify({
        triggerEvent: 'BOOKING_CREATED',
        createdAt: new Date().toISOString(),
        payload: {
          type: 'intro-call',
          title: `Intro call with ${attendee.name}`,
          startTime,
          endTime: new Date(Date.parse(startTime) + 30 * 60_000).toISOString(),
          organizer: { email: 'sam@outreach.test', name: 'Sam Sender', timeZone: 'Europe/London' },
          attendees: [{ email: attendee.email, name: attendee.name, timeZone: 'Europe/Berlin', language: { locale: 'en' } }],
          uid: `bk_${Date.now()}`,
          bookingId: 7,
        },
      });
      const res = await request<{ outcome: string }>(`${baseUrl()}/webhooks/calcom/${accountId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Cal-Signature-256': createHmac('sha256', secret).update(body).digest('hex') },
        body,
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.outcome).to.equal('recorded');
    },
  };
}
