/**
 * A title as an audience names it ('CTO', 'VPs of Engineering', 'marketing directors', 'finance
 * and HR leaders') to the canonical keys and the (seniority, department) roles a lead's title is
 * matched by. Whatever no vocabulary knows is returned as `unknown`, which the resolver keeps as a
 * keyword (it narrows, never widens).
 */
import { fold, isPluralList } from '../../leads/profile/normalize';
import { titleWords } from '../../leads/profile/titles';
import { SENIORITIES, type Seniority } from '../../leads/profile/types';
import { longestAt, vocabulary, type Vocabulary } from '../../leads/profile/vocabulary';

export type Role = { readonly seniority: Seniority | null; readonly department: string | null };

/** What one title resolves to. */
export interface TitleResolution {
  readonly titleKeys: readonly string[];
  readonly roles: readonly Role[];
  /** Words of the title no vocabulary knows (kept as keywords). */
  readonly unknown: readonly string[];
}

/** Words that carry nothing inside a title an audience names ('people in', 'roles'). */
const TITLE_NOISE = new Set(['and', 'or', 'in', 'at', 'people', 'person', 'role', 'team', 'folk', 'staff', 'professional', 'position', 'level', 'member', 'all', 'any', 'anyone', 'everyone', 'who', 'work', 'working', 'like', 'such', 'as']);

const LIST_SPLIT = /\s*(?:,|;|\/|\band\b|\bor\b|&)\s*/i;

export function uniqueRoles(roles: readonly Role[]): Role[] {
  const seen = new Set<string>();
  return roles.filter((r) => {
    const k = `${r.seniority ?? ''}|${r.department ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Seniorities, departments and leftover words of a title no spelling names ('marketing
 * directors', 'finance and HR leaders'): every level it names at every function it names. A known
 * spelling inside it counts as its key (and its role, for a key that names one).
 */
function readWords(words: readonly string[], v: Vocabulary): TitleResolution {
  const seniorities = new Set<Seniority>();
  const departments: string[] = [];
  const unknown: string[] = [];
  const keys: string[] = [];
  const keyRoles: Role[] = [];
  for (let i = 0; i < words.length; ) {
    const aud = longestAt(v.audienceSeniorities, words, i);
    const tit = longestAt(v.titleSeniorities, words, i);
    const group = longestAt(v.departmentGroups, words, i);
    const dep = longestAt(v.departments, words, i);
    const key = longestAt(v.titles, words, i);
    const best = [aud, tit, group, dep, key].reduce((a, b) => (b !== undefined && (a === undefined || b.end > a.end) ? b : a), undefined as { end: number } | undefined);
    if (best === undefined) {
      if (!TITLE_NOISE.has(words[i]!)) unknown.push(words[i]!);
      i++;
      continue;
    }
    if (best === key && key !== undefined && (key.end - key.start >= 2 || v.standalone.has(words[i]!))) {
      keys.push(key.value.key);
      if (key.value.byRole) keyRoles.push({ seniority: key.value.seniority, department: key.value.department });
    } else if (best === aud && aud !== undefined) {
      for (const s of aud.value) seniorities.add(s);
    } else if (best === tit && tit !== undefined) {
      seniorities.add(tit.value);
    } else if (best === group && group !== undefined) {
      for (const d of group.value) if (!departments.includes(d)) departments.push(d);
    } else if (best === dep && dep !== undefined) {
      if (!departments.includes(dep.value)) departments.push(dep.value);
    } else if (key !== undefined) {
      // A single-word spelling that is not standalone ('engineer'): its department still counts.
      if (key.value.department !== null && !departments.includes(key.value.department)) departments.push(key.value.department);
      if (key.value.seniority !== null) seniorities.add(key.value.seniority);
    }
    i = best.end;
  }
  if (seniorities.size === 0 && departments.length === 0) return { titleKeys: keys, roles: keyRoles, unknown };
  const levels: (Seniority | null)[] = seniorities.size === 0 ? [null] : SENIORITIES.filter((s) => seniorities.has(s));
  const functions: (string | null)[] = departments.length === 0 ? [null] : departments;
  const roles = [...keyRoles, ...levels.flatMap((s) => functions.map((d) => ({ seniority: s, department: d })))];
  return { titleKeys: keys, roles: uniqueRoles(roles), unknown };
}

/** A title that names functions only ('finance' in 'finance and HR leaders'). */
const functionsOnly = (r: TitleResolution): boolean => r.titleKeys.length === 0 && r.roles.length > 0 && r.roles.every((x) => x.seniority === null);
/** A title that names levels only ('directors' in 'directors and VPs of Engineering'). */
const levelsOnly = (r: TitleResolution): boolean => r.titleKeys.length === 0 && r.roles.length > 0 && r.roles.every((x) => x.department === null);

/**
 * The items of a list read together: an item naming functions only takes the levels of the next
 * item that names levels ('finance and HR leaders': finance leaders too), and one naming levels
 * only takes the functions of the next that names functions ('directors and VPs of Engineering':
 * directors of engineering too). An item nothing follows keeps what it names.
 */
function distribute(items: readonly TitleResolution[]): TitleResolution[] {
  return items.map((r, i) => {
    const next = items.slice(i + 1);
    if (functionsOnly(r)) {
      const source = next.find((x) => x.roles.some((y) => y.seniority !== null));
      if (source === undefined) return r;
      const levels = [...new Set(source.roles.map((y) => y.seniority).filter((s): s is Seniority => s !== null))];
      return { ...r, roles: r.roles.flatMap((x) => levels.map((s) => ({ seniority: s, department: x.department }))) };
    }
    if (levelsOnly(r)) {
      const source = next.find((x) => x.roles.some((y) => y.department !== null));
      if (source === undefined) return r;
      const functions = [...new Set(source.roles.map((y) => y.department).filter((d): d is string => d !== null))];
      return { ...r, roles: r.roles.flatMap((x) => functions.map((d) => ({ seniority: x.seniority, department: d }))) };
    }
    return r;
  });
}

/**
 * One title as a user writes it ('CTO', 'VPs of Engineering', 'marketing directors', 'cto'):
 * a canonical key when a spelling names it (a key that names a role, such as head_sales or
 * hr_manager, also by its role, so 'Head of Sales EMEA' and 'Manager, Human Resources' are found),
 * else roles from its words; a list ('CTOs and CFOs', 'finance and HR leaders') item by item, read
 * together (distribute).
 */
export function resolveTitle(title: string): TitleResolution {
  const v = vocabulary();
  const raw = title.trim().toLowerCase();
  const canonical = v.titleKeys.get(raw);
  if (canonical !== undefined) {
    return { titleKeys: [canonical.key], roles: canonical.byRole ? [{ seniority: canonical.seniority, department: canonical.department }] : [], unknown: [] };
  }
  const words = titleWords(title, v);
  if (words.length === 0) return { titleKeys: [], roles: [], unknown: [] };
  const entry = isPluralList(fold(title).split(' ')) ? undefined : v.titles.map.get(words.join(' '));
  if (entry !== undefined) {
    return { titleKeys: [entry.key], roles: entry.byRole ? [{ seniority: entry.seniority, department: entry.department }] : [], unknown: [] };
  }
  const parts = title.split(LIST_SPLIT).filter((p) => p.trim() !== '');
  if (parts.length > 1) {
    const each = parts.map(resolveTitle);
    if (each.every((r) => r.titleKeys.length > 0 || r.roles.length > 0)) {
      const read = distribute(each);
      return { titleKeys: read.flatMap((r) => r.titleKeys), roles: uniqueRoles(read.flatMap((r) => r.roles)), unknown: read.flatMap((r) => r.unknown) };
    }
  }
  return readWords(words, v);
}
