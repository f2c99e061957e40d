import { expect } from 'chai';
import { writeBuiltinEmail } from '../../src/writing/builtin/write-builtin';
import { textToHtml } from '../../src/writing/render';
import type { WriteEmailInput } from '../../src/writing/types';

const base: WriteEmailInput = {
  mcp: 'sales-outreach',
  step: { index: 0, kind: 'first', delayDays: 0 },
  lead: { email: 'jane@globex.com', firstName: 'Jane', lastName: 'Doe', title: 'VP Sales', company: 'Globex', industry: 'Logistics', city: 'Austin' },
  company: { name: 'Acme', domain: 'acme.io', description: 'Acme is the sales automation platform for growing B2B teams. Try it free.', industryKeywords: ['sales automation', 'CRM'] },
  campaign: {
    name: 'Q3',
    targetAudience: 'sales leaders at logistics companies',
    targetOutcome: 'a 20-minute demo',
    valueForTarget: 'cut prospecting time in half',
    senderName: 'Sam Lee',
    calendarLink: 'https://cal.com/sam/20min?ref=a&b=c',
  },
};

const withLead = (lead: Partial<WriteEmailInput['lead']>, over: Partial<WriteEmailInput> = {}): WriteEmailInput => ({ ...base, ...over, lead: { ...base.lead, ...lead } });

/** The visible text of the HTML part: tags removed, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<br>\n/g, '\n')
    .replace(/<\/p>\n<p[^>]*>/g, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('built-in email writer', () => {
  it('is deterministic: the same input gives the same email, byte for byte', () => {
    const a = writeBuiltinEmail(base);
    const b = writeBuiltinEmail(JSON.parse(JSON.stringify(base)) as WriteEmailInput);
    expect(a).to.deep.equal(b);
    expect(a.writer).to.equal('builtin');
    expect(a).not.to.have.property('model');
  });

  it('varies its phrasing between leads (seeded by the address), not between runs', () => {
    const emails = Array.from({ length: 30 }, (_, i) => writeBuiltinEmail(withLead({ email: `lead${i}@globex.com` })));
    expect(new Set(emails.map((e) => e.subject)).size).to.be.greaterThan(1);
    expect(new Set(emails.map((e) => e.text)).size).to.be.greaterThan(3);
    // the address is compared case-insensitively: the same lead is the same seed
    expect(writeBuiltinEmail(withLead({ email: 'JANE@Globex.com' }))).to.deep.equal(writeBuiltinEmail(base));
  });

  it('personalises from the lead, the company and the campaign', () => {
    const e = writeBuiltinEmail(base);
    expect(e.text).to.match(/^(Hi|Hello) Jane,\n\n/);
    expect(e.text).to.include('cut prospecting time in half');
    expect(e.text).to.include('Acme');
    expect(e.text).to.include('https://cal.com/sam/20min?ref=a&b=c');
    // Signed with the writer's first name (the signature under it, added when sending, has the rest).
    expect(e.text).to.match(/\n\n(Best,|Thanks,|Best regards,)\nSam$/);
    // Why this lead: role, company and place; who writes and what they offer; one question.
    expect(e.text).to.include("you're VP Sales at Globex in Austin");
    expect(e.text).to.include("I'm Sam from Acme.");
    expect(e.text.match(/\?/g)).to.have.length(2); // the ask, and the "?" of the calendar link's query string
    expect(e.text).to.include('Would you be open to a 20-minute demo next week?');
    // The lead's profile (department and seniority read from the title) says what they lead.
    expect(writeBuiltinEmail(withLead({ department: 'sales', seniority: 'vp' })).text).to.include('you lead sales at Globex in Austin');
  });

  it('writes "john" and "JOHN" as John, and never puts an address in the greeting', () => {
    expect(writeBuiltinEmail(withLead({ firstName: 'john' })).text).to.match(/^(Hi|Hello) John,/);
    expect(writeBuiltinEmail(withLead({ firstName: '  JOHN ' })).text).to.match(/^(Hi|Hello) John,/);
    expect(writeBuiltinEmail(withLead({ firstName: 'x@y.com' })).text).to.match(/^(Hi|Hello) there,/);
  });

  it('copes with every field missing: no "undefined", no "null", no empty slots', () => {
    const bare: WriteEmailInput = {
      mcp: 'whatever',
      step: { index: 0, kind: 'first', delayDays: 0 },
      lead: { email: 'a@b.co', firstName: null, lastName: null, title: null, company: null, industry: null, city: null },
      company: null,
      campaign: { name: null, targetAudience: null, targetOutcome: null, valueForTarget: null, senderName: null, calendarLink: null },
    };
    for (const kind of ['first', 'follow_up', 'breakup'] as const) {
      const e = writeBuiltinEmail({ ...bare, step: { index: kind === 'first' ? 0 : 1, kind, delayDays: 3 } });
      for (const part of [e.subject, e.text, e.html]) {
        expect(part).not.to.match(/undefined|null|NaN|\bat\s*[.,]|\s{3,}|\[|\{\{/);
      }
      expect(e.subject.trim()).not.to.equal('');
      expect(e.text).to.match(/^(Hi|Hello) there,/);
      expect(e.html).not.to.include('<a ');
    }
  });

  it('treats "null", "n/a" and blank strings as missing', () => {
    const e = writeBuiltinEmail(withLead({ firstName: 'null', company: 'n/a', title: '   ', city: 'undefined' }, { company: null }));
    expect(e.text).to.match(/^(Hi|Hello) there,/);
    expect(e.subject + e.text).not.to.match(/\bnull\b|n\/a|undefined/);
  });

  it('escapes the HTML part: a lead named <script> cannot inject markup', () => {
    const evil = withLead({ firstName: '<script>alert(1)</script>', company: '"Evil" & <b>Co</b>', title: '<img src=x onerror=alert(1)>' });
    for (let i = 0; i < 10; i++) {
      const e = writeBuiltinEmail({ ...evil, lead: { ...evil.lead, email: `evil${i}@x.com` } });
      expect(e.html).not.to.match(/<script|<img|<b>|onerror=alert\(1\)>/);
      expect(e.html).to.include('&lt;script&gt;');
      // the only elements are paragraphs, line breaks and the calendar link
      const tags = e.html.match(/<[a-z]+/g) ?? [];
      expect(new Set(tags)).to.satisfy((s: Set<string>) => [...s].every((t) => ['<p', '<br', '<a'].includes(t)));
    }
  });

  it('the HTML part says exactly what the text part says, with the calendar link as the only link', () => {
    for (const kind of ['first', 'follow_up', 'breakup'] as const) {
      const e = writeBuiltinEmail({ ...base, step: { index: 1, kind, delayDays: 4 }, previousSubject: 'Globex + Acme' });
      expect(visibleText(e.html)).to.equal(e.text);
      expect(e.html.match(/<a /g)).to.have.length(1);
      expect(e.html).to.include('<a href="https://cal.com/sam/20min?ref=a&amp;b=c">');
    }
  });

  it('links nothing but an http(s) calendar link', () => {
    const e = writeBuiltinEmail({ ...base, campaign: { ...base.campaign, calendarLink: 'javascript:alert(1)' } });
    expect(e.html).not.to.include('<a ');
    expect(e.text).not.to.include('javascript:');
    expect(textToHtml('see https://evil.example and https://cal.com/x', ['https://cal.com/x'])).to.equal(
      '<p style="margin:0 0 1em 0">see https://evil.example and <a href="https://cal.com/x">https://cal.com/x</a></p>',
    );
  });

  it('a follow-up replies to the previous subject and refers to the first email', () => {
    const f = writeBuiltinEmail({ ...base, step: { index: 1, kind: 'follow_up', delayDays: 3 }, previousSubject: 'Globex + Acme' });
    expect(f.subject).to.equal('Re: Globex + Acme');
    expect(f.text).to.match(/I wrote to you a few days ago about Acme for Globex/);
    expect(f.text).to.include('cut prospecting time in half');
    // no "Re: Re:"; a second follow-up offers something else than a call
    const again = writeBuiltinEmail({ ...base, step: { index: 2, kind: 'follow_up', delayDays: 7 }, previousSubject: 'RE: Re: Globex + Acme' });
    expect(again.subject).to.equal('Re: Globex + Acme');
    expect(again.text).to.include('short written summary of Acme for Globex');
  });

  it('a follow-up without a previous subject still has a subject naming the topic', () => {
    expect(writeBuiltinEmail({ ...base, step: { index: 1, kind: 'follow_up', delayDays: 3 } }).subject).to.equal('Acme for Globex');
    expect(writeBuiltinEmail({ ...base, mcp: 'recruiting', step: { index: 2, kind: 'breakup', delayDays: 3 } }).subject).to.equal('A role at Acme');
  });

  it('the break-up email says it is the last one and keeps the thread', () => {
    const b = writeBuiltinEmail({ ...base, step: { index: 2, kind: 'breakup', delayDays: 7 }, previousSubject: 'Globex + Acme' });
    expect(b.subject).to.equal('Re: Globex + Acme');
    expect(b.text).to.match(/won't write again|my last note/);
  });

  it('speaks in the voice of the template type', () => {
    const texts = (mcp: string) => Array.from({ length: 12 }, (_, i) => writeBuiltinEmail(withLead({ email: `v${i}@globex.com` }, { mcp }))).map((e) => `${e.subject}\n${e.text}`).join('\n');
    expect(texts('recruiting')).to.match(/role at Acme/);
    expect(texts('partnerships')).to.match(/partnership/i);
    expect(texts('fundraising')).to.match(/invest|thesis/);
    expect(texts('sales-outreach')).to.match(/call|demo/);
    expect(texts('recruiting')).not.to.match(/investor/);
  });

  it('adds no tracking: no pixel, no unsubscribe, no links other than the calendar', () => {
    const e = writeBuiltinEmail(base);
    expect(e.html).not.to.match(/<img|unsubscribe/i);
    expect(e.text).not.to.match(/unsubscribe/i);
  });
});
