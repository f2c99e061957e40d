/**
 * Writes a lead's title from its truth (role, level, founder), in the language of where it lives or
 * in English, and records how it was written (its render class) for the per-class figures.
 */
import type { Language } from '../geo';
import type { Rng } from '../random';
import { ROLES, roleLevel, type Level, type RoleId } from '../truth';
import { DA } from './lang/da';
import { DE } from './lang/de';
import { ES } from './lang/es';
import { FR } from './lang/fr';
import { IT } from './lang/it';
import { NL } from './lang/nl';
import { NO } from './lang/no';
import { PL } from './lang/pl';
import { PT } from './lang/pt';
import { SV } from './lang/sv';
import { pickRendering, type Part } from './reserve';
import type { ForeignTitle, TitleClass } from './title-types';
import { englishForms, FOUNDER_PAIRS, MODIFIERS, NOISE, OTHER_PAIRS, type EnglishForms } from './titles-en';

export const FOREIGN: Readonly<Record<Exclude<Language, 'en'>, readonly ForeignTitle[]>> = {
  de: DE,
  fr: FR,
  nl: NL,
  es: ES,
  pt: PT,
  it: IT,
  sv: SV,
  da: DA,
  no: NO,
  pl: PL,
};

/** Share of leads in a non-English country whose title is in the local language (when the table has one). */
const LOCAL_LANGUAGE_SHARE = 0.75;
const NOISE_SHARE = 0.14;
const ENGLISH_CLASS_WEIGHTS: Partial<Record<TitleClass, number>> = { plain_en: 40, inverted: 15, abbreviated: 18, modifier: 15, dual_role: 20 };

export interface TitleSpec {
  readonly role: RoleId;
  readonly level: Level;
  readonly founder: boolean;
}

export interface TitleRender {
  readonly class: TitleClass;
  readonly language: Language;
  /** A company, territory or working mode appended (", Acme GmbH", " - EMEA", " (Remote)"). */
  readonly noise: boolean;
}

export interface RenderedTitle {
  readonly title: string;
  readonly render: TitleRender;
  /** Some part of the title came from a frozen-only rendering. */
  readonly reserved: boolean;
}

const foreignLevel = (e: ForeignTitle): Level => e.level ?? (e.founder === true ? 'c_level' : roleLevel(e.role));

/** The foreign titles of a language that say exactly this truth. */
export function foreignCandidates(language: Exclude<Language, 'en'>, spec: TitleSpec): ForeignTitle[] {
  return FOREIGN[language].filter((e) => e.role === spec.role && foreignLevel(e) === spec.level && (e.founder === true) === spec.founder);
}

const fill = (template: string, t: string): string => template.replace('{t}', t);
/** Words that say where a role reaches; two of them in a row read wrong. */
const SCOPE = new Set(['Regional', 'Area', 'Field', 'Inside', 'Global', 'Group']);

/** The English classes this truth can be written in, each with a way to write it. */
function englishOptions(rng: Rng, part: Part, spec: TitleSpec): Partial<Record<TitleClass, () => { text: string; reserved: boolean }>> {
  const base = roleLevel(spec.role);
  const fn = ROLES[spec.role].fn;
  const forms = englishForms(spec.role, fn, base);
  const table = (name: string): string => `title:en:${spec.role}:${name}`;
  const one = (name: string, items: readonly string[]) => (): { text: string; reserved: boolean } => {
    const p = pickRendering(rng, table(name), items, part);
    return { text: p.value, reserved: p.reserved };
  };
  /** A template ("Senior {t}", "Founder & {t}") filled with one of the role's forms of a kind. */
  const templated =
    (tName: string, templates: readonly string[], kinds: readonly (keyof EnglishForms)[]) =>
    (): { text: string; reserved: boolean } => {
      const t = pickRendering(rng, tName, templates, part);
      const kind = rng.pick(kinds.filter((k) => forms[k] !== undefined));
      const word = t.value.split(' ')[0]!;
      // "Associate {t}" is not applied to "Associate Attorney", nor "Regional {t}" to "Area Sales Manager".
      const clash = (f: string): boolean => f.startsWith(word) || (SCOPE.has(word) && SCOPE.has(f.split(' ')[0]!));
      const x = pickRendering(rng, table(kind), forms[kind]!, part, (f) => !clash(f));
      return { text: fill(t.value, x.value), reserved: t.reserved || x.reserved };
    };

  if (spec.founder) {
    if (spec.role === 'founder') return { plain_en: one('plain', forms.plain) };
    return { dual_role: templated('founder-pairs', FOUNDER_PAIRS, ['plain', 'abbreviated']) };
  }
  if (spec.level !== base) {
    const mods = MODIFIERS[`${base}>${spec.level}`];
    if (mods === undefined) throw new Error(`${spec.role} cannot be ${spec.level}`);
    return { modifier: templated(`modifiers:${base}>${spec.level}`, mods, ['plain']) };
  }
  const options: Partial<Record<TitleClass, () => { text: string; reserved: boolean }>> = { plain_en: one('plain', forms.plain) };
  if (forms.inverted !== undefined) options.inverted = one('inverted', forms.inverted);
  if (forms.abbreviated !== undefined) options.abbreviated = one('abbreviated', forms.abbreviated);
  const mods = MODIFIERS[`${base}>${base}`];
  // No modifiers on distractors ("Senior Head Chef") or the deputy CEO ("Senior Deputy CEO").
  if (mods !== undefined && fn !== 'other' && spec.role !== 'deputy_ceo') options.modifier = templated(`modifiers:${base}>${base}`, mods, ['plain']);
  const pairs = OTHER_PAIRS[spec.role];
  if (pairs !== undefined) options.dual_role = one('pairs', pairs);
  return options;
}

export function renderTitle(rng: Rng, part: Part, spec: TitleSpec, language: Language, feminine: boolean, company: string): RenderedTitle {
  let text: string;
  let cls: TitleClass;
  let lang: Language = 'en';
  let reserved = false;
  const foreign = language === 'en' ? [] : foreignCandidates(language, spec);
  if (language !== 'en' && foreign.length > 0 && rng.chance(LOCAL_LANGUAGE_SHARE)) {
    const p = pickRendering(rng, `title:${language}:${spec.role}:${spec.level}:${spec.founder}`, foreign, part);
    const t = p.value.text;
    text = typeof t === 'string' ? t : t[feminine ? 1 : 0];
    cls = 'foreign';
    lang = language;
    reserved = p.reserved;
  } else {
    const options = englishOptions(rng, part, spec);
    const weights: Partial<Record<TitleClass, number>> = {};
    for (const k of Object.keys(options) as TitleClass[]) weights[k] = ENGLISH_CLASS_WEIGHTS[k] ?? 1;
    cls = rng.weighted(weights);
    const r = options[cls]!();
    text = r.text;
    reserved = r.reserved;
  }
  const noise = rng.chance(NOISE_SHARE);
  if (noise) {
    const n = pickRendering(rng, 'title-noise', NOISE, part);
    text += n.value.replace('{company}', company);
    reserved ||= n.reserved;
  }
  return { title: text, render: { class: cls, language: lang, noise }, reserved };
}
