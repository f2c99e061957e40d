/**
 * States and provinces (vocabulary/subdivisions.json): a lead's `state` field or an audience's
 * place ("Texas", "TX", "Ontario", "Québec", "US-CA") to its ISO 3166-2 code, and a city's
 * GeoNames first-level code to the same. Abbreviations are short and shared across countries
 * ("WA" is Washington and Western Australia), so they are read within the lead's country when it
 * is known, else only when one subdivision has them (US first, since most exports are American).
 */
import subdivisionsData from './vocabulary/subdivisions.json';
import { matchForm } from './normalize';

export interface Subdivision {
  /** ISO 3166-2, e.g. US-TX, CA-ON. */
  readonly code: string;
  /** ISO 3166-1 alpha-2 of its country. */
  readonly country: string;
  /** Its first English name ('Texas'), for messages and the lead provider. */
  readonly name: string;
}

interface SubdivisionRow {
  readonly code: string;
  readonly country: string;
  readonly names: readonly string[];
  readonly abbreviations: readonly string[];
  readonly geonamesAdmin1: string;
}

interface SubdivisionIndex {
  readonly byCode: ReadonlyMap<string, Subdivision>;
  readonly byName: ReadonlyMap<string, readonly Subdivision[]>;
  readonly byAbbreviation: ReadonlyMap<string, readonly Subdivision[]>;
  readonly byAdmin1: ReadonlyMap<string, Subdivision>;
  readonly maxWords: number;
}

/** Countries whose subdivision wins an abbreviation several countries share, in order. */
const ABBREVIATION_PREFERENCE = ['US', 'CA'];

function push(map: Map<string, Subdivision[]>, key: string, s: Subdivision): void {
  if (key === '') return;
  const list = map.get(key) ?? [];
  if (!list.includes(s)) list.push(s);
  map.set(key, list);
}

function build(): SubdivisionIndex {
  const byCode = new Map<string, Subdivision>();
  const byName = new Map<string, Subdivision[]>();
  const byAbbreviation = new Map<string, Subdivision[]>();
  const byAdmin1 = new Map<string, Subdivision>();
  let maxWords = 0;
  for (const row of subdivisionsData.subdivisions as readonly SubdivisionRow[]) {
    const s: Subdivision = { code: row.code, country: row.country, name: row.names[0] ?? row.code };
    byCode.set(row.code.toUpperCase(), s);
    for (const n of row.names) {
      const form = matchForm(n);
      push(byName, form, s);
      maxWords = Math.max(maxWords, form.split(' ').length);
    }
    for (const a of row.abbreviations) push(byAbbreviation, a.replace(/\./g, '').trim().toUpperCase(), s);
    byAdmin1.set(`${row.country}|${row.geonamesAdmin1}`, s);
  }
  for (const list of byAbbreviation.values()) {
    list.sort((a, b) => rank(a.country) - rank(b.country));
  }
  return { byCode, byName, byAbbreviation, byAdmin1, maxWords };
}

function rank(country: string): number {
  const i = ABBREVIATION_PREFERENCE.indexOf(country);
  return i === -1 ? ABBREVIATION_PREFERENCE.length : i;
}

let index: SubdivisionIndex | undefined;
function subdivisionIndex(): SubdivisionIndex {
  index ??= build();
  return index;
}

function pick(list: readonly Subdivision[] | undefined, country: string | null, firstWins: boolean): Subdivision | null {
  if (list === undefined || list.length === 0) return null;
  if (country !== null) return list.find((s) => s.country === country) ?? null;
  return list.length === 1 || firstWins ? list[0]! : null;
}

/** A subdivision by its full name in any language it is written in ('Texas', 'Bayern', 'Québec'), within a country when given. */
export function subdivisionByName(text: string, country: string | null = null): Subdivision | null {
  return pick(subdivisionIndex().byName.get(matchForm(text)), country, false);
}

/** A subdivision by its ISO code ('US-TX') or abbreviation ('TX', 'Calif.', 'NRW'), within a country when given. */
export function subdivisionByCode(text: string, country: string | null = null): Subdivision | null {
  const t = text.replace(/\./g, '').trim().toUpperCase();
  const iso = subdivisionIndex().byCode.get(t);
  if (iso !== undefined) return country === null || iso.country === country ? iso : null;
  return pick(subdivisionIndex().byAbbreviation.get(t), country, true);
}

/** What a lead's `state` field says: a name, an ISO code or an abbreviation. */
export function subdivisionOf(text: string | null | undefined, country: string | null = null): Subdivision | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  return subdivisionByName(text, country) ?? subdivisionByCode(text, country);
}

/** The subdivision a city lies in, from its GeoNames first-level code, when the vocabulary has it. */
export function subdivisionOfCity(country: string, admin1: string): Subdivision | null {
  return subdivisionIndex().byAdmin1.get(`${country}|${admin1}`) ?? null;
}

export function subdivisionByIsoCode(code: string): Subdivision | null {
  return subdivisionIndex().byCode.get(code.toUpperCase()) ?? null;
}

/** The longest subdivision name in words, for scanning free text. */
export function subdivisionMaxWords(): number {
  return subdivisionIndex().maxWords;
}
