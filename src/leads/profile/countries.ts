/**
 * Countries and regions: a name, alias, demonym or ISO code to ISO 3166-1 alpha-2 codes. Names
 * in many languages come from i18n-iso-countries; aliases and demonyms it lacks from
 * vocabulary/countries-extra.json; regions (of countries, or of states and provinces) from
 * vocabulary/regions.json.
 */
import countries, { type LocaleData } from 'i18n-iso-countries';
import cs from 'i18n-iso-countries/langs/cs.json';
import da from 'i18n-iso-countries/langs/da.json';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import es from 'i18n-iso-countries/langs/es.json';
import fi from 'i18n-iso-countries/langs/fi.json';
import fr from 'i18n-iso-countries/langs/fr.json';
import it from 'i18n-iso-countries/langs/it.json';
import ja from 'i18n-iso-countries/langs/ja.json';
import ko from 'i18n-iso-countries/langs/ko.json';
import nb from 'i18n-iso-countries/langs/nb.json';
import nl from 'i18n-iso-countries/langs/nl.json';
import pl from 'i18n-iso-countries/langs/pl.json';
import pt from 'i18n-iso-countries/langs/pt.json';
import sv from 'i18n-iso-countries/langs/sv.json';
import tr from 'i18n-iso-countries/langs/tr.json';
import zh from 'i18n-iso-countries/langs/zh.json';
import extra from './vocabulary/countries-extra.json';
import regionsData from './vocabulary/regions.json';
import { matchForm } from './normalize';

/** English first: a name another language gives a different country never overrides it. */
const LOCALES = [en, de, fr, es, it, nl, pt, sv, da, nb, fi, pl, cs, tr, ja, zh, ko] as unknown as LocaleData[];

interface CountryIndex {
  /** Names, aliases and demonyms in match form. */
  readonly names: ReadonlyMap<string, string>;
  /** Alpha-2 and alpha-3 codes, upper case. */
  readonly codes: ReadonlyMap<string, string>;
  readonly regions: ReadonlyMap<string, Region>;
  readonly maxWords: number;
}

/** A region: the countries it spans and, for regions within a country ('West Coast'), its states or provinces. */
export interface Region {
  readonly id: string;
  readonly countries: readonly string[];
  /** ISO 3166-2 codes. */
  readonly subdivisions: readonly string[];
}

function build(): CountryIndex {
  const names = new Map<string, string>();
  const add = (name: string, code: string): void => {
    const f = matchForm(name);
    if (f !== '' && !names.has(f)) names.set(f, code);
  };
  for (const [alias, code] of Object.entries(extra.aliases)) add(alias, code);
  for (const [demonym, code] of Object.entries(extra.demonyms)) add(demonym, code);
  for (const locale of LOCALES) {
    countries.registerLocale(locale);
    for (const [code, value] of Object.entries(countries.getNames(locale.locale, { select: 'all' }))) {
      for (const name of value) add(name, code);
    }
  }
  const codes = new Map<string, string>();
  for (const [a3, a2] of Object.entries(countries.getAlpha3Codes())) {
    codes.set(a2, a2);
    codes.set(a3, a2);
  }
  codes.set('UK', 'GB');
  codes.set('XK', 'XK');
  const regions = new Map<string, Region>();
  for (const r of regionsData.regions as readonly { id: string; names: readonly string[]; countries?: readonly string[]; subdivisions?: readonly string[] }[]) {
    const region: Region = { id: r.id, countries: r.countries ?? [], subdivisions: r.subdivisions ?? [] };
    for (const n of r.names) regions.set(matchForm(n), region);
  }
  let maxWords = 0;
  for (const k of [...names.keys(), ...regions.keys()]) maxWords = Math.max(maxWords, k.split(' ').length);
  return { names, codes, regions, maxWords };
}

let index: CountryIndex | undefined;
function countryIndex(): CountryIndex {
  index ??= build();
  return index;
}

/** The longest country or region name in words, for scanning free text. */
export function locationMaxWords(): number {
  return countryIndex().maxWords;
}

/** A country by its name, alias or demonym in any registered language (not by code). */
export function countryByName(text: string): string | null {
  return countryIndex().names.get(matchForm(text)) ?? null;
}

/** A country by its ISO 3166-1 alpha-2 or alpha-3 code (or UK), case ignored. */
export function countryByCode(text: string): string | null {
  const t = text.trim().replace(/\./g, '').toUpperCase();
  return t.length === 2 || t.length === 3 ? (countryIndex().codes.get(t) ?? null) : null;
}

/** A country's code from whatever a lead export or an audience writes: name, alias, demonym, code. */
export function countryCode(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return countryByName(text) ?? countryByCode(text);
}

/** The region a name names (DACH, Nordics, EU, EMEA, West Coast...), or null. */
export function regionOf(text: string): Region | null {
  return countryIndex().regions.get(matchForm(text)) ?? null;
}
