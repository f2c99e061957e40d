import { REPLY_CATEGORIES, type ReplyCategory } from '../../../db/models/reply';
import { CATEGORY_LABEL } from '../../view/format';

/** A reply's labels as the inbox and the thread show them: the one in force, and the model's beside the user's. */
export interface LabelView {
  /** The label in force, in words. */
  readonly text: string;
  /** The effective category (for a CSS hook and the menu's selection); '' before qualification. */
  readonly category: ReplyCategory | '';
  /** "You: Interested · model: Neutral" when the user corrected it; null otherwise. */
  readonly corrected: string | null;
  readonly model: string;
}

const words = (c: string | null): string => (c === null ? CATEGORY_LABEL.uncategorised! : (CATEGORY_LABEL[c] ?? c));

export function labelView(r: { readonly category: ReplyCategory | null; readonly modelCategory: ReplyCategory | null; readonly userCategory: ReplyCategory | null }): LabelView {
  return {
    text: words(r.category),
    category: r.category ?? '',
    corrected: r.userCategory === null ? null : `Your label: ${words(r.userCategory)} · the model said: ${words(r.modelCategory)}`,
    model: words(r.modelCategory),
  };
}

/** The correction menu's choices, in the order the qualifier's categories are listed. */
export const CATEGORY_CHOICES: ReadonlyArray<{ readonly value: ReplyCategory; readonly label: string }> = REPLY_CATEGORIES.map((value) => ({ value, label: words(value) }));
