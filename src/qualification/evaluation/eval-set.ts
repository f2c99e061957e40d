import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { CATEGORIES, type Category } from '../categories';

/** One hand-labelled reply of the evaluation set (eval/qualify/replies.jsonl, one JSON object a line). */
export interface EvalEntry {
  readonly id: string;
  readonly subject: string;
  readonly body: string;
  readonly category: Category;
  readonly note?: string;
  /** When the reply arrived (ISO 8601); dates in it are read relative to this. Default: EVAL_DEFAULT_RECEIVED_AT. */
  readonly received_at?: string;
  /** out_of_office: the expected return date, YYYY-MM-DD. */
  readonly return_date?: string;
  /**
   * Which writing round the reply belongs to. Each batch was written before the built-in rules were
   * tuned on it; its accuracy on that first run (eval/qualify/README.md) is the honest estimate of
   * how the rules do on replies they have not seen.
   */
  readonly batch?: number;
}

/** The evaluation set's replies arrived on this day unless they say otherwise (a Friday). */
export const EVAL_DEFAULT_RECEIVED_AT = '2026-11-20T09:00:00Z';

const ENTRY_SCHEMA = {
  type: 'object',
  required: ['id', 'subject', 'body', 'category'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,40}$' },
    subject: { type: 'string', maxLength: 1000 },
    body: { type: 'string', minLength: 1, maxLength: 100_000 },
    category: { enum: [...CATEGORIES] },
    note: { type: 'string' },
    received_at: { type: 'string', format: 'date-time' },
    return_date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    batch: { type: 'integer', minimum: 1, maximum: 99 },
  },
} as const;

const ajv = new Ajv({ allErrors: false, strict: false });
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s));
const validateEntry = ajv.compile<EvalEntry>(ENTRY_SCHEMA);

export class EvalSetError extends Error {
  override readonly name = 'EvalSetError';
}

/** Parses and checks the JSONL text: every line a valid entry, ids unique. Throws EvalSetError naming the line. */
export function parseEvalSet(text: string): EvalEntry[] {
  const entries: EvalEntry[] = [];
  const ids = new Set<string>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new EvalSetError(`line ${i + 1}: not JSON (${(err as Error).message})`);
    }
    if (!validateEntry(value)) {
      const e = validateEntry.errors?.[0];
      throw new EvalSetError(`line ${i + 1}: ${e ? `${e.instancePath || 'entry'} ${e.message ?? 'is invalid'}` : 'invalid entry'}`);
    }
    if (ids.has(value.id)) throw new EvalSetError(`line ${i + 1}: duplicate id ${value.id}`);
    if (value.return_date && value.category !== 'out_of_office') throw new EvalSetError(`line ${i + 1}: return_date on a ${value.category} reply`);
    ids.add(value.id);
    entries.push(value);
  });
  return entries;
}

export function loadEvalSet(path: string): EvalEntry[] {
  return parseEvalSet(readFileSync(path, 'utf8'));
}
