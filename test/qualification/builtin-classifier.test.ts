import { expect } from 'chai';
import { classifyBuiltin } from '../../src/qualification/builtin/classifier';
import { CATEGORIES, sentimentOf, type Category } from '../../src/qualification/categories';
import { NEXT_ACTIONS_BY_CATEGORY } from '../../src/qualification/next-actions';

/** A Friday: return and follow-up dates below are relative to it. */
const NOW = new Date('2026-11-20T09:00:00Z');

type Case = readonly [body: string, category: Category, nextAction?: string | RegExp];

const classify = (bodyText: string, subject = 'Re: Quick question') => classifyBuiltin({ subject, bodyText, fromEmail: 'lead@acme.com', toEmail: 'sam@outreach.io' }, { now: NOW });

const CASES: Readonly<Record<string, readonly Case[]>> = {
  interested: [
    ['Sounds interesting, can you send me more details?', 'interested', 'answer_question'],
    ['How much does it cost for 20 seats?', 'interested', 'answer_question'],
    ['How about Tuesday at 3pm?', 'interested', 'confirm_proposed_time'],
    ['Yes', 'interested', 'send_calendar_link'],
    ['👍', 'interested'],
    ['Not uninterested. What would a pilot look like?', 'interested'],
    ["I wouldn't say no to a demo.", 'interested'],
    ["Not interested in a call, but could you email me the pricing?", 'interested', 'answer_question'],
    ['Cela m’intéresse, quels sont vos tarifs ?', 'interested'],
    ['Klingt interessant. Können wir nächste Woche telefonieren?', 'interested'],
    ['Me interesa. ¿Cuánto cuesta?', 'interested'],
    ['Tenho interesse, podemos conversar?', 'interested'],
    ['Sono interessato, mandatemi maggiori informazioni.', 'interested'],
    ['Klinkt interessant, wat zijn de kosten?', 'interested'],
  ],
  meeting_booked: [
    ['Just booked a slot on your calendar for Thursday.', 'meeting_booked', 'confirm_meeting'],
    ['Tuesday at 3pm works for me. See you then!', 'meeting_booked'],
    ['See you Thursday!', 'meeting_booked'],
    ['Invite accepted, talk soon.', 'meeting_booked'],
    ["Parfait, c'est noté pour mardi à 10h.", 'meeting_booked'],
    ['Passt, Donnerstag um 14 Uhr ist eingetragen.', 'meeting_booked'],
  ],
  closed: [
    ["Let's move forward. Please send over the contract.", 'closed', 'hand_off_to_sales'],
    ["We're ready to sign — where do I sign?", 'closed'],
    ['Wir möchten das Angebot annehmen. Bitte schicken Sie uns den Vertrag.', 'closed'],
    ['Vamos fechar. Pode enviar o contrato para assinatura?', 'closed'],
  ],
  neutral: [
    ["I'm not the right person. Please talk to Jane Doe — jane.doe@acme.com.", 'neutral', 'contact_referral:jane.doe@acme.com'],
    ['Not my area — try our CTO, Martin.', 'neutral', 'contact_referral'],
    ['Forwarding this to my colleague Paul who handles vendors.', 'neutral', 'contact_referral'],
    ['Who are you and how did you get my email address?', 'neutral', 'answer_question'],
    ['Thanks, received.', 'neutral', 'review_manually'],
    ['Je ne suis pas la bonne personne. Contactez plutôt claire@exemple.fr.', 'neutral', 'contact_referral:claire@exemple.fr'],
  ],
  not_interested: [
    ['Not interested, thanks.', 'not_interested', 'stop_outreach'],
    ['no thanks', 'not_interested'],
    ['Interested? No.', 'not_interested'],
    ["Can't say I'm interested.", 'not_interested'],
    ['Not right now. Try me again next quarter.', 'not_interested', 'follow_up_later:2027-01-01'],
    ['Circle back in 6 months, we are mid-migration.', 'not_interested', 'follow_up_later:2027-05-20'],
    ['Ask me again in Q3.', 'not_interested', 'follow_up_later:2027-07-01'],
    ["I'm not interested, and honestly this read like spam.", 'not_interested'],
    ['Merci, mais cela ne nous intéresse pas.', 'not_interested'],
    ['Kein Interesse, danke.', 'not_interested'],
    ['No nos interesa, gracias.', 'not_interested'],
    ['Grazie, ma non siamo interessati.', 'not_interested'],
    ['Geen interesse, bedankt.', 'not_interested'],
  ],
  out_of_office: [
    ['I am out of the office until Monday, November 30. I will respond when I return.', 'out_of_office', 'follow_up_after:2026-11-30'],
    ['Thank you for contacting me. I am travelling with limited access to email.', 'out_of_office', 'follow_up_later'],
    ['Ich bin derzeit im Urlaub und zurück am 5. Januar.', 'out_of_office', 'follow_up_after:2027-01-05'],
    ['Je suis absente du bureau jusqu’au 7 décembre inclus.', 'out_of_office', 'follow_up_after:2026-12-07'],
    ['Estoy fuera de la oficina hasta el 2 de diciembre.', 'out_of_office', 'follow_up_after:2026-12-02'],
    ['Estou de férias até 15/12, com acesso limitado ao e-mail.', 'out_of_office', 'follow_up_after:2026-12-15'],
    ['Sono fuori ufficio fino al 30 novembre.', 'out_of_office', 'follow_up_after:2026-11-30'],
    ['Ik ben met vakantie en ben terug op 7 december.', 'out_of_office', 'follow_up_after:2026-12-07'],
    ["I'm on parental leave. Please contact my colleague ben@lumen.com meanwhile.", 'out_of_office'],
  ],
  unsubscribe: [
    ['Unsubscribe', 'unsubscribe', 'suppress'],
    ['Please remove me from your mailing list.', 'unsubscribe'],
    ['Take me off your list.', 'unsubscribe'],
    ['Stop spamming me. Fourth email this week.', 'unsubscribe'],
    ['F*** off with this spam.', 'unsubscribe'],
    ['Not interested. Please remove me from your list.', 'unsubscribe'],
    ['Not interested and please stop emailing.', 'unsubscribe'],
    ['Merci de me retirer de votre liste de diffusion.', 'unsubscribe'],
    ['Bitte entfernen Sie mich aus Ihrem Verteiler.', 'unsubscribe'],
    ['Por favor, elimínenme de su lista de correo.', 'unsubscribe'],
    ['Por favor, me remova da sua lista.', 'unsubscribe'],
    ['Vi prego di cancellarmi dalla vostra mailing list.', 'unsubscribe'],
    ['Haal me alstublieft van jullie mailinglijst.', 'unsubscribe'],
  ],
};

describe('built-in reply classifier', () => {
  for (const [group, cases] of Object.entries(CASES)) {
    describe(group, () => {
      for (const [body, category, nextAction] of cases) {
        it(`${JSON.stringify(body)} -> ${category}${nextAction ? ` (${String(nextAction)})` : ''}`, () => {
          const r = classify(body);
          expect(r.category, JSON.stringify(r.evidence)).to.equal(category);
          expect(r.sentiment).to.equal(sentimentOf(category));
          expect(r.confidence).to.be.within(0, 1);
          expect(NEXT_ACTIONS_BY_CATEGORY[category]).to.include(r.nextAction.split(':')[0]);
          if (typeof nextAction === 'string') expect(r.nextAction).to.equal(nextAction);
          else if (nextAction) expect(r.nextAction).to.match(nextAction);
        });
      }
    });
  }

  it('maps every category to the sentiment of the design', () => {
    expect(CATEGORIES.map((c) => [c, sentimentOf(c)])).to.deep.equal([
      ['interested', 'positive'],
      ['meeting_booked', 'positive'],
      ['closed', 'positive'],
      ['neutral', 'neutral'],
      ['not_interested', 'negative'],
      ['out_of_office', 'neutral'],
      ['unsubscribe', 'negative'],
    ]);
  });

  it('judges the reply, not the quoted pitch below it', () => {
    const quotedInterest = 'We will pass for now.\n\nBest,\nHelga\n\nOn Thu, Nov 19, 2026 at 8:01 AM Sam <sam@outreach.io> wrote:\n> Interested in a quick call? Happy to share pricing.';
    expect(classify(quotedInterest).category).to.equal('not_interested');
    const quotedDecline = 'Let us talk. Wednesday morning works best.\n\n> If you are not interested, just say so and I will stop.';
    expect(classify(quotedDecline).category).to.equal('interested');
    const outlook = 'Please stop.\n\n-----Original Message-----\nFrom: Sam <sam@outreach.io>\nSent: Tuesday\nSubject: Hi\n\nAre you interested in a demo?';
    expect(classify(outlook).category).to.equal('unsubscribe');
  });

  it('reads a forward note, not the forwarded pitch', () => {
    const body = '+ Maria (cc), who owns outbound.\n\n---------- Forwarded message ---------\nFrom: Sam <sam@outreach.io>\nDate: Thu\nSubject: Hi\n\nInterested in booking more meetings? Happy to send pricing.';
    const r = classify(body, 'Fwd: Hi');
    expect(r.category).to.equal('neutral');
    expect(r.nextAction).to.equal('contact_referral');
  });

  it('a "no longer with the company" auto-reply is neutral with the named address, not out of office', () => {
    const r = classify('Peter Novak no longer works at Orbis GmbH. Your message will not be forwarded. Please contact info@orbis.de.', 'Automatic reply: Hi');
    expect(r.category).to.equal('neutral');
    expect(r.nextAction).to.equal('contact_referral:info@orbis.de');
  });

  it('does not offer the sender or our own address as the referral', () => {
    expect(classify("Not my area, reply to lead@acme.com's boss instead: boss@acme.com").nextAction).to.equal('contact_referral:boss@acme.com');
  });

  it('is unsure (low confidence) when nothing matches, and sure of a plain unsubscribe', () => {
    const unknown = classify('The weather in Lisbon was lovely last week.');
    expect(unknown.category).to.equal('neutral');
    expect(unknown.confidence).to.be.below(0.5);
    expect(classify('Please remove me from your list, I never signed up for this.').confidence).to.be.above(0.8);
  });

  it('reads a long reply by its head: 50 000 repeated "a" do not make "12/01" Portuguese', () => {
    const r = classify(`I'm out of the office until 12/01. ${'a '.repeat(50_000)}`);
    expect(r.nextAction).to.equal('follow_up_after:2026-12-01');
  });

  it('classifies 100 KB bodies of one token, of dots and of at-signs (no quadratic scans)', () => {
    for (const body of ['a'.repeat(100 * 1024), '1.'.repeat(50 * 1024), 'a@'.repeat(50 * 1024)]) expect(classify(body).category).to.equal('neutral');
  });

  it('is deterministic', () => {
    const body = 'Sounds good, how about Thursday at 2pm? Also, what does it cost?';
    expect(classify(body)).to.deep.equal(classify(body));
  });
});
