/**
 * Set 2 in the runner: reading and checking the files, and the figures (totals per part, per
 * phrase class, per lead-side render class). Kept apart from the service calls and the database
 * (run.ts does those), so the test reads the files with the same checks.
 */
import path from 'node:path';
import type { PoolLead } from '../sql-match';
import { LEADS_FILE, PHRASES_FILE } from './generate';
import { selects } from './truth';
import { PHRASE_CLASSES, type Set2Lead, type Set2Phrase } from './types';
import { readJsonl } from '../jsonl';

export interface Set2Files {
  readonly leads: readonly Set2Lead[];
  readonly phrases: readonly Set2Phrase[];
}

const LEAD_STRINGS = ['id', 'first_name', 'last_name', 'email', 'company', 'title', 'country', 'state', 'city', 'industry', 'company_size'] as const;

/**
 * Reads set 2 and checks that it is well formed: fields present, ids and addresses unique, every
 * phrase's expected leads in its own part and exactly what its predicate selects from their truth.
 * Throws with the first problem found.
 */
export function loadSet2(dir: string): Set2Files {
  const leads = readJsonl<Set2Lead>(path.join(dir, LEADS_FILE));
  const phrases = readJsonl<Set2Phrase>(path.join(dir, PHRASES_FILE));
  for (const l of leads) {
    for (const k of LEAD_STRINGS) if (typeof l[k] !== 'string') throw new Error(`lead ${String(l.id)} has no string ${k}`);
    if (typeof l.frozen !== 'boolean' || typeof l.truth !== 'object' || typeof l.render !== 'object') throw new Error(`lead ${l.id} lacks frozen, truth or render`);
  }
  const byId = new Map(leads.map((l) => [l.id, l] as const));
  if (byId.size !== leads.length) throw new Error('two leads share an id');
  if (new Set(leads.map((l) => l.email.toLowerCase())).size !== leads.length) throw new Error('two leads share an address');
  if (new Set(phrases.map((p) => p.id)).size !== phrases.length) throw new Error('two phrases share an id');
  for (const p of phrases) {
    if (typeof p.text !== 'string' || typeof p.frozen !== 'boolean' || !Array.isArray(p.expected) || !Array.isArray(p.classes) || typeof p.predicate !== 'object') {
      throw new Error(`phrase ${String(p.id)} is missing a field`);
    }
    const unknownClass = p.classes.find((c) => !PHRASE_CLASSES.includes(c));
    if (unknownClass !== undefined) throw new Error(`${p.id} has an unknown class ${unknownClass}`);
    for (const id of p.expected) {
      const l = byId.get(id);
      if (l === undefined) throw new Error(`${p.id} expects an unknown lead ${id}`);
      if (l.frozen !== p.frozen) throw new Error(`${p.id} expects ${id} of the other part`);
    }
    const selected = leads.filter((l) => l.frozen === p.frozen && selects(p.predicate, l.truth)).map((l) => l.id);
    if (selected.join(',') !== p.expected.join(',')) throw new Error(`${p.id}: expected is not what its predicate selects from the truth`);
  }
  return { leads, phrases };
}

/** The fields the service reads, as an import would give them (a blank cell is no value). */
export function poolLeadOf(l: Set2Lead): PoolLead {
  const v = (s: string): string | null => (s.trim() === '' ? null : s);
  return {
    id: l.id,
    first_name: v(l.first_name),
    last_name: v(l.last_name),
    email: l.email,
    company: v(l.company),
    title: v(l.title),
    country: v(l.country),
    state: v(l.state),
    city: v(l.city),
    industry: v(l.industry),
    company_size: v(l.company_size),
  };
}

// ---------------------------------------------------------------------------------------------
// Figures

export interface PhraseResult {
  readonly phrase: Set2Phrase;
  readonly found: readonly string[];
}

interface Counts {
  expected: number;
  found: number;
  tp: number;
}

const ratio = (a: number, b: number): string => (b === 0 ? '  -  ' : (a / b).toFixed(3));

/** Precision and recall of one phrase; an empty expectation is met only by finding nobody. */
function phrasePr(r: PhraseResult): { p: number; r: number; tp: number } {
  const expected = new Set(r.phrase.expected);
  const tp = r.found.filter((id) => expected.has(id)).length;
  if (expected.size === 0) return { p: r.found.length === 0 ? 1 : 0, r: 1, tp };
  return { p: r.found.length === 0 ? 0 : tp / r.found.length, r: tp / expected.size, tp };
}

function totalsLine(title: string, rows: readonly PhraseResult[]): string {
  const c: Counts = { expected: 0, found: 0, tp: 0 };
  let exact = 0;
  const per = rows.map((r) => {
    const m = phrasePr(r);
    c.expected += r.phrase.expected.length;
    c.found += r.found.length;
    c.tp += m.tp;
    if (m.tp === r.found.length && m.tp === r.phrase.expected.length) exact += 1;
    return m;
  });
  const mean = (xs: number[]): string => (xs.length === 0 ? '  -  ' : (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3));
  return (
    `${title.padEnd(22)} ${String(rows.length).padStart(4)} phrases  precision ${ratio(c.tp, c.found)}  recall ${ratio(c.tp, c.expected)}` +
    `  (per-phrase mean: precision ${mean(per.map((m) => m.p))}, recall ${mean(per.map((m) => m.r))}; exactly right ${exact}/${rows.length})`
  );
}

/** A lead-side class: a name and which leads have it. */
interface LeadClass {
  readonly name: string;
  readonly has: (l: Set2Lead) => boolean;
  /** The phrases that ask about the field the class describes. */
  readonly asks: (p: Set2Phrase) => boolean;
}

const asksPeople = (p: Set2Phrase): boolean => p.predicate.people !== undefined;
const asksPlace = (p: Set2Phrase): boolean => p.predicate.place !== undefined;
const asksSize = (p: Set2Phrase): boolean => p.predicate.employees !== undefined;
const asksIndustry = (p: Set2Phrase): boolean => p.predicate.industries !== undefined;

function leadClasses(leads: readonly Set2Lead[]): LeadClass[] {
  const values = <T>(f: (l: Set2Lead) => T): T[] => [...new Set(leads.map(f))].sort();
  return [
    ...values((l) => l.render.title.class).map((c) => ({ name: `title ${c}`, has: (l: Set2Lead) => l.render.title.class === c, asks: asksPeople })),
    ...values((l) => l.render.title.language)
      .filter((x) => x !== 'en')
      .map((x) => ({ name: `title foreign:${x}`, has: (l: Set2Lead) => l.render.title.language === x, asks: asksPeople })),
    { name: 'title with noise', has: (l) => l.render.title.noise, asks: asksPeople },
    ...values((l) => l.render.place).map((c) => ({ name: `place ${c}`, has: (l: Set2Lead) => l.render.place === c, asks: asksPlace })),
    ...values((l) => l.render.size).map((c) => ({ name: `size ${c}`, has: (l: Set2Lead) => l.render.size === c, asks: asksSize })),
    ...values((l) => l.render.industry).map((c) => ({ name: `industry ${c}`, has: (l: Set2Lead) => l.render.industry === c, asks: asksIndustry })),
    { name: 'unseen rendering', has: (l) => l.render.unseen, asks: () => true },
  ];
}

function pairCounts(rows: readonly PhraseResult[], has: (l: Set2Lead) => boolean, byId: ReadonlyMap<string, Set2Lead>): Counts {
  const c: Counts = { expected: 0, found: 0, tp: 0 };
  for (const r of rows) {
    const expected = new Set(r.phrase.expected);
    for (const id of r.phrase.expected) if (has(byId.get(id)!)) c.expected += 1;
    for (const id of r.found) {
      if (!has(byId.get(id)!)) continue;
      c.found += 1;
      if (expected.has(id)) c.tp += 1;
    }
  }
  return c;
}

const countsCells = (c: Counts): string =>
  `${String(c.expected).padStart(6)} ${String(c.found).padStart(6)} ${String(c.tp).padStart(6)}  ${ratio(c.tp, c.found)}  ${ratio(c.tp, c.expected)}`;

/** Per phrase class, and per lead-side class over all phrases and over the phrases asking about its field. */
function perClass(out: (line?: string) => void, rows: readonly PhraseResult[], leads: readonly Set2Lead[]): void {
  for (const cls of PHRASE_CLASSES) {
    const mine = rows.filter((r) => r.phrase.classes.includes(cls));
    if (mine.length > 0) out(`  ${totalsLine(`class ${cls}`, mine)}`);
  }
  const byId = new Map(leads.map((l) => [l.id, l] as const));
  out(`  lead-side class             (phrase, lead) pairs, all phrases           | on the phrases that ask about the field`);
  out(`                              expect  found     tp  precis. recall  | expect  found     tp  precis. recall`);
  for (const lc of leadClasses(leads)) {
    const all = pairCounts(rows, lc.has, byId);
    if (all.expected + all.found === 0) continue;
    const asked = pairCounts(
      rows.filter((r) => lc.asks(r.phrase)),
      lc.has,
      byId,
    );
    out(`  ${lc.name.padEnd(26)} ${countsCells(all)}  | ${countsCells(asked)}`);
  }
}

function detail(out: (line?: string) => void, rows: readonly PhraseResult[], byId: ReadonlyMap<string, Set2Lead>): void {
  for (const r of rows) {
    const m = phrasePr(r);
    const ok = m.p === 1 && m.r === 1;
    out(`${ok ? '  ' : '✗ '}${r.phrase.id} P ${m.p.toFixed(2)} R ${m.r.toFixed(2)}  (${m.tp}/${r.found.length} found, ${r.phrase.expected.length} expected)  ${r.phrase.text}  [${r.phrase.classes.join(', ')}]`);
    if (ok) continue;
    const found = new Set(r.found);
    const expected = new Set(r.phrase.expected);
    const show = (id: string): string => {
      const l = byId.get(id)!;
      const where = [l.city, l.state, l.country].filter((x) => x !== '').join(', ');
      return `${id} "${l.title}" ${where || '-'} "${l.industry}" ${l.company_size || '-'}`;
    };
    for (const id of r.phrase.expected.filter((x) => !found.has(x)).slice(0, 5)) out(`      missed ${show(id)}`);
    for (const id of r.found.filter((x) => !expected.has(x)).slice(0, 5)) out(`      extra  ${show(id)}`);
  }
}

/**
 * Prints set 2: the tuning part phrase by phrase (the frozen part too only with showFrozen), then
 * per part the totals and the per-class figures.
 */
export function reportSet2(out: (line?: string) => void, set: Set2Files, results: readonly PhraseResult[], showFrozen: boolean): void {
  const byId = new Map(set.leads.map((l) => [l.id, l] as const));
  const part = (frozen: boolean) => ({
    rows: results.filter((r) => r.phrase.frozen === frozen),
    leads: set.leads.filter((l) => l.frozen === frozen),
  });
  const tuning = part(false);
  const frozen = part(true);
  out(`Set 2 (independent labels): ${set.leads.length} leads (tuning ${tuning.leads.length}, frozen ${frozen.leads.length}), ${set.phrases.length} phrases (tuning ${tuning.rows.length}, frozen ${frozen.rows.length})`);
  out('');
  out('set 2, tuning part');
  detail(out, tuning.rows, byId);
  if (showFrozen) {
    out('');
    out('set 2, frozen part');
    detail(out, frozen.rows, byId);
  }
  for (const [name, p] of [
    ['tuning', tuning],
    ['frozen', frozen],
  ] as const) {
    out('');
    out(`set 2, ${name} part: totals and per class`);
    out(`  ${totalsLine(`${name} (all)`, p.rows)}`);
    perClass(out, p.rows, p.leads);
  }
}
