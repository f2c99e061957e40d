import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Liquid, type Template } from 'liquidjs';
import { assembleEmail } from '../../src/campaigns/sequences/assemble-email';
import { spinChoices } from '../../src/campaigns/sequences/choose';
import { compileSequence, type CompiledStep } from '../../src/campaigns/sequences/compiled-sequence';
import { draftStep, type DraftInput, type StepDraft, type ThreadSoFar } from '../../src/campaigns/sequences/draft-step';
import { liquid } from '../../src/campaigns/sequences/liquid-engine';
import { mergeScope, type MergeLead, type MergeSender } from '../../src/campaigns/sequences/merge-variables';
import { SPIN_VARIABLE, spintaxToLiquid } from '../../src/campaigns/sequences/spintax';
import { validateSequence } from '../../src/campaigns/sequences/validate-sequence';
import { normalizeText } from '../../src/writing/render';
import { machineBusyMs, selfCpuMs } from '../lib/cpu-usage';
import { summariseCpuProfile, type CpuProfile } from '../lib/cpuprofile';
import { latencyRow } from '../lib/latency-row';
import type { Measurement } from '../lib/load';
import { Rounds } from '../lib/measure-server';
import { mib, processMemory } from '../lib/process-memory';
import type { Scenario } from '../lib/scenario';
import { intFromEnv } from '../lib/settings';
import { seededRandom } from '../../src/util/seeded-random';

/**
 * Rendering one written step for many leads, CPU only, in this process: the service's renderer
 * (draftStep: variant, merge scope, spintax choices, subject and body rendered by the configured
 * liquidjs engine, text normalised; and a second row with the HTML part, assembleEmail) against
 * liquidjs alone (`new Liquid()` with its defaults) rendering the same parsed templates in a bare
 * loop with scopes built beforehand and fixed spintax choices, in the same run.
 *
 *   service       draftStep(input) per lead
 *   service+html  draftStep(input), then assembleEmail(...) with the sender's signature (the HTML part)
 *   bare          renderSync(subject, scope) and renderSync(body, scope) of a default `new Liquid()` per lead
 *
 * Settings: BENCH_RENDER_LEADS (10000), BENCH_RENDER_PASSES (3 passes over the leads per row and
 * round), BENCH_RENDER_BLOCK (500: the rows are interleaved block by block), BENCH_RENDER_WARMUP (2
 * passes per row first), BENCH_ROUNDS; BENCH_DIAG=1 adds the `engine` rows and the cost of each
 * piece of the service's per-lead work; BENCH_CPU_PROF=<row,...> (or `render`: every row) profiles
 * that row in this process, one extra set of passes after the measurement.
 */

const SUBJECT = '{{ company }} and {{ sender.company }}';
// About 600 characters: 7 merge variables (first_name with a fallback, a custom field, the
// sender's name), one condition (industry, which some leads lack) and two spintax groups. Written
// so that the text needs no normalising: no trailing spaces, no runs of blank lines.
const BODY = `{Hi|Hello} {{ first_name | default: "there" }},

{I noticed|I saw|I read} that {{ company }} is growing its team in {{ city }}, and as {{ title }} you are probably the one who hears about it when replies to outbound pile up.{% if industry %} Teams in {{ industry }} tell us the same: a third of the week goes to sorting inbound replies.{% endif %}

We connect to {{ custom.crm }} and sort every reply by intent, so your reps read only the ones that matter. Here is a two-minute case study from a team like yours: https://product.example/case-studies/replies

Would a short call next week be useful?

{{ sender.name }}`;

const SENDER: MergeSender = { name: 'Sam Carter', email: 'sam@product.example', company: 'Product Example' };
const SIGNATURE = 'Sam Carter\nHead of Growth, Product Example\nhttps://product.example';
const CALENDAR_LINK = 'https://cal.example/sam/15min';
const NO_THREAD: ThreadSoFar = { subject: null, messageIds: [] };
/** The spintax options the bare loop takes for every lead (group 0: "Hello", group 1: "I saw"). */
const FIXED_SPIN = { g0: 1, g1: 1 };

// ---------------------------------------------------------------- data

/** Deterministic data: the same leads every run. */
const rng = seededRandom;

const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Elena', 'Felix', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Katrin', 'Lukas', 'Maya', 'Nils', 'Olivia', 'Paul', 'Rosa', 'Sam', 'Tara', 'Uwe'];
const LAST = ['Schmidt', 'Miller', 'Garcia', 'Novak', 'Dubois', 'Rossi', 'Jansen', 'Kowalski', 'Berg', 'Patel', 'Nguyen', 'Fischer', 'Weber', 'Silva', 'Brown'];
const TITLES = ['CTO', 'VP of Engineering', 'Head of Sales', 'Director of Revenue Operations', 'Sales Manager', 'Founder', 'Head of Growth', 'VP of Sales'];
const CITIES = ['Berlin', 'Munich', 'London', 'Paris', 'Amsterdam', 'New York', 'Austin', 'Toronto', 'Madrid', 'Vienna'];
const INDUSTRIES = ['Fintech', 'SaaS', 'Logistics', 'Healthcare', 'E-commerce', 'Insurance'];
const CRMS = ['HubSpot', 'Salesforce', 'Pipedrive', 'Close', 'Attio'];
const COMPANY_A = ['Blue', 'North', 'Bright', 'Iron', 'Silver', 'Nova', 'Quantum', 'Green', 'Swift', 'Clear'];
const COMPANY_B = ['Ledger', 'Pay', 'Labs', 'Works', 'Systems', 'Health', 'Cloud', 'Data', 'Logic', 'Motion'];

/** Every 37th lead has no first name (the fallback), every 5th no industry (the condition is false). */
const noFirstName = (i: number): boolean => i % 37 === 5;
const noIndustry = (i: number): boolean => i % 5 === 3;

function leadsOf(count: number, seed: number): MergeLead[] {
  const rand = rng(seed);
  const one = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const out: MergeLead[] = [];
  for (let i = 0; i < count; i++) {
    const first = one(FIRST);
    const last = one(LAST);
    const company = `${one(COMPANY_A)} ${one(COMPANY_B)} ${Math.floor(rand() * 8000)}`;
    const domain = `${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`;
    out.push({
      email: `${first.toLowerCase()}.${last.toLowerCase()}.${i}@${domain}`,
      firstName: noFirstName(i) ? null : first,
      lastName: last,
      title: one(TITLES),
      company,
      companyDomain: domain,
      industry: noIndustry(i) ? null : one(INDUSTRIES),
      city: one(CITIES),
      state: null,
      country: 'Germany',
      linkedinUrl: null,
      phone: null,
      customFields: { crm: one(CRMS), plan: 'growth' },
    });
  }
  return out;
}

/** The bare loop's scope for one lead: what the template reads, as a plain object. */
function bareScopeOf(lead: MergeLead): Record<string, unknown> {
  const scope: Record<string, unknown> = { company: lead.company, title: lead.title, city: lead.city, custom: { crm: lead.customFields?.crm }, sender: { name: SENDER.name, company: SENDER.company } };
  if (lead.firstName !== null) scope.first_name = lead.firstName;
  if (lead.industry !== null) scope.industry = lead.industry;
  scope[SPIN_VARIABLE] = FIXED_SPIN;
  return scope;
}

// ---------------------------------------------------------------- measurement

/** The measured rows; the `engine` ones only with BENCH_DIAG=1. */
const MAIN_ROWS = ['service', 'service+html', 'bare'] as const;
const DIAG_ROWS = ['engine', 'engine-nostack'] as const;
type RowLabel = (typeof MAIN_ROWS)[number] | (typeof DIAG_ROWS)[number];

interface Pass {
  readonly ms: number;
  readonly cpuMs: number;
  /** Characters rendered (so no loop's work can be optimised away) and steps passed over. */
  readonly chars: number;
  readonly skipped: number;
}

/** A full collection when the flag can be set (it can in every Node this repository supports). */
function gcFunction(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // Twice: what one collection frees can let the next free more (weak references, finalisers).
  return () => {
    gc();
    gc();
  };
}

export const renderScenario: Scenario = {
  name: 'render',
  description: 'a written step rendered for 10,000 leads: the service (draftStep, + HTML part) vs liquidjs renderSync in a bare loop',
  async run(ctx) {
    const leadCount = intFromEnv('BENCH_RENDER_LEADS', 10_000, 100, 1_000_000);
    const passes = intFromEnv('BENCH_RENDER_PASSES', 3, 1, 100);
    const warmupPasses = intFromEnv('BENCH_RENDER_WARMUP', 2, 0, 100);
    const block = intFromEnv('BENCH_RENDER_BLOCK', 500, 1, 1_000_000);
    const gc = gcFunction();

    // ---- the step as a create request gives it, validated and compiled as the worker does
    const sequence = validateSequence([{ delayDays: 0, mode: 'template', subject: SUBJECT, body: BODY }], 'snake');
    const step: CompiledStep = compileSequence(sequence, 1).steps[0]!;
    const variant = step.variants[0]!;
    const bodyTemplate = variant.bodyTemplate!;
    if (bodyTemplate.spinOptions.join(',') !== '2,3') throw new Error(`expected two spintax groups (2 and 3 options), got ${bodyTemplate.spinOptions.join(',')}`);

    // ---- the bare engine: liquidjs with its defaults, the same Liquid source parsed once
    const bare = new Liquid();
    const bareSubject: Template[] = bare.parse(spintaxToLiquid(SUBJECT).liquid);
    const bareBody: Template[] = bare.parse(spintaxToLiquid(BODY).liquid);

    const leads = leadsOf(leadCount, 20260417);
    const keys = leads.map((_l, i) => `lead_render_${i}`);
    const scopes = leads.map(bareScopeOf);

    const inputOf = (i: number): DraftInput => ({ step, stepIndex: 0, leadKey: keys[i]!, lead: leads[i]!, sender: SENDER, calendarLink: CALENDAR_LINK, winner: null, thread: NO_THREAD });

    // ---- leads [from, to) through each row; a loop per row so each call site sees one function
    const servicePass = (from: number, to: number): Pass => {
      let chars = 0;
      let skipped = 0;
      const cpu0 = selfCpuMs();
      const t0 = performance.now();
      for (let i = from; i < to; i++) {
        const d = draftStep(inputOf(i));
        if ('omitted' in d) skipped++;
        else chars += d.subject!.length + d.text!.length;
      }
      return { ms: performance.now() - t0, cpuMs: selfCpuMs() - cpu0, chars, skipped };
    };
    const htmlPass = (from: number, to: number): Pass => {
      let chars = 0;
      let skipped = 0;
      const cpu0 = selfCpuMs();
      const t0 = performance.now();
      for (let i = from; i < to; i++) {
        const d = draftStep(inputOf(i));
        if ('omitted' in d) {
          skipped++;
          continue;
        }
        const email = assembleEmail({ subject: d.subject!, text: d.text!, links: d.links }, SIGNATURE, CALENDAR_LINK);
        chars += email.subject.length + email.text.length + email.html.length;
      }
      return { ms: performance.now() - t0, cpuMs: selfCpuMs() - cpu0, chars, skipped };
    };
    const barePass = (from: number, to: number): Pass => {
      let chars = 0;
      const cpu0 = selfCpuMs();
      const t0 = performance.now();
      for (let i = from; i < to; i++) {
        const scope = scopes[i]!;
        chars += (bare.renderSync(bareSubject, scope) as string).length + (bare.renderSync(bareBody, scope) as string).length;
      }
      return { ms: performance.now() - t0, cpuMs: selfCpuMs() - cpu0, chars, skipped: 0 };
    };
    // Diagnostic: the service's own engine (liquid-engine.ts) on the compiled templates, with the
    // bare loop's prebuilt scopes: what the engine's options cost against liquidjs's defaults.
    const engineSubject = variant.subjectTemplate!.templates;
    const engineBody = bodyTemplate.templates;
    const enginePass = (from: number, to: number): Pass => {
      let chars = 0;
      const cpu0 = selfCpuMs();
      const t0 = performance.now();
      for (let i = from; i < to; i++) {
        const scope = scopes[i]!;
        chars += (liquid.renderSync(engineSubject, scope) as string).length + (liquid.renderSync(engineBody, scope) as string).length;
      }
      return { ms: performance.now() - t0, cpuMs: selfCpuMs() - cpu0, chars, skipped: 0 };
    };
    // The same without stack traces: what the errors strictVariables throws for a missing value cost to build.
    const engineNoStackPass = (from: number, to: number): Pass => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        return enginePass(from, to);
      } finally {
        Error.stackTraceLimit = limit;
      }
    };
    const passOf: Record<RowLabel, (from: number, to: number) => Pass> = { service: servicePass, 'service+html': htmlPass, bare: barePass, engine: enginePass, 'engine-nostack': engineNoStackPass };
    const ROWS: readonly RowLabel[] = ctx.settings.diagnostics ? [...MAIN_ROWS, ...DIAG_ROWS] : MAIN_ROWS;

    // ---- correctness, before any timing: nothing skipped, the same text as the bare render
    const drafts: StepDraft[] = [];
    for (let i = 0; i < leadCount; i++) drafts.push(draftStep(inputOf(i)));
    const skippedLeads = drafts.flatMap((d, i) => ('omitted' in d ? [`${keys[i]}: ${d.omitted}`] : []));
    if (skippedLeads.length > 0) throw new Error(`the service passed over ${skippedLeads.length} leads, e.g. ${skippedLeads.slice(0, 3).join('; ')}`);
    // The first 20 leads and more of those without a first name (5, 42, ...) or an industry (3, 8, ...).
    const sample = [...new Set([...Array.from({ length: 20 }, (_v, i) => i), 5, 42, 79, 116, 3, 8, 13, 23])].filter((i) => i < leadCount);
    const choicesSeen = new Set<string>();
    for (const i of sample) {
      const d = drafts[i]!;
      if ('omitted' in d) throw new Error('unreachable');
      // The bare render with the spintax options the service chose for this lead.
      const spin = spinChoices(bodyTemplate.spinOptions, keys[i]!, 0, `${variant.id}:body`);
      choicesSeen.add(JSON.stringify(spin));
      const scope = { ...scopes[i]!, [SPIN_VARIABLE]: spin };
      const wantSubject = bare.renderSync(bareSubject, scope) as string;
      const wantBody = bare.renderSync(bareBody, scope) as string;
      if (d.subject !== wantSubject) throw new Error(`lead ${i}: the service's subject differs from the bare render\n  service: ${JSON.stringify(d.subject)}\n  bare:    ${JSON.stringify(wantSubject)}`);
      if (d.text !== wantBody) throw new Error(`lead ${i}: the service's body differs from the bare render\n  service: ${JSON.stringify(d.text)}\n  bare:    ${JSON.stringify(wantBody)}`);
    }
    const fallbacks = drafts.filter((d, i) => noFirstName(i) && !('omitted' in d) && /^(Hi|Hello) there,/.test(d.text ?? '')).length;
    const expectedFallbacks = leads.filter((l) => l.firstName === null).length;
    if (fallbacks !== expectedFallbacks || fallbacks === 0) throw new Error(`${fallbacks} bodies used the first_name fallback, expected ${expectedFallbacks}`);
    const bareFallback = bare.renderSync(bareBody, scopes[5]!) as string;
    if (!bareFallback.startsWith('Hello there,')) throw new Error(`the bare render of a lead without first_name begins ${JSON.stringify(bareFallback.slice(0, 20))}`);
    const withIf = drafts.filter((d) => !('omitted' in d) && d.text!.includes(' Teams in ')).length;
    const exampleText = (drafts[0] as { text: string }).text;
    drafts.length = 0;

    // ---- warm-up, then rounds. A pass takes every lead through every row in blocks of `block`
    // leads, the rows interleaved block by block and taking turns first (rotated per block, pass and
    // round), so a burst of other work on the shared cores falls on every row alike.
    for (let w = 0; w < warmupPasses; w++) for (const label of ROWS) passOf[label](0, leadCount);
    const rounds = new Rounds();
    const perRound: { ratio: number; html: number; otherCores: number | undefined }[] = [];
    for (let round = 0; round < ctx.settings.rounds; round++) {
      const acc = new Map<RowLabel, Pass[]>(ROWS.map((l) => [l, []]));
      const busy0 = machineBusyMs();
      const cpu0 = selfCpuMs();
      const t0 = performance.now();
      for (let p = 0; p < passes; p++) {
        const sum = new Map<RowLabel, Pass>(ROWS.map((l) => [l, { ms: 0, cpuMs: 0, chars: 0, skipped: 0 }]));
        for (let b = 0, from = 0; from < leadCount; b++, from += block) {
          const shift = (round + p + b) % ROWS.length;
          for (const label of [...ROWS.slice(shift), ...ROWS.slice(0, shift)]) {
            const r = passOf[label](from, Math.min(leadCount, from + block));
            const s = sum.get(label)!;
            sum.set(label, { ms: s.ms + r.ms, cpuMs: s.cpuMs + r.cpuMs, chars: s.chars + r.chars, skipped: s.skipped + r.skipped });
          }
        }
        for (const [label, pass] of sum) {
          if (pass.skipped > 0) throw new Error(`${label}: ${pass.skipped} leads passed over in a measured pass`);
          if (pass.chars === 0) throw new Error(`${label}: rendered nothing`);
          acc.get(label)!.push(pass);
        }
      }
      const busy1 = machineBusyMs();
      const wallMs = performance.now() - t0;
      const selfMs = selfCpuMs() - cpu0;
      const rows = new Map<RowLabel, Measurement>();
      for (const label of ROWS) {
        const list = acc.get(label)!;
        const ms = list.reduce((s, x) => s + x.ms, 0);
        const cpuMs = list.reduce((s, x) => s + x.cpuMs, 0);
        const n = leadCount * list.length;
        const m: Measurement = { ...latencyRow(label, list.map((x) => x.ms), n / (ms / 1000), { loadgen: (cpuMs * 1000) / n }), total: n };
        rows.set(label, m);
        rounds.add(m);
      }
      perRound.push({
        ratio: rows.get('service')!.requestsPerSec / rows.get('bare')!.requestsPerSec,
        html: rows.get('service+html')!.requestsPerSec / rows.get('bare')!.requestsPerSec,
        otherCores: busy0 === undefined || busy1 === undefined ? undefined : (busy1 - busy0 - selfMs) / wallMs,
      });
    }

    // ---- optional CPU profile of named rows (BENCH_CPU_PROF=service,bare), in this process
    const profiles: string[] = [];
    const profiled = ROWS.filter((l) => ctx.settings.cpuProfile.has(l) || ctx.settings.cpuProfile.has('render'));
    if (profiled.length > 0) {
      const dir = path.join(ctx.tmpDir, 'profiles');
      fs.mkdirSync(dir, { recursive: true });
      const session = new Session();
      session.connect();
      try {
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 100 });
        for (const label of profiled) {
          await session.post('Profiler.start');
          for (let p = 0; p < passes; p++) passOf[label](0, leadCount);
          const { profile } = await session.post('Profiler.stop');
          const file = path.join(dir, `render-${label.replace(/\W/g, '_')}.cpuprofile`);
          fs.writeFileSync(file, JSON.stringify(profile));
          // The first sample or two carry the profiler's own start-up (a long time delta): left out.
          const deltas = (profile as unknown as CpuProfile).timeDeltas;
          let skipMs = 0;
          for (let k = 0, at = 0; k < Math.min(3, deltas.length); k++) {
            at += deltas[k] ?? 0;
            if ((deltas[k] ?? 0) > 20_000) skipMs = at / 1000 + 0.001;
          }
          profiles.push(`CPU profile of ${label} (${passes} passes of ${leadCount} leads): ${file}${ctx.settings.keepTmp ? '' : ' (set BENCH_KEEP=1 to keep it)'}`, summariseCpuProfile(profile as unknown as CpuProfile, 25, skipMs));
        }
      } finally {
        session.disconnect();
      }
    }

    // ---- diagnostic: the service's per-lead work outside the engine, each piece timed alone
    const pieces: string[] = [];
    if (ctx.settings.diagnostics) {
      const texts = scopes.map((scope) => bare.renderSync(bareBody, scope) as string);
      const subjects = scopes.map((scope) => bare.renderSync(bareSubject, scope) as string);
      const timeEach = (what: string, f: (i: number) => unknown): void => {
        let sink = 0;
        for (let i = 0; i < leadCount; i++) sink += f(i) === undefined ? 0 : 1;
        const cpu0 = selfCpuMs();
        for (let p = 0; p < passes; p++) for (let i = 0; i < leadCount; i++) sink += f(i) === undefined ? 0 : 1;
        pieces.push(`  ${what.padEnd(44)} ${(((selfCpuMs() - cpu0) * 1000) / (passes * leadCount)).toFixed(2)} us CPU per lead${sink === 0 ? ' (nothing returned)' : ''}`);
      };
      timeEach('mergeScope', (i) => mergeScope(leads[i]!, SENDER, CALENDAR_LINK));
      timeEach('spinChoices (the body; the subject has none)', (i) => spinChoices(bodyTemplate.spinOptions, keys[i]!, 0, `${variant.id}:body`));
      timeEach('normalizeText of the rendered body', (i) => normalizeText(texts[i]!));
      timeEach('subject whitespace collapse', (i) => subjects[i]!.replace(/\s+/g, ' ').trim());
      const missing = leads.filter((l) => l.firstName === null || l.industry === null).length;
      pieces.push(`  leads with a value missing (first_name or industry), each a thrown and caught InternalUndefinedVariableError in the service's engine: ${missing} of ${leadCount}`);
    }

    // ---- memory: one pass of each row keeping its outputs (as a caller holding every email would)
    const memory: string[] = [];
    const rssBefore = processMemory(process.pid);
    for (const label of MAIN_ROWS) {
      gc();
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      const kept: unknown[] = [];
      for (let i = 0; i < leadCount; i++) {
        if (label === 'bare') {
          const scope = scopes[i]!;
          kept.push([bare.renderSync(bareSubject, scope), bare.renderSync(bareBody, scope)]);
        } else {
          const d = draftStep(inputOf(i));
          kept.push(label === 'service' || 'omitted' in d ? d : assembleEmail({ subject: d.subject!, text: d.text!, links: d.links }, SIGNATURE, CALENDAR_LINK));
        }
        if (i % 100 === 99) peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
      const after = process.memoryUsage().heapUsed;
      gc();
      const retained = process.memoryUsage().heapUsed - before;
      if (kept.length !== leadCount) throw new Error('unreachable');
      // Let go of the outputs here: a stale register could keep them through the next row's GC.
      kept.length = 0;
      const per10k = (bytes: number): string => `${bytes < 0 ? '-' : '+'}${((Math.abs(bytes) * (10_000 / leadCount)) / 2 ** 20).toFixed(1)} MiB`;
      memory.push(
        `  ${label.padEnd(12)}  heap used before ${mib(before)}, after ${mib(after)}; peak ${per10k(peak - before)} per 10,000 leads; after a full GC, outputs still held: ${per10k(retained)} per 10,000 leads`,
      );
    }
    const rssAfter = processMemory(process.pid);

    const medians = rounds.medians();
    const byLabel = new Map(medians.map((m) => [m.label, m]));
    const ratioOf = (a: RowLabel, b: RowLabel): string => ((byLabel.get(a)?.requestsPerSec ?? NaN) / (byLabel.get(b)?.requestsPerSec ?? NaN)).toFixed(2);
    const usPerLead = (label: RowLabel): string => {
      const m = byLabel.get(label)!;
      return `${label} ${(1e6 / m.requestsPerSec).toFixed(1)} us wall, ${(m.cpuUsPerRequest?.loadgen ?? 0).toFixed(1)} us CPU`;
    };
    return {
      measurements: medians,
      ratios: [
        { numerator: 'service', denominator: 'bare', target: 0.7 },
        { numerator: 'service+html', denominator: 'bare' },
      ],
      notes: [
        '',
        `req/s = leads/s; p50/p99/max ms = the time of one pass over ${leadCount} leads; requests = leads rendered in the round; loadgen CPU = this process's CPU per lead (everything runs in it)`,
        `${leadCount} leads, ${passes} passes per row and round after ${warmupPasses} warm-up passes each; the rows interleaved in blocks of ${block} leads, taking turns first; one process, no servers`,
        `step: subject ${JSON.stringify(SUBJECT)}; body ${BODY.length} characters, 7 merge variables, one {% if %}, spintax groups of ${bodyTemplate.spinOptions.join(' and ')} options; one variant`,
        `  service = draftStep (variant, mergeScope, spinChoices x2, renderTemplate x2 on the service's engine, subject collapsed, normalizeText); service+html = that + assembleEmail (signature, textToHtml)`,
        `  bare = new Liquid() (defaults) renderSync of the same Liquid (spintaxToLiquid) for subject and body, a prebuilt scope per lead, spintax fixed at ${JSON.stringify(FIXED_SPIN)}`,
        `checked before timing: all ${leadCount} leads drafted (none passed over); ${sample.length} leads' subject and body equal the bare render with the service's own spintax choices (${choicesSeen.size} distinct combinations); ${fallbacks} bodies used the first_name fallback; ${withIf} took the {% if %} branch`,
        `per lead (median round): ${ROWS.map(usPerLead).join('; ')}`,
        ...(ctx.settings.diagnostics
          ? [
              `diagnostic rows: engine = the service's configured engine (liquid-engine.ts) rendering the compiled templates with the bare loop's scopes; engine-nostack = the same with Error.stackTraceLimit = 0`,
              `  engine/bare ${ratioOf('engine', 'bare')}, engine-nostack/bare ${ratioOf('engine-nostack', 'bare')}, service/engine ${ratioOf('service', 'engine')}`,
              `the service's per-lead work outside the engine, each piece alone:`,
              ...pieces,
            ]
          : []),
        `memory (process heap, one pass per row holding its ${leadCount} outputs):`,
        ...memory,
        `  process RSS ${mib(rssBefore?.rssBytes)} before the memory passes, ${mib(rssAfter?.rssBytes)} after; peak RSS of the run (VmHWM) ${mib(rssAfter?.peakRssBytes)}`,
        `service/bare per round: ${perRound.map((r) => r.ratio.toFixed(3)).join(', ')}; service+html/bare: ${perRound.map((r) => r.html.toFixed(3)).join(', ')}`,
        `other work on the machine while measured (cores busy outside this process), per round: ${perRound.map((r) => (r.otherCores === undefined ? '-' : r.otherCores.toFixed(2))).join(', ')}`,
        ...rounds.notes(),
        `example body (lead 0):`,
        ...exampleText.split('\n').map((l) => `  | ${l}`),
        ...profiles,
      ],
    };
  },
};
