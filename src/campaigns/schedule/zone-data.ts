/**
 * The time-zone data a lead's zone is read from: city-timezones (about 7,300 cities with their
 * IANA zone and population) and countries-and-timezones (each country's zones, from the IANA
 * database). Both are loaded on the first lookup, never at process start: the API imports
 * enrolment too, and only the processes that enrol pay for the 2 MB of city data.
 */
import { createRequire } from 'node:module';
import { fold } from '../../leads/profile/normalize';
import { isTimeZone } from '../model/schedule';

interface CityRecord {
  readonly city: string;
  readonly city_ascii: string;
  readonly iso2: string | number;
  readonly pop: number;
  readonly timezone: string | null;
}

interface CountryRecord {
  readonly timezones: readonly string[];
}

interface TimezoneRecord {
  readonly countries: readonly string[];
}

interface CountriesAndTimezones {
  getCountry(id: string): CountryRecord | null;
  getTimezone(name: string): TimezoneRecord | null;
}

interface Place {
  readonly zone: string;
  readonly population: number;
}

interface ZoneIndex {
  /** Folded city name to its most populous place (any country). */
  readonly byName: Map<string, Place>;
  /** `name|CC` to the most populous place of that name in that country. */
  readonly byNameInCountry: Map<string, Place>;
  /** Country code to the zone of its most populous city in the data. */
  readonly biggestCityZone: Map<string, Place>;
}

let index: ZoneIndex | undefined;
let countries: CountriesAndTimezones | undefined;

function load<T>(name: string): T {
  // Loaded here, not imported at the top, so only a process that resolves a zone pays for it.
  return createRequire(__filename)(name) as T;
}

/** isTimeZone per distinct name: building a formatter for each of 7,300 cities takes most of a second. */
const zoneChecks = new Map<string, boolean>();
function knownZone(name: string): boolean {
  let ok = zoneChecks.get(name);
  if (ok === undefined) {
    ok = isTimeZone(name);
    zoneChecks.set(name, ok);
  }
  return ok;
}

function buildIndex(): ZoneIndex {
  const cities = load<{ cityMapping: readonly CityRecord[] }>('city-timezones').cityMapping;
  const byName = new Map<string, Place>();
  const byNameInCountry = new Map<string, Place>();
  const biggestCityZone = new Map<string, Place>();
  const keep = (map: Map<string, Place>, key: string, place: Place): void => {
    const prev = map.get(key);
    if (prev === undefined || prev.population < place.population) map.set(key, place);
  };
  for (const c of cities) {
    // Antarctic stations have no zone; a few places (Kosovo, Somaliland) have no ISO code (-99).
    if (c.timezone === null || !knownZone(c.timezone)) continue;
    const place = { zone: c.timezone, population: c.pop };
    const code = typeof c.iso2 === 'string' && /^[A-Z]{2}$/.test(c.iso2) ? c.iso2 : null;
    for (const key of new Set([fold(c.city), fold(c.city_ascii)])) {
      if (key === '') continue;
      keep(byName, key, place);
      if (code !== null) keep(byNameInCountry, `${key}|${code}`, place);
    }
    if (code !== null) keep(biggestCityZone, code, place);
  }
  return { byName, byNameInCountry, biggestCityZone };
}

/** The zone of a city by its folded name (in that country when one is given), or null. */
export function cityZone(foldedName: string, countryCode: string | null): string | null {
  index ??= buildIndex();
  const place = countryCode === null ? index.byName.get(foldedName) : index.byNameInCountry.get(`${foldedName}|${countryCode}`);
  return place?.zone ?? null;
}

/**
 * A country's main zone: its only zone, or, for a country with several (the US, Russia, Brazil,
 * Australia, and Germany with Büsingen's Europe/Zurich), the zone of its most populous city in
 * the city data (New York, Moscow, São Paulo, Sydney, Berlin). A country the city data lacks
 * takes the first of its zones the IANA database assigns to it first. Null: no zone known.
 */
export function countryMainZone(countryCode: string): string | null {
  countries ??= load<CountriesAndTimezones>('countries-and-timezones');
  const zones = (countries.getCountry(countryCode)?.timezones ?? []).filter(knownZone);
  if (zones.length === 1) return zones[0] as string;
  index ??= buildIndex();
  const biggest = index.biggestCityZone.get(countryCode)?.zone;
  if (biggest !== undefined && (zones.length === 0 || zones.includes(biggest))) return biggest;
  const own = zones.find((z) => countries?.getTimezone(z)?.countries[0] === countryCode);
  return own ?? zones[0] ?? null;
}
