import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { classifyBuiltin } from '../../src/qualification/builtin/classifier';
import { CATEGORIES } from '../../src/qualification/categories';
import { EVAL_DEFAULT_RECEIVED_AT, EvalSetError, loadEvalSet, parseEvalSet } from '../../src/qualification/evaluation/eval-set';
import { computeMetrics } from '../../src/qualification/evaluation/metrics';

const SET = path.join(__dirname, '../../eval/qualify/replies.jsonl');
const RUNNER = path.join(__dirname, '../../eval/qualify/run.ts');
const TSX = path.join(__dirname, '../../node_modules/.bin/tsx');
const run = promisify(execFile);

describe('reply qualification evaluation set', () => {
  const entries = loadEvalSet(SET);

  it('is well-formed: at least 200 replies, every category at least 15 times', () => {
    expect(entries.length).to.be.at.least(200);
    for (const c of CATEGORIES) expect(entries.filter((e) => e.category === c).length, c).to.be.at.least(15);
  });

  it('covers the hard cases: other languages, quoted history, return dates, very short replies', () => {
    const notes = entries.map((e) => e.note ?? '').join('\n');
    for (const language of ['French', 'German', 'Spanish', 'Portuguese', 'Italian', 'Dutch']) expect(notes, language).to.include(language);
    expect(entries.filter((e) => /\n>|wrote:|Original Message|Forwarded message/.test(e.body)).length).to.be.at.least(5);
    expect(entries.filter((e) => e.return_date).length).to.be.at.least(20);
    expect(entries.filter((e) => e.body.length <= 12).length).to.be.at.least(10);
  });

  it('rejects malformed sets, naming the line', () => {
    const good = '{"id":"a1","subject":"Re: x","body":"yes","category":"interested"}';
    expect(parseEvalSet(`${good}\n`)).to.have.length(1);
    const bad: ReadonlyArray<readonly [string, RegExp]> = [
      [`${good}\n{not json`, /line 2: not JSON/],
      [`${good}\n{"id":"a2","subject":"s","body":"b","category":"happy"}`, /line 2/],
      [`${good}\n{"id":"a2","subject":"s","body":"b"}`, /line 2/],
      [`${good}\n${good}`, /line 2: duplicate id a1/],
      ['{"id":"a3","subject":"s","body":"b","category":"neutral","return_date":"2026-12-01"}', /return_date on a neutral reply/],
    ];
    for (const [text, message] of bad) expect(() => parseEvalSet(text)).to.throw(EvalSetError, message);
  });

  it('the built-in classifier stays at or above 0.85 accuracy on it', () => {
    const pairs = entries.map((e) => ({
      expected: e.category,
      predicted: classifyBuiltin({ subject: e.subject, bodyText: e.body }, { now: new Date(e.received_at ?? EVAL_DEFAULT_RECEIVED_AT) }).category,
    }));
    expect(computeMetrics(pairs).accuracy).to.be.at.least(0.85);
  });

  it('computes precision, recall and F1 per category', () => {
    const m = computeMetrics([
      { expected: 'interested', predicted: 'interested' },
      { expected: 'interested', predicted: 'neutral' },
      { expected: 'neutral', predicted: 'neutral' },
    ]);
    expect(m.accuracy).to.be.closeTo(2 / 3, 1e-9);
    const interested = m.perCategory.find((c) => c.category === 'interested')!;
    expect(interested).to.include({ precision: 1, recall: 0.5, support: 2 });
    expect(interested.f1).to.be.closeTo(2 / 3, 1e-9);
    expect(m.perCategory.find((c) => c.category === 'neutral')).to.include({ precision: 0.5, recall: 1, support: 1 });
    expect(m.confusion.interested.neutral).to.equal(1);
  });

  it('`npm run eval:qualify` prints the report and exits 0; a malformed file exits 1', async () => {
    const ok = await run(TSX, [RUNNER], { timeout: 120_000 });
    expect(ok.stdout).to.match(/all\s+: accuracy \d+\.\d% \(\d+\/\d+\)/);
    expect(ok.stdout).to.include('precision').and.include('confusion matrix').and.include('misclassified');
    for (const c of CATEGORIES) expect(ok.stdout).to.include(c);

    const dir = mkdtempSync(path.join(tmpdir(), 'eval-'));
    const broken = path.join(dir, 'broken.jsonl');
    writeFileSync(broken, '{"id":"x","subject":"s","body":"b","category":"maybe"}\n');
    const failure = await run(TSX, [RUNNER, '--file', broken], { timeout: 120_000 }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).to.equal(1);
    expect(failure?.stderr).to.match(/Malformed evaluation set: line 1/);
  });
});
