/**
 * Evaluation of the built-in reply classifier on the hand-labelled set (replies.jsonl).
 *
 *   npm run eval:qualify                    # full report
 *   npm run eval:qualify -- --batch 5       # list only the misses of one batch (e.g. a new, unseen one)
 *   npm run eval:qualify -- --evidence      # show the cues behind each miss
 *
 * A report, not a gate: exits 0 whatever the accuracy, 1 only when the set is malformed.
 */
import { Command } from 'commander';
import path from 'node:path';
import { CATEGORIES, type Category } from '../../src/qualification/categories';
import { classifyBuiltin, type BuiltinClassification } from '../../src/qualification/builtin/classifier';
import { EVAL_DEFAULT_RECEIVED_AT, EvalSetError, loadEvalSet, type EvalEntry } from '../../src/qualification/evaluation/eval-set';
import { computeMetrics, type Metrics } from '../../src/qualification/evaluation/metrics';

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const SHORT: Record<Category, string> = {
  interested: 'int',
  meeting_booked: 'mtg',
  closed: 'cls',
  neutral: 'neu',
  not_interested: 'ni',
  out_of_office: 'ooo',
  unsubscribe: 'uns',
};

interface Row {
  readonly entry: EvalEntry;
  readonly result: BuiltinClassification;
}

function printMetrics(title: string, m: Metrics): void {
  out(`${title}: accuracy ${pct(m.accuracy)} (${m.correct}/${m.total})`);
}

function printTable(m: Metrics): void {
  out('');
  out(`${'category'.padEnd(16)}${'precision'.padStart(10)}${'recall'.padStart(10)}${'f1'.padStart(8)}${'support'.padStart(9)}`);
  for (const c of m.perCategory) {
    out(`${c.category.padEnd(16)}${c.precision.toFixed(3).padStart(10)}${c.recall.toFixed(3).padStart(10)}${c.f1.toFixed(3).padStart(8)}${String(c.support).padStart(9)}`);
  }
  out('');
  out('confusion matrix (rows: expected, columns: predicted)');
  out(`${''.padEnd(16)}${CATEGORIES.map((c) => SHORT[c].padStart(5)).join('')}`);
  for (const e of CATEGORIES) out(`${e.padEnd(16)}${CATEGORIES.map((p) => String(m.confusion[e][p]).padStart(5)).join('')}`);
}

function main(): void {
  const program = new Command()
    .option('--file <path>', 'the evaluation set', path.join(__dirname, 'replies.jsonl'))
    .option('--batch <n>', 'list only the misclassified replies of this batch')
    .option('--evidence', 'show the cues behind each misclassification', false)
    .parse(process.argv);
  const opts = program.opts<{ file: string; batch?: string; evidence: boolean }>();

  let entries: EvalEntry[];
  try {
    entries = loadEvalSet(opts.file);
  } catch (err) {
    process.stderr.write(`${err instanceof EvalSetError ? 'Malformed evaluation set' : 'Cannot read the evaluation set'}: ${(err as Error).message}\n`);
    process.exit(1);
  }

  const rows: Row[] = entries.map((entry) => ({
    entry,
    result: classifyBuiltin({ subject: entry.subject, bodyText: entry.body }, { now: new Date(entry.received_at ?? EVAL_DEFAULT_RECEIVED_AT) }),
  }));
  const pairs = (list: readonly Row[]) => list.map((r) => ({ expected: r.entry.category, predicted: r.result.category }));

  out(`Built-in reply classifier on ${path.basename(opts.file)}: ${rows.length} replies`);
  out('');
  const all = computeMetrics(pairs(rows));
  printMetrics('all     ', all);
  const batches = [...new Set(rows.map((r) => r.entry.batch).filter((b): b is number => b !== undefined))].sort((a, b) => a - b);
  for (const b of batches) printMetrics(`batch ${String(b).padEnd(2)}`, computeMetrics(pairs(rows.filter((r) => r.entry.batch === b))));
  out('(the rules were developed on these batches; first-run accuracy of each batch on unseen rules: eval/qualify/README.md)');
  printTable(all);

  const dated = rows.filter((r) => r.entry.return_date);
  const datesRight = dated.filter((r) => r.result.category === 'out_of_office' && r.result.returnDate === r.entry.return_date);
  out('');
  out(`out-of-office return dates: ${datesRight.length}/${dated.length} extracted exactly`);
  for (const r of dated.filter((x) => !datesRight.includes(x))) {
    out(`  ${r.entry.id}: expected ${r.entry.return_date}, got ${r.result.category === 'out_of_office' ? (r.result.returnDate ?? 'none') : `category ${r.result.category}`}`);
  }

  const wanted = rows.filter((r) => opts.batch === undefined || r.entry.batch === Number(opts.batch));
  const misses = wanted.filter((r) => r.entry.category !== r.result.category);
  out('');
  out(`misclassified${opts.batch === undefined ? '' : ` (batch ${opts.batch})`}: ${misses.length}`);
  for (const r of misses) {
    const text = r.entry.body.replace(/\s+/g, ' ').slice(0, 90);
    out(`  ${r.entry.id} expected ${r.entry.category.padEnd(14)} got ${r.result.category.padEnd(14)} (${r.result.confidence.toFixed(2)})  ${text}`);
    if (opts.evidence) for (const e of r.result.evidence) out(`        ${e.category} +${e.weight} ${e.source}${e.negated ? ' (negated)' : ''}: ${JSON.stringify(e.text)}`);
  }
}

main();
