import path from 'node:path';
import { REPO_ROOT } from './child-server';

/** The parts of a V8 .cpuprofile (written by node --cpu-prof) this summary reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const SPECIAL = new Set(['(idle)', '(garbage collector)', '(program)', '(root)']);

/** Where a frame's code lives: a package, a node: module, a file of this repository, or V8. */
export function categoryOf(functionName: string, url: string): string {
  if (SPECIAL.has(functionName)) return functionName;
  if (url === '') return '(native/builtin)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    return (parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]) ?? url;
  }
  if (url.startsWith('node:')) {
    const name = url.slice(5);
    if (name.startsWith('_http_') || name === 'http' || name.startsWith('internal/http')) return 'node:http';
    if (name.startsWith('internal/streams') || name === 'stream') return 'node:stream';
    if (name === 'net' || name.startsWith('internal/stream_base') || name.startsWith('internal/net')) return 'node:net';
    const internal = name.startsWith('internal/') ? name.slice('internal/'.length) : name;
    return `node:${internal.split('/')[0]}`;
  }
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const rel = path.relative(REPO_ROOT, file);
  if (!rel.startsWith('..')) return rel.split(path.sep).slice(0, 3).join('/');
  // Another checkout (BENCH_COMPARE): name the file from its src/ or bench/ folder on.
  const m = /\/((?:src|bench)\/.*)$/.exec(file);
  return m ? (m[1] as string).split('/').slice(0, 3).join('/') : url;
}

/** Milliseconds of non-idle samples. */
export function busyMs(profile: CpuProfile): number {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let us = 0;
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) us += profile.timeDeltas[i] ?? 0;
  });
  return us / 1000;
}

function shortLocation(url: string, line: number): string {
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const nm = file.lastIndexOf('/node_modules/');
  const shown = nm >= 0 ? file.slice(nm + '/node_modules/'.length) : path.relative(REPO_ROOT, file).startsWith('..') ? file : path.relative(REPO_ROOT, file);
  return `${shown}:${line + 1}`;
}

function table(rows: [string, number][], totalUs: number, limit: number): string {
  return rows
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, us]) => `  ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`)
    .join('\n');
}

/**
 * Text summary: self time by category, inclusive time by category (a category counts once per
 * sample, so "sequelize 40%" means 40% of busy samples had sequelize code on the stack), and the
 * hottest functions by self time. Percentages are of busy (non-idle) time; samples of the first
 * `skipFirstMs` are left out.
 */
export function summariseCpuProfile(profile: CpuProfile, limit = 18, skipFirstMs = 0): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfByCat = new Map<string, number>();
  const inclByCat = new Map<string, number>();
  const selfByFn = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  let elapsedUs = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    elapsedUs += dt;
    // Start-up (module loading, compiling) is not the steady state a scenario measures.
    if (elapsedUs < skipFirstMs * 1000) return;
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idleUs += dt;
      return;
    }
    totalUs += dt;
    const cat = categoryOf(functionName, url);
    selfByCat.set(cat, (selfByCat.get(cat) ?? 0) + dt);
    const fnKey = `${functionName || '(anonymous)'}  [${url ? shortLocation(url, lineNumber) : cat}]`;
    selfByFn.set(fnKey, (selfByFn.get(fnKey) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)?.callFrame;
      if (f) seen.add(categoryOf(f.functionName, f.url));
    }
    for (const c of seen) if (!SPECIAL.has(c)) inclByCat.set(c, (inclByCat.get(c) ?? 0) + dt);
  });
  if (totalUs === 0) return '  (no busy samples)';
  return [
    `  busy ${(totalUs / 1000).toFixed(0)} ms, idle ${(idleUs / 1000).toFixed(0)} ms (${((100 * idleUs) / (idleUs + totalUs)).toFixed(1)}% idle)`,
    '  self time by category:',
    table([...selfByCat], totalUs, limit),
    '  inclusive time by category:',
    table([...inclByCat], totalUs, limit),
    '  hottest functions (self):',
    table([...selfByFn], totalUs, limit),
  ].join('\n');
}
