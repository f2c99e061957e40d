/**
 * The phrases of one part: for each shape (which slots a phrase fills), anchor leads of that part
 * are drawn and the grammar writes a phrase whose every slot includes the anchor; the expected
 * leads are then all the part's leads the predicate selects. Anchors rotate over the title
 * languages and classes (and, for phrases without people, over the place classes) so that every
 * lead-side class has expected pairs in every part.
 */
import {
  compose,
  industryConcepts,
  peopleConcepts,
  placeConcepts,
  sizeConcepts,
  type IndustryConcept,
  type PeopleConcept,
  type PlaceConcept,
  type SizeConcept,
  type Slots,
} from './grammar';
import { LANGUAGES } from './geo';
import type { Rng } from './random';
import { PLACE_CLASSES } from './render/places';
import type { Part } from './render/reserve';
import { selects, type Predicate } from './truth';
import type { PhraseClass, Set2Lead, Set2Phrase } from './types';

interface Shape {
  readonly people?: boolean;
  readonly place?: boolean;
  readonly industry?: 'umbrella' | 'leaf' | 'any';
  readonly size?: boolean;
  /** Phrases of this shape in the tuning part; the frozen part has FROZEN_SCALE of it. */
  readonly count: number;
}

const SHAPES: readonly Shape[] = [
  { people: true, count: 14 },
  { place: true, count: 8 },
  { industry: 'umbrella', count: 7 },
  { size: true, count: 5 },
  { industry: 'leaf', count: 3 },
  { people: true, place: true, count: 26 },
  { people: true, industry: 'umbrella', count: 14 },
  { people: true, industry: 'leaf', count: 8 },
  { people: true, size: true, count: 8 },
  { people: true, industry: 'umbrella', place: true, count: 22 },
  { people: true, industry: 'leaf', place: true, count: 10 },
  { people: true, industry: 'any', size: true, count: 8 },
  { people: true, size: true, place: true, count: 8 },
  { people: true, industry: 'any', size: true, place: true, count: 4 },
  { industry: 'any', place: true, count: 12 },
  { size: true, place: true, count: 5 },
  { industry: 'any', size: true, count: 5 },
];
const FROZEN_SCALE = 0.68;

/** Phrases that name nobody: gibberish, and people in a place where no lead lives. */
const NOBODY: Readonly<Record<Part, readonly { text: string; predicate: Predicate }[]>> = {
  tuning: [
    { text: 'the of and', predicate: { nobody: true } },
    { text: 'asdf qwerty', predicate: { nobody: true } },
    { text: 'CFOs in Antarctica', predicate: { people: [{ functions: ['finance'], levels: ['c_level'] }], place: { countries: ['AQ'] } } },
  ],
  frozen: [
    { text: 'and or the', predicate: { nobody: true } },
    { text: 'lorem ipsum dolor', predicate: { nobody: true } },
    { text: 'CTOs in Greenland', predicate: { people: [{ functions: ['engineering'], levels: ['c_level'] }], place: { countries: ['GL'] } } },
  ],
};

const TITLE_KEYS = [...LANGUAGES.filter((l) => l !== 'en').map((l) => `foreign:${l}`), 'plain_en', 'inverted', 'abbreviated', 'modifier', 'dual_role'];
const titleKey = (l: Set2Lead): string => (l.render.title.class === 'foreign' ? `foreign:${l.render.title.language}` : l.render.title.class);

function weightedConcept<T extends { id: string }>(rng: Rng, items: readonly T[], weight: (x: T) => number): T {
  const i = Number(rng.weighted(Object.fromEntries(items.map((x, k) => [String(k), weight(x)]))));
  return items[i]!;
}

const placeWeight = (c: PlaceConcept): number => (c.id.startsWith('region:') ? 2 : c.id.startsWith('state:') ? 4 : 3);
const sizeWeight = (c: SizeConcept): number => (c.word ? 1.5 : 1);

function industryFor(rng: Rng, mode: NonNullable<Shape['industry']>, concepts: readonly IndustryConcept[]): IndustryConcept | undefined {
  const fitting = concepts.filter((c) => mode === 'any' || (mode === 'umbrella') === c.umbrella);
  return fitting.length === 0 ? undefined : rng.pick(fitting);
}

function classesOf(s: Slots): PhraseClass[] {
  const out: PhraseClass[] = [];
  if (s.people !== undefined) out.push('role_family');
  if (s.place !== undefined) out.push('places');
  if ((s.industry?.umbrella ?? false) || s.size !== undefined) out.push('umbrella');
  if (s.industry !== undefined && !s.industry.umbrella) out.push('industry_leaf');
  return out;
}

function predicateOf(s: Slots): Predicate {
  return {
    ...(s.people !== undefined ? { people: s.people.clauses } : {}),
    ...(s.place !== undefined ? { place: s.place.clause } : {}),
    ...(s.industry !== undefined ? { industries: s.industry.industries } : {}),
    ...(s.size !== undefined ? { employees: s.size.range } : {}),
  };
}

/** The slots of a shape read from an anchor, or undefined when the anchor cannot fill them. */
function slotsFor(rng: Rng, shape: Shape, anchor: Set2Lead): Slots | undefined {
  const t = anchor.truth;
  let people: PeopleConcept | undefined;
  let industry: IndustryConcept | undefined;
  let size: SizeConcept | undefined;
  if (shape.people === true) {
    const cs = peopleConcepts(t);
    if (cs.length === 0) return undefined;
    people = weightedConcept(rng, cs, (c) => c.weight);
  }
  if (shape.industry !== undefined) {
    if (t.industry === null) return undefined;
    industry = industryFor(rng, shape.industry, industryConcepts(t.industry));
    if (industry === undefined) return undefined;
  }
  if (shape.size === true) {
    if (t.employees === null) return undefined;
    size = weightedConcept(rng, sizeConcepts(t.employees), sizeWeight);
  }
  const place = shape.place === true ? weightedConcept(rng, placeConcepts(t), placeWeight) : undefined;
  return { people, place, industry, size };
}

/**
 * The phrases of a part. `taken` holds the texts already used (lower case), so that no frozen
 * phrase repeats a tuning one.
 */
export function generatePhrases(rng: Rng, part: Part, leads: readonly Set2Lead[], taken: Set<string>): Set2Phrase[] {
  const prefix = part === 'tuning' ? 'p2t' : 'p2f';
  const out: Set2Phrase[] = [];
  const push = (text: string, classes: PhraseClass[], predicate: Predicate): void => {
    const expected = leads.filter((l) => selects(predicate, l.truth)).map((l) => l.id);
    out.push({ id: `${prefix}${String(out.length + 1).padStart(3, '0')}`, frozen: part === 'frozen', text, classes, predicate, expected });
    taken.add(text.toLowerCase());
  };
  let titleTurn = 0;
  let placeTurn = 0;
  for (const shape of SHAPES) {
    const count = part === 'tuning' ? shape.count : Math.max(2, Math.round(shape.count * FROZEN_SCALE));
    for (let made = 0, tries = 0; made < count && tries < count * 200; tries += 1) {
      // Rotate the anchor's class so that every title language and class, and every place class, gets phrases.
      // The turn moves on every try, so a class that cannot fill a shape does not stall it.
      let pool: readonly Set2Lead[] = leads;
      if (shape.people === true) {
        const key = TITLE_KEYS[titleTurn % TITLE_KEYS.length]!;
        titleTurn += 1;
        pool = leads.filter((l) => titleKey(l) === key);
      } else if (shape.place === true) {
        const cls = PLACE_CLASSES[placeTurn % PLACE_CLASSES.length]!;
        placeTurn += 1;
        pool = leads.filter((l) => l.render.place === cls);
      }
      const anchor = rng.pick(pool.length > 0 ? pool : leads);
      const slots = slotsFor(rng, shape, anchor);
      if (slots === undefined) continue;
      const text = compose(rng, part, slots);
      if (taken.has(text.toLowerCase())) continue;
      const predicate = predicateOf(slots);
      // Phrases that find one lead, or a third of the pool, say little each: keep only some of them.
      const n = leads.filter((l) => selects(predicate, l.truth)).length;
      if ((n < 3 || n > leads.length / 3) && rng.chance(0.8)) continue;
      push(text, classesOf(slots), predicate);
      made += 1;
    }
  }
  for (const n of NOBODY[part]) push(n.text, ['none'], n.predicate);
  return out;
}
