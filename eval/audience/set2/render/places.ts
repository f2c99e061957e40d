/**
 * Writes a lead's city, state and country as exports do: English or local city names, the country
 * as an English name, a code, its own-language name or blank (when the city says it), US states
 * and Canadian provinces (and a few German Länder) as names or codes. One place class per lead.
 */
import { countryByCode, stateByCode, type City } from '../geo';
import type { Rng } from '../random';
import { pickRendering, type Part } from './reserve';

export const PLACE_CLASSES = ['plain', 'local_city_name', 'country_blank', 'country_code', 'country_own_language', 'state_or_province'] as const;
export type PlaceClass = (typeof PLACE_CLASSES)[number];

export interface RenderedPlace {
  readonly city: string;
  readonly state: string;
  readonly country: string;
  readonly class: PlaceClass;
  readonly reserved: boolean;
}

const WITH_STATES = new Set(['US', 'CA', 'DE']);

function classWeights(city: City): Partial<Record<PlaceClass, number>> {
  const own = countryByCode(city.country).own;
  const w: Partial<Record<PlaceClass, number>> =
    city.country === 'US' || city.country === 'CA'
      ? { plain: 20, country_code: 20, state_or_province: 45, country_blank: 10, local_city_name: 10 }
      : city.country === 'DE'
        ? { plain: 25, local_city_name: 20, country_blank: 10, country_code: 12, country_own_language: 20, state_or_province: 13 }
        : { plain: 30, local_city_name: 20, country_blank: 10, country_code: 15, country_own_language: 25 };
  if (city.local === undefined) delete w.local_city_name;
  if (city.alone !== true) delete w.country_blank;
  if (own === undefined) delete w.country_own_language;
  if (city.state === undefined || !WITH_STATES.has(city.country)) delete w.state_or_province;
  return w;
}

export function renderPlace(rng: Rng, part: Part, city: City): RenderedPlace {
  const country = countryByCode(city.country);
  const cls = rng.weighted(classWeights(city));
  let reserved = false;
  const pick = (table: string, items: readonly string[]): string => {
    const p = pickRendering(rng, table, items, part);
    reserved ||= p.reserved;
    return p.value;
  };
  const englishCity = (): string => pick(`city-en:${city.country}:${city.name}`, [city.name, ...(city.english ?? [])]);
  const localCity = (): string => pick(`city-local:${city.country}:${city.name}`, city.local!);
  const anyCity = (): string => (city.local !== undefined && rng.chance(0.5) ? localCity() : englishCity());
  const englishCountry = (): string => pick(`country-en:${country.code}`, country.english);

  let out: { city: string; state: string; country: string };
  switch (cls) {
    case 'plain':
      out = { city: englishCity(), state: '', country: englishCountry() };
      break;
    case 'local_city_name':
      out = { city: localCity(), state: '', country: englishCountry() };
      break;
    case 'country_blank':
      out = { city: anyCity(), state: '', country: '' };
      break;
    case 'country_code':
      out = { city: englishCity(), state: '', country: pick(`country-code:${country.code}`, country.codes) };
      break;
    case 'country_own_language': {
      const own = country.own!;
      const names = own[city.language] ?? Object.values(own).flat();
      out = { city: anyCity(), state: '', country: pick(`country-own:${country.code}:${city.language}`, names) };
      break;
    }
    case 'state_or_province': {
      const s = stateByCode(city.state!);
      const state = pick(`state:${s.code}`, [...s.names, ...s.abbreviations, ...(s.local ?? [])]);
      const countryText = rng.weighted({ name: 5, code: 4, blank: 2 });
      out = {
        city: city.language !== 'en' && city.local !== undefined && rng.chance(0.3) ? localCity() : englishCity(),
        state,
        country: countryText === 'name' ? englishCountry() : countryText === 'code' ? pick(`country-code:${country.code}`, country.codes) : '',
      };
      break;
    }
  }
  return { ...out, class: cls, reserved };
}
