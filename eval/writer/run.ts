/**
 * Evaluation of the built-in writer on the cases of cases.dev.jsonl (looked at while the writer is
 * tuned) and cases.frozen.jsonl (written apart from the writer, never looked at case by case).
 *
 *   npm run eval:writer                        # the report: each check's pass rate, dev and frozen; every SpamAssassin score
 *   npm run eval:writer -- --examples ID ...   # the emails of these dev cases, as a reader gets them
 *   npm run eval:writer -- --show-frozen       # also list the frozen cases' failures (spoils the frozen part)
 *
 * Each case is rendered exactly as the service sends it (the preview's path: the preset's steps,
 * the built-in writer, signature, tracked links, open beacon, unsubscribe lines) and each email is
 * checked against what the case's own fields say is true: who writes, what they offer, who the lead
 * is. The checks never read the writer's code or its word lists: a case's truth is its fields.
 * A report, not a gate: exits 0 whatever the figures, 1 only when a case file is malformed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getDomainWithoutSuffix } from 'tldts';
import { presetSequence } from '../../src/campaigns/model/sequence';
import { findTemplate } from '../../src/campaigns/model/templates';
import { compileSequence } from '../../src/campaigns/sequences/compiled-sequence';
import { previewSequence, type PreviewRendering, type PreviewStep } from '../../src/campaigns/sequences/preview';
import { leadFromFields } from '../../src/campaigns/sequences/preview-requests';
import { senderIdentity } from '../../src/campaigns/sending/batch-context';
import { spamAssassinAvailable } from '../../src/deliverability/spamassassin';
import { TrackingLinks } from '../../src/tracking/links';
import { brandName } from '../../src/writing/brand-name';
import { writeBuiltinEmail } from '../../src/writing/builtin/write-builtin';
import { parseCases, type WriterCase } from './cases';

const PUBLIC = 'https://outreach.example.com';
const rendering: PreviewRendering = { writer: { write: async (i) => writeBuiltinEmail(i.content) }, links: new TrackingLinks('eval-secret', PUBLIC), publicBaseUrl: PUBLIC, aiWriter: 'builtin' };

/** Phrases a reader skims past or distrusts (truth from outreach practice, not from the writer). */
const FILLER = [
  'i think what we do could be useful',
  'i hope this email finds you well',
  'hope you are doing well',
  "hope you're doing well",
  'i wanted to reach out',
  'i came across',
  'touch base',
  'circle back',
  'just following up',
  'just checking in',
  "i'll keep this short",
  'quick question',
  "i hope you don't mind",
  'synergy',
  'to whom it may concern',
  'dear sir or madam',
];
/** Subjects that say nothing about the email (a reader's inbox is full of them). */
const STOCK_SUBJECTS = ['a quick idea', 'quick question', 'following up', 'checking in', 'touching base', 'hello', 'hi', 'introduction', 'opportunity', 'a partnership idea', 'an opportunity you might like', 'a quick intro', 'quick intro', 'intro', 'hey'];

interface Rendered {
  readonly c: WriterCase;
  readonly set: 'dev' | 'frozen';
  readonly steps: readonly PreviewStep[];
  readonly fromName: string;
}

/** The email's own words: the text part up to the service's unsubscribe line, without the signature. */
function body(step: PreviewStep, c: WriterCase): string {
  const text = (step.text ?? '').split('\n\n--\n')[0] ?? '';
  const sig = c.sender.signature?.trim();
  return sig && text.endsWith(sig) ? text.slice(0, -sig.length).trim() : text;
}
const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
const fold = (s: string): string => s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/[^a-z0-9]/g, '');

/** The names the sender's company may go by: its site's name, or what its domain spells. */
function brandNames(c: WriterCase): string[] {
  const label = getDomainWithoutSuffix(c.target.url.trim()) ?? '';
  return [c.target.scrape?.name ?? '', label].map(fold).filter((n) => n.length >= 2);
}

type Verdict = boolean | null; // null: the check does not apply to this case
interface Check {
  readonly name: string;
  readonly says: string;
  readonly test: (r: Rendered) => Verdict;
}

const first = (r: Rendered): PreviewStep => r.steps[0]!;
const validName = (n: string | null): boolean => n !== null && /\p{L}/u.test(n) && !n.includes('@') && !/^(null|n\/a|-)$/i.test(n.trim());

const CHECKS: readonly Check[] = [
  {
    name: 'greets-by-name',
    says: 'the first email greets the lead by first name when the case has one, and no greeting has a blank',
    test: (r) => {
      const greeting = body(first(r), r.c).split('\n')[0] ?? '';
      if (/\s,|\b(null|undefined)\b/.test(greeting)) return false;
      const name = r.c.lead.firstName;
      return validName(name) ? fold(greeting).includes(fold(name!)) : /^(hi|hello|dear)\b/i.test(greeting);
    },
  },
  {
    name: 'names-sender-company',
    says: "the first email names the company it speaks for (its site's name, or the name its domain spells)",
    test: (r) => {
      const names = brandNames(r.c);
      const text = fold(body(first(r), r.c));
      return names.length === 0 ? null : names.some((n) => text.includes(n));
    },
  },
  {
    name: 'says-what-offered',
    says: "when the case says what the company offers (its site's description or the campaign's value), the first email carries it",
    test: (r) => {
      const sources = [r.c.campaign.valueForTarget, r.c.target.scrape?.description?.split(/(?<=[.!?])\s/)[0] ?? null].filter((s): s is string => s !== null && words(s).length >= 3);
      if (sources.length === 0) return null;
      const text = new Set(words(body(first(r), r.c)));
      return sources.some((s) => {
        const content = words(s).filter((w) => w.length >= 4);
        return content.length > 0 && content.filter((w) => text.has(w)).length / content.length >= 0.6;
      });
    },
  },
  {
    name: 'why-this-lead',
    says: "the first email says why this lead: its company, and its title or place, as far as the case gives them",
    test: (r) => {
      const { company, title, city } = r.c.lead;
      if (!company && !title && !city) return null;
      const text = fold(body(first(r), r.c));
      const hasCompany = !company || text.includes(fold(company));
      const roleOrPlace = (!title && !city) || (title !== null && words(title).some((w) => w.length >= 3 && text.includes(fold(w)))) || (city !== null && text.includes(fold(city)));
      return hasCompany && roleOrPlace;
    },
  },
  {
    name: 'one-ask',
    says: 'the first email asks exactly one question',
    test: (r) => (body(first(r), r.c).replace(/https?:\/\/\S+/g, '').match(/\?/g) ?? []).length === 1,
  },
  {
    name: 'subject-not-stock',
    says: 'the first subject is not a stock phrase, and later steps reply in its thread ("Re: <first subject>")',
    test: (r) => {
      const s = first(r).subject ?? '';
      if (s.trim() === '' || STOCK_SUBJECTS.includes(s.trim().toLowerCase().replace(/[!.?]+$/, ''))) return false;
      return r.steps.slice(1).every((x) => x.subject === `Re: ${s}` && x.inReplyToStep !== null);
    },
  },
  {
    name: 'no-filler',
    says: 'no email uses a filler phrase',
    test: (r) => r.steps.every((s) => !FILLER.some((f) => (s.text ?? '').toLowerCase().includes(f))),
  },
  {
    name: 'no-blanks',
    says: 'no email shows "null", "undefined", a template tag, an empty slot or a doubled space',
    test: (r) => r.steps.every((s) => !/\b(null|undefined|NaN)\b|\{\{|\}\}|\[[A-Z][a-z]+\]| ,| {2}|\( \)/.test(`${s.subject ?? ''}\n${body(s, r.c)}`)),
  },
  {
    name: 'length',
    says: 'the first email is 35 to 160 words, every follow-up 15 to 100',
    test: (r) => r.steps.every((s, i) => {
      const n = words(body(s, r.c)).length;
      return i === 0 ? n >= 35 && n <= 160 : n >= 15 && n <= 100;
    }),
  },
  {
    name: 'from-names-someone',
    says: 'the From names a person or a company, never a bare address',
    test: (r) => r.fromName.trim() !== '' && !r.fromName.includes('@'),
  },
  {
    name: 'refers-back',
    says: 'the first follow-up names the sender company or the lead\'s company',
    test: (r) => {
      const follow = r.steps[1];
      if (follow === undefined) return null;
      const text = fold(body(follow, r.c));
      return [...brandNames(r.c), fold(r.c.lead.company ?? '')].filter((n) => n.length >= 2).some((n) => text.includes(n));
    },
  },
  {
    name: 'parts-agree',
    says: 'the HTML part shows exactly the words of the text part',
    test: (r) =>
      r.steps.every((s) => {
        if (s.html === null || s.text === null) return true;
        // Both parts up to the service's unsubscribe line (the text's carries the URL, the HTML's a link).
        const html = s.html.slice(0, s.html.search(/<p style="margin-top:24px/) >>> 0 || s.html.length);
        const visible = html.replace(/<br>\n/g, '\n').replace(/<[^>]+>/g, ' ').replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
        return words(visible).join(' ') === words(s.text.split('\n\n--\n')[0] ?? '').join(' ');
      }),
  },
  {
    name: 'spam-below-1',
    says: 'SpamAssassin (local rules) scores every email below 1.0',
    test: (r) => (r.steps.every((s) => s.spam?.status !== 'checked') ? null : r.steps.every((s) => s.spam?.status === 'checked' && s.spam.report.score < 1)),
  },
];

async function render(c: WriterCase, set: 'dev' | 'frozen', spamCheck: boolean): Promise<Rendered> {
  const template = findTemplate(c.preset);
  if (template === undefined) throw new Error(`${c.id}: unknown preset ${c.preset}`);
  const brand = brandName(c.target.scrape?.name, c.target.url);
  const identity = senderIdentity(null, { name: 'Eval account', senderName: c.sender.name, senderSignature: c.sender.signature }, brand, 'outreach@sender.example.com');
  const steps = await previewSequence(
    rendering,
    {
      accountId: 'acc_eval',
      campaignId: 'cmp_eval',
      brandId: null,
      mcp: c.preset,
      sequence: compileSequence(presetSequence(template), 1),
      winners: new Map(),
      campaign: { name: null, ...c.campaign, senderName: null, targetUrl: c.target.url },
      company: c.target.scrape === null ? null : { ...c.target.scrape, domain: getDomainWithoutSuffix(c.target.url) ?? null },
      tracking: { opens: true, clicks: true, plainTextOnly: false },
      identity,
    },
    { id: `lead_${c.id}`, lead: leadFromFields({ ...c.lead }) },
    { spamCheck },
  );
  return { c, set, steps, fromName: identity.name };
}

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const pct = (pass: number, of: number): string => (of === 0 ? '   -  ' : `${((pass / of) * 100).toFixed(0).padStart(4)}% `);

function readSet(file: string): WriterCase[] {
  return parseCases(readFileSync(path.join(__dirname, file), 'utf8'), file);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const examples = args.includes('--examples') ? args.slice(args.indexOf('--examples') + 1).filter((a) => !a.startsWith('--')) : [];
  let dev: WriterCase[];
  let frozen: WriterCase[];
  try {
    dev = readSet('cases.dev.jsonl');
    frozen = readSet('cases.frozen.jsonl');
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  if (examples.length > 0) {
    for (const id of examples) {
      const c = dev.find((x) => x.id === id);
      if (c === undefined) {
        process.stderr.write(`no dev case ${id}\n`);
        return 1;
      }
      const r = await render(c, 'dev', false);
      out(`=== ${c.id} (${c.preset}) From: ${r.fromName}`);
      for (const s of r.steps) out(`--- step ${s.step} (+${s.delayDays} days)\nSubject: ${s.subject ?? ''}\n\n${body(s, c)}${c.sender.signature ? `\n${c.sender.signature}` : ''}\n`);
    }
    return 0;
  }
  const spam = await spamAssassinAvailable();
  const rendered = [...(await Promise.all(dev.map((c) => render(c, 'dev', spam)))), ...(await Promise.all(frozen.map((c) => render(c, 'frozen', spam))))];
  out(`Built-in writer: ${dev.length} dev cases, ${frozen.length} frozen cases, ${rendered.reduce((n, r) => n + r.steps.length, 0)} emails${spam ? '' : ' (SpamAssassin not installed: no scores)'}`);
  out();
  out('check                  dev    frozen   what it says');
  const failures: string[] = [];
  for (const check of CHECKS) {
    const tally = { dev: [0, 0], frozen: [0, 0] } as Record<'dev' | 'frozen', [number, number]>;
    for (const r of rendered) {
      const v = check.test(r);
      if (v === null) continue;
      tally[r.set][1]++;
      if (v) tally[r.set][0]++;
      else if (r.set === 'dev' || args.includes('--show-frozen')) failures.push(`${check.name}: ${r.set} ${r.c.id}`);
    }
    out(`${check.name.padEnd(22)} ${pct(...tally.dev)} ${pct(...tally.frozen)}  ${check.says} (${tally.dev[0]}/${tally.dev[1]}, ${tally.frozen[0]}/${tally.frozen[1]})`);
  }
  if (failures.length > 0) {
    out();
    out('Failures (dev cases; frozen ones only with --show-frozen):');
    for (const f of failures) out(`  ${f}`);
  }
  if (spam) {
    out();
    out('SpamAssassin scores (local rules), case: step 1, step 2, ...');
    const all = rendered.flatMap((r) => r.steps.map((s) => (s.spam?.status === 'checked' ? s.spam.report.score : NaN)));
    let frozenNo = 0;
    for (const r of rendered) {
      // Frozen cases by number only: their ids say what they are about.
      const label = r.set === 'dev' ? r.c.id : `#${++frozenNo}`;
      const scores = r.steps.map((s) => (s.spam?.status === 'checked' ? `${s.spam.report.score.toFixed(1)}${s.spam.report.rules.filter((x) => x.score !== 0).map((x) => ` ${x.name}`).join('')}` : '-'));
      out(`  ${r.set} ${label.padEnd(28)} ${scores.join(', ')}`);
    }
    const scored = all.filter((x) => !Number.isNaN(x));
    out(`  highest ${Math.max(...scored).toFixed(1)}, mean ${(scored.reduce((a, b) => a + b, 0) / scored.length).toFixed(2)} over ${scored.length} emails`);
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
