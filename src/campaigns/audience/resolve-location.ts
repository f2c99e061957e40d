/**
 * A place as an audience names it to the country codes, states or provinces and city the lead
 * columns hold: regions, countries, states, cities and 'City, Country' / 'City, State'.
 */
import { findCity, isCityAlias } from '../../leads/profile/cities';
import { countryByCode, countryByName, regionOf } from '../../leads/profile/countries';
import { fold } from '../../leads/profile/normalize';
import { subdivisionByCode, subdivisionByName, subdivisionOfCity } from '../../leads/profile/subdivisions';

export interface ResolvedLocation {
  readonly countryCodes: readonly string[];
  /** States and provinces, ISO 3166-2. */
  readonly subdivisions?: readonly string[];
  readonly city?: { readonly city: string; readonly countryCode: string };
}

/** A city at least this big named like the state it lies in is that city ('Berlin'); smaller ones yield to the state ('Quebec'). */
const CITY_STATE_POPULATION = 1_000_000;

/** A city in a country (or in a state, which names its country), as the lead column holds it. */
function cityIn(name: string, country: string): ResolvedLocation | null {
  const folded = fold(name);
  if (folded === '') return null;
  const known = findCity(name, country);
  return { countryCodes: [], city: { city: known?.city ?? folded, countryCode: country } };
}

/**
 * A location: a region (of countries or of states), a country (name, alias, demonym, code), a
 * state or province (name, ISO code, abbreviation), a city, or 'City, Country' / 'City, State'.
 * A name that is both a state and a city the city aliases list ('New York') is the city, and so is
 * a city-state ('Berlin', 'Hamburg'); any other name both a state and a city ('Washington',
 * 'Quebec') is the state, the wider reading, which holds the city too.
 */
export function resolveLocation(text: string): ResolvedLocation | null {
  const region = regionOf(text);
  if (region !== null) return { countryCodes: region.countries, subdivisions: region.subdivisions };
  const country = countryByName(text) ?? countryByCode(text);
  if (country !== null) return { countryCodes: [country] };
  const comma = text.lastIndexOf(',');
  if (comma > 0) {
    const after = text.slice(comma + 1);
    const inCountry = countryByName(after) ?? countryByCode(after);
    if (inCountry !== null) return cityIn(text.slice(0, comma), inCountry);
    const inState = subdivisionByName(after) ?? subdivisionByCode(after);
    if (inState !== null) return cityIn(text.slice(0, comma), inState.country);
  }
  const aliased = isCityAlias(text) ? findCity(text) : null;
  if (aliased !== null) return { countryCodes: [], city: { city: aliased.city, countryCode: aliased.countryCode } };
  const state = subdivisionByName(text) ?? subdivisionByCode(text);
  if (state !== null) {
    // A city-state ('Berlin', 'Hamburg') is read as the city people mean.
    const city = findCity(text, state.country);
    if (city !== null && city.population >= CITY_STATE_POPULATION && subdivisionOfCity(city.countryCode, city.admin1)?.code === state.code) {
      return { countryCodes: [], city: { city: city.city, countryCode: city.countryCode } };
    }
    return { countryCodes: [], subdivisions: [state.code] };
  }
  const city = findCity(text);
  return city === null ? null : { countryCodes: [], city: { city: city.city, countryCode: city.countryCode } };
}
