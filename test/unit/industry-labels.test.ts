import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { industryId } from '../../src/leads/profile/industries';

/**
 * Industry labels as providers write them (LinkedIn's two taxonomies, Yahoo/Morningstar, ZoomInfo,
 * Crunchbase, D&B, GICS, NAICS titles, labels in the ten languages, audience wordings), each with
 * the taxonomy id it means, or null where no id fits honestly (unknown is better than wrong).
 */
interface LabelCase {
  readonly label: string;
  readonly id: string | null;
}

const CASES: readonly LabelCase[] = fs
  .readFileSync(path.join(__dirname, '../fixtures/industries/labels.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LabelCase);

describe('industry labels of the providers', () => {
  it('every label reads as the industry it means, or as none', () => {
    expect(CASES.length).to.be.at.least(1000);
    const wrong = CASES.filter((c) => industryId(c.label) !== c.id).map((c) => `${c.label}: expected ${c.id}, read ${industryId(c.label)}`);
    expect(wrong).to.deep.equal([]);
  });
});
