import { expect } from 'chai';
import { extractFollowUpDate } from '../../src/qualification/builtin/follow-up';
import { extractReturnDate } from '../../src/qualification/builtin/return-date';

/** Friday 20 November 2026. */
const FRIDAY = new Date('2026-11-20T09:00:00Z');

describe('out-of-office return date extraction', () => {
  const cases: ReadonlyArray<readonly [string, string, Date?]> = [
    ['I will be back on Monday 3rd.', '2026-08-03', new Date('2026-07-24T08:00:00Z')],
    ['Back Wednesday 25th.', '2026-11-25'],
    ['Out of office: returning 12/01.', '2026-12-01'],
    ['OOO until 11/30, will reply when back.', '2026-11-30'],
    ['I will return on Tuesday, 1 December 2026.', '2026-12-01'],
    ['Back on 2026-12-07.', '2026-12-07'],
    ["I'm away until the 2nd of December.", '2026-12-02'],
    ['I am out of the office and will return on Monday.', '2026-11-23'],
    ['I am on parental leave until March 2027.', '2027-03-01'],
    ['Ich bin derzeit im Urlaub und zurück am 5. Januar.', '2027-01-05', new Date('2026-12-22T10:00:00Z')],
    ['Ich bin vom 23.11. bis 27.11.2026 nicht im Büro.', '2026-11-27'],
    ['Ich befinde mich bis zum 30.11. im Urlaub.', '2026-11-30'],
    ['Je suis absente jusqu’au 7 décembre inclus.', '2026-12-07'],
    ['Je serai de retour le lundi 30 novembre.', '2026-11-30'],
    ['Estoy fuera de la oficina hasta el 2 de diciembre.', '2026-12-02'],
    ['Me encuentro fuera hasta el 30/11 y responderé a mi regreso.', '2026-11-30'],
    ['Estou fora do escritório e retorno no dia 1º de dezembro.', '2026-12-01'],
    ['Sono in ferie fino al 4 gennaio 2027.', '2027-01-04'],
    // The end of the absence wins over its start, and a return date over an "until" date.
    ['I will be out of the office starting 11/20/2026 and returning 11/30/2026.', '2026-11-30'],
    ['Ik ben afwezig tot en met 27 november. Vanaf maandag 30 november ben ik weer bereikbaar.', '2026-11-30'],
    ['Our offices are closed from 24 December to 1 January. We will respond when we reopen on 4 January.', '2027-01-04', new Date('2026-12-18T09:00:00Z')],
  ];
  for (const [text, expected, now] of cases) {
    it(`${JSON.stringify(text)} -> ${expected}`, () => {
      expect(extractReturnDate(text, now ?? FRIDAY)).to.equal(expected);
    });
  }

  it('finds no date where there is none, and ignores times and past dates', () => {
    expect(extractReturnDate('I am travelling with limited access to email.', FRIDAY)).to.equal(undefined);
    expect(extractReturnDate('Call me at 9am if urgent.', FRIDAY)).to.equal(undefined);
    expect(extractReturnDate('I was away from 2 November to 5 November.', FRIDAY)).to.equal(undefined);
  });
});

describe('"not now, later" follow-up dates', () => {
  const cases: ReadonlyArray<readonly [string, string | undefined]> = [
    ['Try me again next quarter.', '2027-01-01'],
    ['Pas pour le moment, recontactez-moi au prochain trimestre.', '2027-01-01'],
    ['Vielleicht im nächsten Quartal wieder.', '2027-01-01'],
    ['No budget until next year.', '2027-01-01'],
    ['Circle back in 6 months.', '2027-05-20'],
    ['Check back in two weeks.', '2026-12-04'],
    ['Ask me again in Q3.', '2027-07-01'],
    ['Misschien na de zomer.', '2027-09-01'],
    ['Feel free to reach out in January.', '2027-01-01'],
    ['Not now, maybe later.', undefined],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} -> ${String(expected)}`, () => {
      expect(extractFollowUpDate(text, FRIDAY)).to.equal(expected);
    });
  }
});
