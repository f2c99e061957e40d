/** The rows of set 2's files (leads.jsonl, phrases.jsonl), shared by the generator, the runner and the test. */
import type { Language } from './geo';
import type { PlaceClass } from './render/places';
import type { SizeFormat } from './render/sizes';
import type { TitleRender } from './render/titles';
import type { LeadTruth, Predicate } from './truth';

/** How a lead's fields were written: its lead-side classes. */
export interface LeadRender {
  readonly title: TitleRender;
  readonly place: PlaceClass;
  readonly size: SizeFormat;
  readonly industry: 'label' | 'blank';
  /** Some field was written with a rendering reserved for the frozen part (never true in the tuning part). */
  readonly unseen: boolean;
}

/**
 * A lead as an export gives it (strings, '' when blank) plus `truth` and `render`, which the runner
 * never passes to the service.
 */
export interface Set2Lead {
  readonly id: string;
  readonly frozen: boolean;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly company: string;
  readonly title: string;
  readonly country: string;
  readonly state: string;
  readonly city: string;
  readonly industry: string;
  readonly company_size: string;
  readonly truth: LeadTruth;
  readonly render: LeadRender;
}

/** Phrase-side classes: which slots a phrase fills. */
export const PHRASE_CLASSES = ['role_family', 'places', 'umbrella', 'industry_leaf', 'none'] as const;
export type PhraseClass = (typeof PHRASE_CLASSES)[number];

export interface Set2Phrase {
  readonly id: string;
  readonly frozen: boolean;
  readonly text: string;
  readonly classes: readonly PhraseClass[];
  readonly predicate: Predicate;
  /** Ids of the leads of the phrase's own part that the predicate selects, in file order. */
  readonly expected: readonly string[];
}

export type { Language };
