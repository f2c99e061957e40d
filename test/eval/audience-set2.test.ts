import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { loadSet2, type Set2Files } from '../../eval/audience/set2/evaluate';
import { generateSet2, LEADS_FILE, PHRASES_FILE, SET2_DIR, toJsonl } from '../../eval/audience/set2/generate';
import { LANGUAGES } from '../../eval/audience/set2/geo';
import { PLACE_CLASSES } from '../../eval/audience/set2/render/places';
import { TITLE_CLASSES } from '../../eval/audience/set2/render/title-types';
import { selects } from '../../eval/audience/set2/truth';
import { PHRASE_CLASSES, type Set2Lead } from '../../eval/audience/set2/types';

/** Set 2 of the audience evaluation (eval/audience/set2): its files, its labels and its generator. */
describe('audience evaluation set 2', () => {
  let set: Set2Files;

  before(() => {
    set = loadSet2(SET2_DIR);
  });

  const parts = [
    { name: 'tuning', frozen: false },
    { name: 'frozen', frozen: true },
  ] as const;

  it('the committed files parse and are well formed', () => {
    expect(() => loadSet2(SET2_DIR)).not.to.throw();
  });

  it('has at least 2,000 leads and 200 phrases, split about 60/40 between the tuning and the frozen part', () => {
    expect(set.leads.length).to.be.at.least(2000);
    expect(set.phrases.length).to.be.at.least(200);
    const frozenLeads = set.leads.filter((l) => l.frozen).length / set.leads.length;
    const frozenPhrases = set.phrases.filter((p) => p.frozen).length / set.phrases.length;
    expect(frozenLeads).to.be.within(0.35, 0.45);
    expect(frozenPhrases).to.be.within(0.35, 0.45);
  });

  it('has unique lead ids, addresses and phrase ids, and no phrase text in both parts', () => {
    expect(new Set(set.leads.map((l) => l.id)).size).to.equal(set.leads.length);
    expect(new Set(set.leads.map((l) => l.email.toLowerCase())).size).to.equal(set.leads.length);
    expect(new Set(set.phrases.map((p) => p.id)).size).to.equal(set.phrases.length);
    const texts = (frozen: boolean): Set<string> => new Set(set.phrases.filter((p) => p.frozen === frozen).map((p) => p.text.toLowerCase()));
    const tuning = texts(false);
    expect([...texts(true)].filter((t) => tuning.has(t))).to.deep.equal([]);
  });

  it("labels every phrase with exactly what its predicate selects from the truth of its own part's leads", () => {
    for (const p of set.phrases) {
      const selected = set.leads.filter((l) => l.frozen === p.frozen && selects(p.predicate, l.truth)).map((l) => l.id);
      expect(p.expected, `${p.id} ${p.text}`).to.deep.equal(selected);
      if (!p.classes.includes('none')) expect(p.expected.length, `${p.id} names nobody`).to.be.greaterThan(0);
    }
  });

  it('is what the generator writes: generating in memory gives the committed files byte for byte', () => {
    const generated = generateSet2();
    expect(toJsonl(generated.leads) === fs.readFileSync(path.join(SET2_DIR, LEADS_FILE), 'utf8'), 'leads.jsonl differs from generateSet2()').to.equal(true);
    expect(toJsonl(generated.phrases) === fs.readFileSync(path.join(SET2_DIR, PHRASES_FILE), 'utf8'), 'phrases.jsonl differs from generateSet2()').to.equal(true);
  });

  it('keeps the frozen-only renderings out of the tuning part', () => {
    expect(set.leads.filter((l) => !l.frozen && l.render.unseen).map((l) => l.id)).to.deep.equal([]);
    expect(set.leads.filter((l) => l.frozen && l.render.unseen).length).to.be.greaterThan(0);
  });

  for (const part of parts) {
    describe(`the ${part.name} part`, () => {
      const leadsOf = (): Set2Lead[] => set.leads.filter((l) => l.frozen === part.frozen);
      /** The leads some phrase of this part expects: a class is represented when it has expected pairs. */
      const expectedLeads = (): Set2Lead[] => {
        const ids = new Set(set.phrases.filter((p) => p.frozen === part.frozen).flatMap((p) => p.expected));
        return leadsOf().filter((l) => ids.has(l.id));
      };

      it('has phrases of every phrase class', () => {
        const classes = new Set(set.phrases.filter((p) => p.frozen === part.frozen).flatMap((p) => p.classes));
        for (const c of PHRASE_CLASSES) expect(classes.has(c), c).to.equal(true);
      });

      it('has expected leads of every title class, every title language and every place class', () => {
        for (const leads of [leadsOf(), expectedLeads()]) {
          const titleClasses = new Set(leads.map((l) => l.render.title.class));
          const languages = new Set(leads.map((l) => l.render.title.language));
          const places = new Set(leads.map((l) => l.render.place));
          for (const c of TITLE_CLASSES) expect(titleClasses.has(c), c).to.equal(true);
          for (const l of LANGUAGES) expect(languages.has(l), l).to.equal(true);
          for (const c of PLACE_CLASSES) expect(places.has(c), c).to.equal(true);
        }
      });

      it('has expected leads of every title language among the phrases that ask for people', () => {
        const ids = new Set(set.phrases.filter((p) => p.frozen === part.frozen && p.predicate.people !== undefined).flatMap((p) => p.expected));
        const languages = new Set(leadsOf().filter((l) => ids.has(l.id)).map((l) => l.render.title.language));
        for (const l of LANGUAGES) expect(languages.has(l), l).to.equal(true);
      });
    });
  }
});
