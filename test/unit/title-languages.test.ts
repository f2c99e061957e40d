import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGE_VOCABULARIES } from '../../src/leads/profile/language-vocabularies';
import { fold } from '../../src/leads/profile/normalize';
import { readTitle } from '../../src/leads/profile/titles';

/**
 * Titles as leads of the ten languages write them (test/fixtures/titles/multilingual.jsonl: the
 * function and level each means, written by hand for the language files), read as a lead's title
 * is at import.
 */
interface TitleCase {
  readonly language: string;
  readonly title: string;
  readonly seniority: string | null;
  readonly department: string | null;
}

const read = (file: string): TitleCase[] =>
  fs
    .readFileSync(path.join(__dirname, '../fixtures/titles', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as TitleCase);

const CASES: readonly TitleCase[] = read('multilingual.jsonl');
/** English titles as exports write them: inverted, abbreviated, with modifiers, two roles, noise. */
const ENGLISH: readonly TitleCase[] = read('english.jsonl');

const misread = (cases: readonly TitleCase[]): string[] =>
  cases
    .map((c) => ({ c, r: readTitle(c.title) }))
    .filter(({ c, r }) => r.seniority !== c.seniority || r.department !== c.department)
    .map(({ c, r }) => `${c.title}: expected ${c.seniority}/${c.department}, read ${r.seniority}/${r.department}`);

describe('job titles in English and the languages of the leads', () => {
  for (const lang of LANGUAGE_VOCABULARIES) {
    it(`${lang.name}: every case reads as its function and level`, () => {
      const cases = CASES.filter((c) => c.language === lang.language);
      expect(cases.length, lang.language).to.be.at.least(40);
      expect(misread(cases)).to.deep.equal([]);
    });
  }

  it('English: every case reads as its function and level', () => {
    expect(ENGLISH.length).to.be.at.least(300);
    expect(misread(ENGLISH)).to.deep.equal([]);
  });

  it('the issue\'s examples: director of finance, head of sales, IT manager, head of customer service', () => {
    const expectRead = (title: string, seniority: string, department: string): void => {
      expect(readTitle(title), title).to.include({ seniority, department });
    };
    expectRead('Leiterin Finanzen', 'head', 'finance');
    expectRead('Finanzdirektor', 'director', 'finance');
    expectRead('Vertriebsleiter', 'head', 'sales');
    expectRead('Directeur financier', 'director', 'finance');
    expectRead('Jefe de ventas', 'head', 'sales');
    expectRead('Försäljningschef', 'head', 'sales');
    expectRead('Salgssjef', 'head', 'sales');
    expectRead('Hoofd klantenservice', 'head', 'customer_success');
    expectRead('Responsabile assistenza clienti', 'head', 'customer_success');
    expectRead('Kierownik IT', 'manager', 'it');
    expectRead('Gerente de TI', 'manager', 'it');
    expectRead('IT-Manager', 'manager', 'it');
  });

  it('no word means two functions, or two levels, across the files', () => {
    // A compound ('Finanzleiter') is listed as a level and as a function: that is one reading, not two.
    const clashes: string[] = [];
    for (const kind of ['levels', 'departments'] as const) {
      const seen = new Map<string, string>();
      for (const lang of LANGUAGE_VOCABULARIES) {
        for (const [meaning, words] of Object.entries(lang[kind])) {
          for (const w of words ?? []) {
            const key = fold(w);
            const before = seen.get(key);
            if (before !== undefined && before !== meaning) clashes.push(`${w} (${lang.language}): ${kind} ${before} / ${meaning}`);
            else seen.set(key, meaning);
          }
        }
      }
    }
    expect(clashes).to.deep.equal([]);
  });
});
