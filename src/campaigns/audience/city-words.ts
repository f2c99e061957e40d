/**
 * City names that are also everyday words in audience phrases ('Mobile developers', 'Reading
 * lists', 'Nice to have'): vocabulary/ambiguous-city-names.json. The parser reads a city outside a
 * place context ('Munich startups') only when its name is not one of them; after 'in' or 'based'
 * every city counts.
 */
import data from '../../leads/profile/vocabulary/ambiguous-city-names.json';
import { fold } from '../../leads/profile/normalize';

let names: ReadonlySet<string> | undefined;

export function isEverydayWordCity(name: string): boolean {
  names ??= new Set(data.names.map(fold));
  return names.has(fold(name));
}
