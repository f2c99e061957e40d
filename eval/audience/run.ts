/**
 * Evaluation of the built-in audience parser end to end on labelled lead pools:
 * phrase -> parseAudienceText -> resolveAudience -> leads matched, against the labels. Two sets:
 * set 1 (leads.jsonl, phrases.jsonl here, hand-written labels) and set 2 (set2/, generated, labels
 * computed from each lead's truth by the set's own rules, built apart from the parser).
 *
 *   npm run eval:audience                   # both sets: tuning parts per phrase, both parts in total
 *   npm run eval:audience -- --show-frozen  # also the frozen parts per phrase (only for a final report)
 *   npm run eval:audience -- --reference    # set 1 with the in-memory reference matcher, no database
 *   npm run eval:audience -- --only set2    # one set only (set1 or set2)
 *
 * By default the leads are matched as the service matches them: stored through the import write
 * path in a throwaway PostgreSQL and found by findMatchingLeads (sql-match.ts), each pool (set 1,
 * set 2's tuning part, set 2's frozen part) its own account. Each set-1 phrase is also matched by
 * the in-memory reference matcher (reference-match.ts, the semantics documented on LeadCriteria)
 * and any phrase where the two disagree is listed; set 2 is matched by SQL only (its leads carry a
 * state, which the reference matcher does not read). A report, not a gate: exits 0 whatever the
 * figures, 1 only when a set is malformed, 2 when the database could not be used.
 */
import { Command } from 'commander';
import path from 'node:path';
import { parseAudienceText } from '../../src/campaigns/audience/parse-text';
import { resolveAudience } from '../../src/campaigns/audience/resolve';
import { leadProfile } from '../../src/leads/profile/lead-profile';
import type { LeadCriteria } from '../../src/leads/profile/types';
import { matches, type MatchableLead } from './reference-match';
import { loadSet2, poolLeadOf, reportSet2, type PhraseResult, type Set2Files } from './set2/evaluate';
import { startSqlDatabase, type PoolLead, type SqlDatabase } from './sql-match';
import { readJsonl } from './jsonl';

interface LeadRow extends PoolLead {
  readonly company: string;
  readonly title: string;
  readonly industry: string;
  readonly company_size: string;
}

interface PhraseRow {
  readonly id: string;
  readonly text: string;
  readonly frozen: boolean;
  readonly expected: readonly string[];
}

interface Result {
  readonly phrase: PhraseRow;
  readonly found: readonly string[];
  readonly tp: number;
}

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

/** Precision and recall of one phrase; an empty expectation is met only by finding nobody. */
function pr(r: Result): { p: number; r: number } {
  const expected = r.phrase.expected.length;
  const found = r.found.length;
  if (expected === 0) return found === 0 ? { p: 1, r: 1 } : { p: 0, r: 1 };
  return { p: found === 0 ? 0 : r.tp / found, r: r.tp / expected };
}

function summary(title: string, rows: readonly Result[]): void {
  const tp = rows.reduce((s, r) => s + r.tp, 0);
  const found = rows.reduce((s, r) => s + r.found.length, 0);
  const expected = rows.reduce((s, r) => s + r.phrase.expected.length, 0);
  const macro = rows.map(pr);
  const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const exact = rows.filter((r) => r.tp === r.found.length && r.tp === r.phrase.expected.length).length;
  out(
    `${title.padEnd(8)} ${String(rows.length).padStart(3)} phrases  precision ${(found === 0 ? 1 : tp / found).toFixed(3)}  recall ${(expected === 0 ? 1 : tp / expected).toFixed(3)}` +
      `  (per-phrase mean: precision ${mean(macro.map((m) => m.p)).toFixed(3)}, recall ${mean(macro.map((m) => m.r)).toFixed(3)}; exactly right ${exact}/${rows.length})`,
  );
}

function detail(rows: readonly Result[], leads: ReadonlyMap<string, LeadRow>): void {
  for (const r of rows) {
    const m = pr(r);
    const flag = m.p === 1 && m.r === 1 ? '  ' : '✗ ';
    out(`${flag}${r.phrase.id} P ${m.p.toFixed(2)} R ${m.r.toFixed(2)}  (${r.tp}/${r.found.length} found, ${r.phrase.expected.length} expected)  ${r.phrase.text}`);
    if (flag === '  ') continue;
    const missed = r.phrase.expected.filter((id) => !r.found.includes(id));
    const extra = r.found.filter((id) => !r.phrase.expected.includes(id));
    const show = (id: string): string => {
      const l = leads.get(id)!;
      return `${id} "${l.title}" ${l.country ?? '-'}/${l.city ?? '-'} "${l.industry}" ${l.company_size}`;
    };
    for (const id of missed.slice(0, 5)) out(`      missed ${show(id)}`);
    for (const id of extra.slice(0, 5)) out(`      extra  ${show(id)}`);
  }
}

/** Phrases whose SQL and reference matches differ, with the leads only one of them found. */
function consistency(phrases: readonly PhraseRow[], sql: readonly (readonly string[])[], ref: readonly (readonly string[])[], leads: ReadonlyMap<string, LeadRow>): void {
  let disagreements = 0;
  phrases.forEach((phrase, i) => {
    const inSql = new Set(sql[i]);
    const inRef = new Set(ref[i]);
    const sqlOnly = sql[i]!.filter((id) => !inRef.has(id));
    const refOnly = ref[i]!.filter((id) => !inSql.has(id));
    if (sqlOnly.length + refOnly.length === 0) return;
    disagreements += 1;
    out(`≠ ${phrase.id}${phrase.frozen ? ' (frozen)' : ''}  SQL ${inSql.size}, reference ${inRef.size}  ${phrase.text}`);
    const show = (id: string): string => {
      const l = leads.get(id)!;
      return `${id} "${l.title}" ${l.country ?? '-'}/${l.city ?? '-'} "${l.industry}" ${l.company_size} ${l.company}`;
    };
    for (const id of sqlOnly.slice(0, 5)) out(`      SQL only       ${show(id)}`);
    for (const id of refOnly.slice(0, 5)) out(`      reference only ${show(id)}`);
  });
  out(
    disagreements === 0
      ? `SQL and the reference matcher agree on all ${phrases.length} phrases.`
      : `SQL and the reference matcher disagree on ${disagreements} of ${phrases.length} phrases.`,
  );
}

interface Options {
  readonly dir: string;
  readonly set2Dir: string;
  readonly showFrozen: boolean;
  readonly reference: boolean;
  readonly only?: 'set1' | 'set2';
}

function malformed(set: string, err: unknown): never {
  process.stderr.write(`Malformed evaluation set (${set}): ${(err as Error).message}\n`);
  process.exit(1);
}

function loadSet1(dir: string): { leads: LeadRow[]; phrases: PhraseRow[] } {
  try {
    const leads = readJsonl<LeadRow>(path.join(dir, 'leads.jsonl'));
    const phrases = readJsonl<PhraseRow>(path.join(dir, 'phrases.jsonl'));
    const ids = new Set(leads.map((l) => l.id));
    if (ids.size !== leads.length) throw new Error('two leads share an id');
    for (const p of phrases) {
      const bad = p.expected.find((id) => !ids.has(id));
      if (bad !== undefined) throw new Error(`${p.id} expects an unknown lead ${bad}`);
    }
    return { leads, phrases };
  } catch (err) {
    malformed('set 1', err);
  }
}

/** Set 1's report, as it has always been printed. */
function reportSet1(leads: readonly LeadRow[], phrases: readonly PhraseRow[], found: readonly (readonly string[])[], referenceFound: readonly (readonly string[])[], opts: Options, timing: string): void {
  const results: Result[] = phrases.map((phrase, i) => {
    const ids = found[i]!;
    return { phrase, found: ids, tp: ids.filter((id) => phrase.expected.includes(id)).length };
  });
  const byId = new Map(leads.map((l) => [l.id, l]));
  const tuning = results.filter((r) => !r.phrase.frozen);
  const frozen = results.filter((r) => r.phrase.frozen);
  const matcher = opts.reference
    ? 'in-memory reference, eval/audience/reference-match.ts'
    : 'SQL, findMatchingLeads on a throwaway PostgreSQL, leads stored by insertNewLeads';
  out(`Built-in audience parser on ${leads.length} leads, ${phrases.length} phrases (matcher: ${matcher})`);
  out('');
  out('tuning part');
  detail(tuning, byId);
  if (opts.showFrozen) {
    out('');
    out('frozen part');
    detail(frozen, byId);
  }
  if (!opts.reference) {
    out('');
    out('consistency: SQL against the in-memory reference matcher');
    consistency(phrases, found, referenceFound, byId);
    out(timing);
  }
  out('');
  summary('tuning', tuning);
  summary('frozen', frozen);
  summary('all', results);
}

async function main(): Promise<void> {
  const program = new Command()
    .option('--dir <path>', 'the folder with set 1 (leads.jsonl and phrases.jsonl)', __dirname)
    .option('--set2-dir <path>', 'the folder with set 2', path.join(__dirname, 'set2'))
    .option('--show-frozen', 'list the frozen phrases one by one too', false)
    .option('--reference', 'set 1 with the in-memory reference matcher only (no database, no consistency check; set 2 is skipped)', false)
    .option('--only <set>', 'evaluate one set only: set1 or set2')
    .parse(process.argv);
  const opts = program.opts<Options>();
  if (opts.only !== undefined && opts.only !== 'set1' && opts.only !== 'set2') {
    process.stderr.write(`--only takes set1 or set2, not ${String(opts.only)}\n`);
    process.exit(1);
  }
  const runSet1 = opts.only !== 'set2';
  const runSet2 = opts.only !== 'set1' && !opts.reference;

  const set1 = runSet1 ? loadSet1(opts.dir) : undefined;
  let set2: Set2Files | undefined;
  if (runSet2) {
    try {
      set2 = loadSet2(opts.set2Dir);
    } catch (err) {
      malformed('set 2', err);
    }
  }

  // The parser runs before any lead is stored: it never sees the pools.
  const criteria1: LeadCriteria[] = (set1?.phrases ?? []).map((phrase) => resolveAudience(parseAudienceText(phrase.text).filters));
  const criteria2: LeadCriteria[] = (set2?.phrases ?? []).map((phrase) => resolveAudience(parseAudienceText(phrase.text).filters));
  const pool1: { id: string; lead: MatchableLead }[] = (set1?.leads ?? []).map((l) => ({
    id: l.id,
    lead: {
      profile: leadProfile({ title: l.title, country: l.country, city: l.city, industry: l.industry, companySize: l.company_size }),
      company: l.company,
      industry: l.industry,
      email: l.email,
    },
  }));
  const referenceFound = criteria1.map((c) => pool1.filter((x) => matches(c, x.lead)).map((x) => x.id));

  let found1: readonly (readonly string[])[] = referenceFound;
  const found2: string[][] = [];
  let timing = '';
  if (!opts.reference) {
    const started = Date.now();
    let db: SqlDatabase;
    try {
      db = await startSqlDatabase();
    } catch (err) {
      process.stderr.write(`Could not start the evaluation database: ${(err as Error).message}\n(run with --reference to match set 1 in memory)\n`);
      process.exit(2);
    }
    const stop = (signal: NodeJS.Signals): void => {
      void db.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const match1 = set1 !== undefined ? await db.loadPool('Audience evaluation, set 1', set1.leads) : undefined;
      // Each part of set 2 is its own account: a frozen phrase can only find frozen leads.
      const leads2 = set2?.leads ?? [];
      const matchTuning = set2 !== undefined ? await db.loadPool('Audience evaluation, set 2 tuning', leads2.filter((l) => !l.frozen).map(poolLeadOf)) : undefined;
      const matchFrozen = set2 !== undefined ? await db.loadPool('Audience evaluation, set 2 frozen', leads2.filter((l) => l.frozen).map(poolLeadOf)) : undefined;
      const ready = Date.now();
      if (match1 !== undefined) {
        const sqlFound: string[][] = [];
        for (const c of criteria1) sqlFound.push(await match1(c));
        found1 = sqlFound;
      }
      if (set2 !== undefined) {
        for (const [i, phrase] of set2.phrases.entries()) found2.push(await (phrase.frozen ? matchFrozen! : matchTuning!)(criteria2[i]!));
      }
      timing =
        `PostgreSQL started, migrated and pools stored in ${((ready - started) / 1000).toFixed(1)} s, ` +
        `${criteria1.length + criteria2.length} phrases matched in ${((Date.now() - ready) / 1000).toFixed(1)} s`;
    } catch (err) {
      process.stderr.write(`The evaluation database failed: ${(err as Error).message}\n`);
      await db.close().catch(() => undefined);
      process.exit(2);
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    await db.close();
  }

  if (set1 !== undefined) reportSet1(set1.leads, set1.phrases, found1, referenceFound, opts, timing);
  if (opts.reference && opts.only !== 'set1') {
    out('');
    out('Set 2 skipped: it is matched by SQL only (run without --reference).');
  }
  if (set2 !== undefined) {
    if (set1 !== undefined) {
      out('');
      out('='.repeat(100));
    } else {
      out(timing);
    }
    out('');
    const results: PhraseResult[] = set2.phrases.map((phrase, i) => ({ phrase, found: found2[i]! }));
    reportSet2(out, set2, results, opts.showFrozen);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(2);
});
