/**
 * The template engine of written steps: liquidjs, configured so that a template can only compute
 * text from the values it is given.
 *
 * - No file or network access: the tags that read other templates (include, render, layout, block)
 *   are removed, and the engine has no root directory to read from.
 * - No loops: `for`, `tablerow`, `cycle` and `liquid` (which can hold a loop) are removed; an email
 *   has no list to walk, and a loop is the easy way to a template that never ends.
 * - Bounded: parsing, rendering time and the memory filters may allocate have limits, checked on
 *   every render (RENDER_LIMITS); a template nests at most MAX_NESTING blocks deep (a few
 *   thousand nested `if`s overflow the parser's stack) and chains at most MAX_FILTERS filters.
 * - Strict: an unknown filter is a parse error; an undefined variable is an error at render time,
 *   except inside an `if`/`unless` condition and before a `default` filter (`lenientIf`), which is
 *   how a lead without a value is detected (render-variant.ts). JavaScript truthiness, so an empty
 *   value is false in a condition; own properties only, so no template reaches a prototype.
 * - Deterministic: the `sample` filter (a random element) is removed.
 */
import { Liquid } from 'liquidjs';

/** Tags that read files, loop, or hold a loop. */
const REMOVED_TAGS = ['include', 'render', 'layout', 'block', 'for', 'tablerow', 'cycle', 'liquid', 'break', 'continue', 'increment', 'decrement'] as const;
const REMOVED_FILTERS = ['sample'] as const;

/** Blocks inside blocks, at most: a real email needs two or three. */
export const MAX_NESTING = 20;

/** Filters in one output or tag, at most: a real email needs two or three (`| default: ... | upcase`). */
export const MAX_FILTERS = 50;

export const RENDER_LIMITS = {
  /** Characters of template source parsed at once. */
  parse: 100_000,
  /**
   * Milliseconds of one render, wall-clock: a real email renders in well under one, so this only
   * stops a pathological template, and is high enough that a busy machine never trips it.
   */
  renderMs: 1_000,
  /** Bytes filters may allocate in one render (append, join, ...). */
  memory: 1_000_000,
} as const;

export const ALLOWED_TAGS: readonly string[] = ['if', 'elsif', 'else', 'unless', 'case', 'when', 'assign', 'capture', 'comment', 'raw', 'echo'];

function createEngine(): Liquid {
  const engine = new Liquid({
    strictVariables: true,
    lenientIf: true,
    strictFilters: true,
    jsTruthy: true,
    ownPropertyOnly: true,
    cache: false,
    parseLimit: RENDER_LIMITS.parse,
    renderLimit: RENDER_LIMITS.renderMs,
    memoryLimit: RENDER_LIMITS.memory,
    // No directory to read templates from: the removed tags are the only readers, this is a second lock.
    root: [],
    partials: [],
    layouts: [],
    relativeReference: false,
  });
  for (const tag of REMOVED_TAGS) delete engine.tags[tag];
  for (const filter of REMOVED_FILTERS) engine.unregisterFilter(filter);
  return engine;
}

/** One engine per process: it holds no per-render state. */
export const liquid: Liquid = createEngine();


/** The most filters (`|` outside quotes) any one `{{ ... }}` or `{% ... %}` of the template applies. */
export function mostFilters(source: string): number {
  let most = 0;
  for (const m of source.matchAll(/\{\{([\s\S]*?)\}\}|\{%([\s\S]*?)%\}/g)) {
    const markup = (m[1] ?? m[2] ?? '').replace(/"[^"]*"|'[^']*'/g, '');
    most = Math.max(most, markup.split('|').length - 1);
  }
  return most;
}

const BLOCK_OPEN = /^(if|unless|case|capture|comment|raw)$/;
const BLOCK_CLOSE = /^end(if|unless|case|capture|comment|raw)$/;

/**
 * How deeply the template's blocks nest, read from its tags alone (before the parser, whose
 * recursion is what deep nesting would overflow). Inside a raw or comment block nothing counts.
 */
export function nestingDepth(source: string): number {
  let depth = 0;
  let max = 0;
  let verbatim: string | null = null;
  for (const m of source.matchAll(/\{%-?\s*(\w+)/g)) {
    const name = m[1]!;
    if (verbatim !== null) {
      if (name === `end${verbatim}`) {
        verbatim = null;
        depth--;
      }
      continue;
    }
    if (BLOCK_OPEN.test(name)) {
      depth++;
      max = Math.max(max, depth);
      if (name === 'raw' || name === 'comment') verbatim = name;
    } else if (BLOCK_CLOSE.test(name)) depth--;
  }
  return max;
}
