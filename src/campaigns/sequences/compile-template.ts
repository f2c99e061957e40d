/**
 * A written subject or body, checked and parsed once: spintax turned into Liquid, nesting and
 * tags checked, Liquid parsed, and every variable it reads checked against the merge variables.
 * What is wrong is a TemplateProblem whose message names the problem (the caller adds which step
 * and field). Rendering a compiled template for one lead is renderTemplate.
 */
import { AssertionError, RenderError, UndefinedVariableError, type Template } from 'liquidjs';
import { urlsIn } from '../../writing/render';
import { ALLOWED_TAGS, liquid, MAX_FILTERS, MAX_NESTING, mostFilters, nestingDepth, RENDER_LIMITS } from './liquid-engine';
import { variableProblem } from './merge-variables';
import { SPIN_VARIABLE, SpintaxError, spintaxToLiquid } from './spintax';

export class TemplateProblem extends Error {
  override readonly name = 'TemplateProblem';
}

export interface CompiledTemplate {
  readonly source: string;
  readonly templates: Template[];
  /** Options of each spintax group, by group number. */
  readonly spinOptions: readonly number[];
  /** The http(s) URLs written in the source: they become links of the HTML part (and are tracked). */
  readonly links: readonly string[];
}

/** Liquid's messages end with the position; it is kept, minus the machinery ("ParseError: "). */
function liquidMessage(err: Error): string {
  const notFound = /^tag "(\w+)" not found/.exec(err.message);
  if (notFound !== null) return `the tag {% ${notFound[1]} %} is not allowed (allowed: ${ALLOWED_TAGS.join(', ')})`;
  if (/Maximum call stack/.test(err.message)) return `blocks nest too deeply (at most ${MAX_NESTING})`;
  return err.message.replace(/^undefined filter/, 'unknown filter');
}

export function compileTemplate(source: string): CompiledTemplate {
  const depth = nestingDepth(source);
  if (depth > MAX_NESTING) throw new TemplateProblem(`blocks nest ${depth} deep; at most ${MAX_NESTING}`);
  const filters = mostFilters(source);
  if (filters > MAX_FILTERS) throw new TemplateProblem(`one output applies ${filters} filters; at most ${MAX_FILTERS}`);
  let spin;
  try {
    spin = spintaxToLiquid(source);
  } catch (err) {
    if (err instanceof SpintaxError) throw new TemplateProblem(err.message);
    throw err;
  }
  let templates: Template[];
  try {
    templates = liquid.parse(spin.liquid);
  } catch (err) {
    if (err instanceof Error) throw new TemplateProblem(liquidMessage(err));
    throw err;
  }
  for (const segments of liquid.globalVariableSegmentsSync(templates)) {
    if (segments[0] === SPIN_VARIABLE && spin.options.length > 0 && !source.includes(SPIN_VARIABLE)) continue;
    const problem = variableProblem(segments);
    if (problem !== null) throw new TemplateProblem(problem);
  }
  return { source, templates, spinOptions: spin.options, links: urlsIn(source) };
}

export type RenderOutcome = { readonly text: string } | { readonly missing: string } | { readonly failed: string };

/**
 * A render stopped by its time limit. The limit is wall-clock, so this says as much about the
 * machine as about the template: the caller retries rather than passing the step over for good.
 */
export class RenderTimeout extends Error {
  override readonly name = 'RenderTimeout';
}

const TIME_LIMIT = /render limit exceeded/;

/**
 * The template rendered with `scope` and the spintax choices `spin` (one per group). A variable
 * the lead has no value for is `missing` (its name, as the template wrote it); a render that
 * passed a limit (time, memory) is `failed`.
 */
export function renderTemplate(t: CompiledTemplate, scope: Record<string, unknown>, spin: Readonly<Record<string, number>>): RenderOutcome {
  // The engine finds a missing value by throwing (and catching, before a default): with stack
  // traces off for this synchronous call, each of those costs a fraction of what it would.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const text: unknown = liquid.renderSync(t.templates, t.spinOptions.length === 0 ? scope : { ...scope, [SPIN_VARIABLE]: spin });
    return { text: String(text) };
  } catch (err) {
    if (err instanceof UndefinedVariableError) {
      const name = /undefined variable: ([^,]+)/.exec(err.message)?.[1] ?? 'a variable';
      return { missing: name };
    }
    // The time limit is an AssertionError at a template's top level and a RenderError inside a block.
    if ((err instanceof RenderError || err instanceof AssertionError) && TIME_LIMIT.test(err.message)) throw new RenderTimeout(`rendering took more than ${RENDER_LIMITS.renderMs} ms`);
    if (err instanceof RenderError) return { failed: err.message.replace(/, line:\d+, col:\d+$/, '') };
    throw err;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}
