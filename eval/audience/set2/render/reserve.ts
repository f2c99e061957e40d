/**
 * Frozen-part realism: of every table with three or more renderings, about a third (a seeded choice
 * that depends only on the table's name) is reserved for leads of the frozen part. Tuning leads are
 * written only with the other renderings, so a parser tuned on the tuning part meets renderings in
 * the frozen part it has never seen, as it will in real exports.
 */
import { hash32, Rng } from '../random';

export type Part = 'tuning' | 'frozen';

const RESERVE_SEED = 0x5e7_2026;
const reservedCache = new Map<string, ReadonlySet<number>>();

/** Indices of the table's renderings reserved for the frozen part. */
export function reservedIndices(table: string, size: number): ReadonlySet<number> {
  const key = `${table}#${size}`;
  let set = reservedCache.get(key);
  if (set === undefined) {
    const count = size >= 3 ? Math.round(size / 3) : 0;
    const order = new Rng(hash32(table) ^ RESERVE_SEED).shuffle([...Array(size).keys()]);
    set = new Set(order.slice(0, count));
    reservedCache.set(key, set);
  }
  return set;
}

/** One chosen rendering and whether it came from the frozen-only third. */
export interface Picked<T> {
  readonly value: T;
  readonly reserved: boolean;
}

/**
 * Picks one rendering of a named table for a lead of the given part: tuning leads among the
 * unreserved renderings, frozen leads among all of them (so about a third of their picks are
 * renderings the tuning part never shows). The reservation is per table, whatever `fits` keeps.
 */
export function pickRendering<T>(rng: Rng, table: string, items: readonly T[], part: Part, fits: (item: T) => boolean = () => true): Picked<T> {
  if (items.length === 0) throw new Error(`table ${table} is empty`);
  const reserved = reservedIndices(table, items.length);
  const open = part === 'frozen' ? [...items.keys()] : [...items.keys()].filter((i) => !reserved.has(i));
  // `fits` narrows the choice (a modifier that would repeat a word); the reservation is the table's.
  const fitting = open.filter((i) => fits(items[i]!));
  const i = rng.pick(fitting.length > 0 ? fitting : open);
  return { value: items[i]!, reserved: reserved.has(i) };
}
