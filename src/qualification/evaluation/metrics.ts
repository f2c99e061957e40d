import { CATEGORIES, type Category } from '../categories';

export interface CategoryMetrics {
  readonly category: Category;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  /** How many replies of the set carry this label. */
  readonly support: number;
}

export interface Metrics {
  readonly total: number;
  readonly correct: number;
  readonly accuracy: number;
  readonly perCategory: readonly CategoryMetrics[];
  /** confusion[expected][predicted] = count. */
  readonly confusion: Readonly<Record<Category, Readonly<Record<Category, number>>>>;
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);

/** Accuracy, per-category precision/recall/F1 and the confusion matrix of (expected, predicted) pairs. */
export function computeMetrics(pairs: ReadonlyArray<{ expected: Category; predicted: Category }>): Metrics {
  const confusion = Object.fromEntries(CATEGORIES.map((e) => [e, Object.fromEntries(CATEGORIES.map((p) => [p, 0]))])) as Record<Category, Record<Category, number>>;
  for (const { expected, predicted } of pairs) confusion[expected][predicted] += 1;
  const correct = pairs.filter((p) => p.expected === p.predicted).length;
  const perCategory = CATEGORIES.map((c) => {
    const tp = confusion[c][c];
    const support = CATEGORIES.reduce((n, p) => n + confusion[c][p], 0);
    const predicted = CATEGORIES.reduce((n, e) => n + confusion[e][c], 0);
    const precision = ratio(tp, predicted);
    const recall = ratio(tp, support);
    return { category: c, precision, recall, f1: ratio(2 * precision * recall, precision + recall), support };
  });
  return { total: pairs.length, correct, accuracy: ratio(correct, pairs.length), perCategory, confusion };
}
