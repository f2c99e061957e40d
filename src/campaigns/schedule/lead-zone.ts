/**
 * A lead's own time zone, read at enrolment for `schedule.timezone: "lead"` (docs/enrolment.md,
 * "Zones and holidays"): the zone of the lead's city (within the lead's country when both are
 * known, else the most populous city of that name), else the main zone of the lead's country
 * (zone-data.ts says which zone a country with several has), else null: the campaign's zone is
 * used for them. Runs once per enrolled lead, so answers are cached by what the lead says.
 */
import cityAliases from '../../leads/profile/vocabulary/city-aliases.json';
import { countryByCode, countryCode as countryCodeOf } from '../../leads/profile/countries';
import { fold } from '../../leads/profile/normalize';
import { cityZone, countryMainZone } from './zone-data';

export interface LeadPlace {
  readonly city: string | null;
  /** As the lead gives it: a name, an alias or a code. */
  readonly country: string | null;
  /** ISO 3166-1 alpha-2, as the lead's profile read it (from country, state or city). */
  readonly countryCode: string | null;
}

export type ZoneSource = 'city' | 'country';

export interface LeadZone {
  readonly zone: string;
  readonly source: ZoneSource;
}

/** Spellings the city data lacks ('München', 'NYC'), to the name it has (folded). */
const ALIASES: Readonly<Record<string, string>> = cityAliases.aliases;

/** What enrolment stores of a lead's place: their zone (null: none known) and their country (for holidays). */
export interface LeadZoneFacts {
  readonly zone: LeadZone | null;
  readonly countryCode: string | null;
}

/** Enough for every distinct place of a large enrolment; emptied when full rather than grown. */
const CACHE_LIMIT = 20_000;
const cache = new Map<string, LeadZoneFacts>();

/** The country a lead names, as an ISO code: its profile's code, else its country column read as a code or a name. */
function countryOf(lead: LeadPlace): string | null {
  // The profile's code is already ISO alpha-2: taken as it is, without loading the country names.
  const code = lead.countryCode?.trim() ?? '';
  if (/^[A-Za-z]{2}$/.test(code)) return code.toUpperCase();
  if (code !== '') {
    const read = countryByCode(code);
    if (read !== null) return read;
  }
  const raw = lead.country?.trim() ?? '';
  return raw === '' ? null : countryCodeOf(raw);
}

/** The names to try for a city: as written, then the part before a comma ('Austin, TX'), each also through its alias ('München', 'NYC'). */
function cityKeys(city: string): string[] {
  const comma = city.indexOf(',');
  const names = comma > 0 ? [city, city.slice(0, comma)] : [city];
  const keys: string[] = [];
  for (const name of names) {
    const key = fold(name);
    if (key === '') continue;
    keys.push(key);
    const alias = ALIASES[key];
    if (alias === undefined) continue;
    keys.push(alias);
    // The aliases name the cities package's places ('new york city'); the zone data says 'New York'.
    if (alias.endsWith(' city')) keys.push(alias.slice(0, -' city'.length));
  }
  return keys;
}

function resolve(lead: LeadPlace): LeadZoneFacts {
  const countryCode = countryOf(lead);
  const city = lead.city?.trim() ?? '';
  if (city !== '') {
    for (const key of cityKeys(city)) {
      // A city of that name in another country than the lead's is not theirs: their country decides.
      const zone = cityZone(key, countryCode);
      if (zone !== null) return { zone: { zone, source: 'city' }, countryCode };
    }
  }
  const zone = countryCode === null ? null : countryMainZone(countryCode);
  return { zone: zone === null ? null : { zone, source: 'country' }, countryCode };
}

/** The lead's zone and country code, cached by what the lead says (enrolment asks once per lead). */
export function leadZoneFacts(lead: LeadPlace): LeadZoneFacts {
  const key = `${lead.city ?? ''}\u0000${lead.country ?? ''}\u0000${lead.countryCode ?? ''}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const found = resolve(lead);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, found);
  return found;
}

/** The lead's own zone and where it came from, or null when neither their city nor their country gives one. */
export function leadTimeZone(lead: LeadPlace): LeadZone | null {
  return leadZoneFacts(lead).zone;
}
