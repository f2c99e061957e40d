/**
 * A lead's custom (personal) fields: the columns of an import that feed no lead field ("Favourite
 * colour", "Plan", "Account owner"), kept with the lead by a normalised name and shown, exported
 * and matched by audience filters under that name. The rules live here, in one place: the import
 * names and fills them, the audience filters and (later) templates name them with
 * CUSTOM_FIELD_NAME_PATTERN.
 */
import { fold } from './profile/normalize';

/**
 * What a custom field name looks like once normalised: a lower-case ASCII letter, then letters,
 * digits and underscores, 40 characters at most. It is what an audience filter names and what a
 * template writes as `{{custom.<name>}}`, so it has to be a plain identifier there too.
 */
export const CUSTOM_FIELD_NAME_PATTERN = '^[a-z][a-z0-9_]{0,39}$';
export const CUSTOM_FIELD_NAME = new RegExp(CUSTOM_FIELD_NAME_PATTERN);

/** Longest name: long enough for the headers of CRM exports, short enough to write in a template. */
export const MAX_CUSTOM_FIELD_NAME_LENGTH = 40;

/**
 * Most custom fields one import keeps. A CRM export of every property has a few hundred columns,
 * most of them empty; past this the columns are ignored (and reported), so one file cannot give
 * every lead thousands of keys that every read and export then carries.
 */
export const MAX_CUSTOM_FIELDS_PER_IMPORT = 200;

/** A lead's custom fields: normalised name to its text. Absent keys are fields the lead has no value for. */
export type CustomFields = Readonly<Record<string, string>>;

/**
 * A header as a custom field name, or null when nothing of it is left: "Favourite Colour" ->
 * `favourite_colour`, "Código Postal" -> `codigo_postal`, "2024 Revenue ($)" -> `col_2024_revenue`.
 * - accents folded and lower-cased (the profile's `fold`, so "Ü" and "u" meet), because people
 *   type the name in filters and templates from memory, in ASCII;
 * - every run of other characters one `_`, `_` trimmed at the ends: the name stays an identifier;
 * - a leading digit gets `col_`, since identifiers (and the pattern) start with a letter;
 * - cut to 40 characters (and `_` trimmed again, so the cut never leaves a trailing one).
 */
export function normalizeCustomFieldName(header: string): string | null {
  const base = fold(header)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (base === '') return null;
  const name = (/^[0-9]/.test(base) ? `col_${base}` : base).slice(0, MAX_CUSTOM_FIELD_NAME_LENGTH).replace(/_+$/, '');
  return name;
}

/** A custom column of an import: where it is in the row, its header as written, its field name. */
export interface CustomColumn {
  readonly index: number;
  readonly column: string;
  readonly field: string;
}

/** The custom fields of an import's header, and the headers that feed nothing. */
export interface CustomColumns {
  readonly columns: readonly CustomColumn[];
  /** Headers (as written) that normalise to nothing or come past MAX_CUSTOM_FIELDS_PER_IMPORT. */
  readonly ignored: readonly string[];
}

/**
 * Names the header's columns that are not lead fields, in header order. Blank headers are skipped
 * (no name to report); two headers with the same normalised name are both kept, the second as
 * `<name>_2`, the third `<name>_3` (cut so the suffix fits in 40 characters), because a file's
 * columns are distinct data even when their headers differ only in case or punctuation.
 */
export function customColumnsOf(headers: ReadonlyArray<{ readonly index: number; readonly header: string }>): CustomColumns {
  const columns: CustomColumn[] = [];
  const ignored: string[] = [];
  const taken = new Set<string>();
  for (const { index, header } of headers) {
    const column = header.trim();
    if (column === '') continue;
    const name = normalizeCustomFieldName(column);
    if (name === null || columns.length >= MAX_CUSTOM_FIELDS_PER_IMPORT) {
      ignored.push(column);
      continue;
    }
    const field = distinctName(name, taken);
    taken.add(field);
    columns.push({ index, column, field });
  }
  return { columns, ignored };
}

/** `name`, or `name_2`, `name_3`... the first not taken; the base is cut so the result stays within 40 characters. */
function distinctName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${name.slice(0, MAX_CUSTOM_FIELD_NAME_LENGTH - suffix.length).replace(/_+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * One row's custom fields, or undefined when it has none. Values are text, trimmed, as every lead
 * field is; an empty cell is no value (the key is absent), so "has a value" and "has the key" are
 * one question for filters and templates. The row's size limit (64 KB) bounds the values.
 */
export function customFieldValues(values: readonly string[], columns: readonly CustomColumn[]): CustomFields | undefined {
  let out: Record<string, string> | undefined;
  for (const c of columns) {
    const v = (values[c.index] ?? '').trim();
    if (v === '') continue;
    out ??= {};
    out[c.field] = v;
  }
  return out;
}
