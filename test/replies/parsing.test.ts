import { expect } from 'chai';
import { isAutoReply } from '../../src/replies/auto-reply';
import { isBounce, isPermanent, readBounce, recipientFor } from '../../src/replies/bounce';
import { parseInboundMessage } from '../../src/replies/inbound-message';
import { candidateIds, messageIdsIn } from '../../src/replies/message-ids';
import { previewOf, visibleReplyText } from '../../src/replies/visible-text';
import { loadMime } from './mime-fixtures';

const vars = { SENT_ID: 'em_abc.123@outreach.test', LEAD: 'jane@acme.test' };
const parse = (name: string) => parseInboundMessage(loadMime(name, vars));

describe('inbound message parsing', () => {
  describe('Message-IDs', () => {
    it('strips angle brackets and ignores comments around ids', () => {
      expect(messageIdsIn('<a@x> (Sam\'s message of Mon)')).to.deep.equal(['a@x']);
      expect(messageIdsIn(['<a@x>', '<b@y>'])).to.deep.equal(['a@x', 'b@y']);
      expect(messageIdsIn('bare@id')).to.deep.equal(['bare@id']);
      expect(messageIdsIn(undefined)).to.deep.equal([]);
    });

    it('ranks In-Reply-To first, then References newest first', () => {
      expect(candidateIds(['c@x'], ['a@x', 'b@x', 'c@x'])).to.deep.equal(['c@x', 'b@x', 'a@x']);
    });
  });

  describe('visible text and preview', () => {
    it('a Gmail reply keeps only what the person wrote', async () => {
      const msg = await parse('gmail-reply.eml');
      expect(msg.from).to.deep.equal({ address: 'jane@acme.test', name: 'Jane Doe' });
      expect(msg.inReplyTo).to.deep.equal([vars.SENT_ID]);
      expect(previewOf(visibleReplyText(msg.text))).to.equal('Sounds interesting, can we talk Thursday?');
    });

    it('an HTML-only Outlook reply loses its "From: / Sent:" block', async () => {
      const msg = await parse('outlook-reply.eml');
      expect(previewOf(visibleReplyText(msg.text))).to.equal('Thanks Sam, not right now – we just signed with another vendor.');
    });

    it('a French reply loses its "Le ... a écrit :" history', async () => {
      const msg = await parse('french-reply.eml');
      expect(msg.from?.name).to.equal('Joséphine Martin');
      expect(previewOf(visibleReplyText(msg.text))).to.equal('Bonjour Sam, Oui, je suis intéressée. Pouvons-nous en parler jeudi à 14h ?');
    });

    it('German, Spanish, "Original Message" and wrapped attributions are cut too', () => {
      const cases: Array<[string, string]> = [
        ['Ja, gerne.\n\nAm Mo., 17. Nov. 2025 um 10:00 Uhr schrieb Sam Sender <sam@outreach.test>:\n> Hallo', 'Ja, gerne.'],
        ['Sí, hablemos.\n\nEl lun, 17 nov 2025 a las 10:00, Sam Sender (<sam@outreach.test>) escribió:\nHola', 'Sí, hablemos.'],
        ['Interested.\n\n-----Original Message-----\nFrom: Sam\nSent: Monday\n\nHi', 'Interested.'],
        ['Call me.\n\nOn Mon, Nov 17, 2025 at 10:00 AM Sam Sender <\nsam@outreach.test> wrote:\nHi', 'Call me.'],
        ['Yes.\nFrom: Sam Sender\nSent: Monday, November 17, 2025\nTo: Jane\n\nHi', 'Yes.'],
      ];
      for (const [text, expected] of cases) expect(previewOf(visibleReplyText(text)), text).to.equal(expected);
    });

    it('the preview is whitespace-collapsed and cut near 200 characters at a word boundary', () => {
      const long = `${'word '.repeat(60)}\n\n\tend`;
      const preview = previewOf(visibleReplyText(long));
      expect(preview.length).to.be.at.most(200);
      expect(preview).to.match(/^word( word)+…$/);
    });
  });

  describe('automatic answers', () => {
    it('Auto-Submitted / X-Auto-Response-Suppress and localized subjects are auto-replies; real replies are not', async () => {
      expect(isAutoReply(await parse('auto-reply.eml'))).to.equal(true);
      expect(isAutoReply(await parse('auto-reply-german-subject.eml'))).to.equal(true);
      for (const name of ['gmail-reply.eml', 'outlook-reply.eml', 'french-reply.eml', 'references-only.eml']) {
        expect(isAutoReply(await parse(name)), name).to.equal(false);
      }
    });

    it('Auto-Submitted: no is a person', async () => {
      const raw = loadMime('gmail-reply.eml', vars).toString().replace('Subject: Re: Quick question', 'Auto-Submitted: no\r\nSubject: Re: Quick question');
      expect(isAutoReply(await parseInboundMessage(Buffer.from(raw)))).to.equal(false);
    });
  });

  describe('bounces', () => {
    it('a multipart/report 5.1.1 is a permanent failure of the original message', async () => {
      const msg = await parse('dsn-hard.eml');
      expect(isBounce(msg)).to.equal(true);
      const report = await readBounce(msg);
      expect(report.originalMessageId).to.equal(vars.SENT_ID);
      const r = recipientFor(report, 'JANE@acme.test');
      expect(r).to.include({ recipient: 'jane@acme.test', action: 'failed', status: '5.1.1' });
      expect(r?.diagnostic).to.match(/^smtp; 550-5\.1\.1 .* typos\.$/);
      expect(isPermanent(r)).to.equal(true);
    });

    it('a 4.4.7 delay is a bounce but not permanent; the original id comes from text/rfc822-headers', async () => {
      const msg = await parse('dsn-delay.eml');
      expect(isBounce(msg)).to.equal(true);
      const report = await readBounce(msg);
      expect(report.originalMessageId).to.equal(vars.SENT_ID);
      const r = recipientFor(report, 'jane@acme.test');
      expect(r).to.include({ action: 'delayed', status: '4.4.7' });
      expect(isPermanent(r)).to.equal(false);
    });

    it('a plain-text bounce from MAILER-DAEMON is read from its text', async () => {
      const msg = await parse('bounce-plain.eml');
      expect(isBounce(msg)).to.equal(true);
      const report = await readBounce(msg);
      expect(report.originalMessageId).to.equal(vars.SENT_ID);
      const r = recipientFor(report, 'jane@acme.test');
      expect(r).to.include({ recipient: 'jane@acme.test', status: '5.1.1' });
      expect(isPermanent(r)).to.equal(true);
    });

    it('replies and automatic answers are not bounces', async () => {
      for (const name of ['gmail-reply.eml', 'auto-reply.eml', 'unsubscribe-reply.eml']) expect(isBounce(await parse(name)), name).to.equal(false);
    });
  });
});
