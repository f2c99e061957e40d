/** The shapes the title tables share (kept apart so the language tables import nothing else). */
import type { Level, RoleId } from '../truth';

/** How a title is written: the lead-side render class of "titles as written". */
export const TITLE_CLASSES = ['plain_en', 'inverted', 'abbreviated', 'modifier', 'dual_role', 'foreign'] as const;
export type TitleClass = (typeof TITLE_CLASSES)[number];

/** A title in another language; a pair is [masculine, feminine]. */
export interface ForeignTitle {
  readonly role: RoleId;
  /** When it differs from the role's level: "Senior Softwareentwickler" is a senior software engineer. */
  readonly level?: Level;
  /** A founder's title ("Gründer & Geschäftsführer"): the lead is C-level and a founder. */
  readonly founder?: boolean;
  readonly text: string | readonly [string, string];
}

/** Shorthand for the language tables: ft('head_sales', ['Vertriebsleiter', 'Vertriebsleiterin']). */
export const ft = (role: RoleId, text: ForeignTitle['text'], extra: { level?: Level; founder?: boolean } = {}): ForeignTitle => ({ role, text, ...extra });
