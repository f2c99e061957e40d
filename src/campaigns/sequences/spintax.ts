/**
 * Spintax (`{Hi|Hello} {{ first_name }}`) as Liquid: each group becomes a `case` over a value the
 * renderer chooses per lead and step (render-variant.ts), so a template with spintax is parsed
 * once, and validated once, like any other, and each lead gets one option of each group.
 *
 * A group is `{` ... `}` holding at least one `|` at its own level; groups nest (`{a|{b|c}}`).
 * Liquid's own delimiters (`{{ }}`, `{% %}`) are not groups and are copied as they are, as is
 * everything inside `{% raw %}` ... `{% endraw %}`. A brace pair without a `|` (`{braces}`) and an
 * unclosed `{` are ordinary text.
 */

/** The variable the chosen options are read from: `spin__.g<n>` is the option of group n. */
export const SPIN_VARIABLE = 'spin__';

export const SPINTAX_LIMITS = { groups: 100, options: 20 } as const;

export class SpintaxError extends Error {
  override readonly name = 'SpintaxError';
}

export interface SpintaxTemplate {
  /** The template with every group as a Liquid `case`. */
  readonly liquid: string;
  /** How many options each group has, by group number. */
  readonly options: readonly number[];
}

interface Group {
  readonly options: string[];
  current: string;
}

/** The template as Liquid, or the text unchanged when it has no group. */
export function spintaxToLiquid(source: string): SpintaxTemplate {
  const options: number[] = [];
  const stack: Group[] = [];
  let out = '';
  const emit = (text: string): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) out += text;
    else top.current += text;
  };

  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '{' && (next === '{' || next === '%')) {
      const end = liquidEnd(source, i);
      emit(source.slice(i, end));
      i = end;
    } else if (c === '{') {
      stack.push({ options: [], current: '' });
      i++;
    } else if (c === '|' && stack.length > 0) {
      const top = stack[stack.length - 1]!;
      top.options.push(top.current);
      top.current = '';
      i++;
    } else if (c === '}' && stack.length > 0) {
      const group = stack.pop()!;
      emit(group.options.length === 0 ? `{${group.current}}` : caseOf(group, options));
      i++;
    } else {
      emit(c);
      i++;
    }
  }
  // Unclosed groups are text, as written.
  while (stack.length > 0) {
    const group = stack.pop()!;
    emit(`{${[...group.options, group.current].join('|')}`);
  }
  return { liquid: out, options };
}

function caseOf(group: Group, options: number[]): string {
  const all = [...group.options, group.current];
  if (all.length > SPINTAX_LIMITS.options) throw new SpintaxError(`a spintax group has ${all.length} options; at most ${SPINTAX_LIMITS.options} are allowed`);
  if (options.length >= SPINTAX_LIMITS.groups) throw new SpintaxError(`more than ${SPINTAX_LIMITS.groups} spintax groups`);
  const n = options.length;
  options.push(all.length);
  return `{% case ${SPIN_VARIABLE}.g${n} %}${all.map((o, k) => `{% when ${k} %}${o}`).join('')}{% endcase %}`;
}

/**
 * Where the Liquid output or tag starting at `start` ends (after its `}}` or `%}`), or the end of
 * the text when it is not closed (Liquid's parser then reports it). A raw block runs to its endraw.
 */
function liquidEnd(source: string, start: number): number {
  const closer = source[start + 1] === '{' ? '}}' : '%}';
  const close = source.indexOf(closer, start + 2);
  if (close < 0) return source.length;
  const end = close + 2;
  if (closer === '%}' && /^\{%-?\s*raw\s*-?%\}$/.test(source.slice(start, end))) {
    const endraw = /\{%-?\s*endraw\s*-?%\}/g;
    endraw.lastIndex = end;
    const m = endraw.exec(source);
    return m === null ? source.length : m.index + m[0].length;
  }
  return end;
}
