/**
 * Generates evaluation set 2 (npm run eval:audience:generate): leads.jsonl and phrases.jsonl next
 * to this file. Deterministic: the same code writes the same files (the test checks that the
 * committed files are what `generateSet2()` gives). Regenerating changes the frozen part, so it is
 * done only with a reason written in README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generatePhrases } from './phrase-set';
import { generatePool } from './pool';
import { hash32, Rng } from './random';
import type { Set2Lead, Set2Phrase } from './types';

export const SET2_DIR = __dirname;
export const LEADS_FILE = 'leads.jsonl';
export const PHRASES_FILE = 'phrases.jsonl';

const SEED = 20_260_514;
/** About 60/40 between the tuning and the frozen part, for leads and for phrases. */
const TUNING_LEADS = 1560;
const FROZEN_LEADS = 1040;

/** One stream per part and kind, so that growing one never reshuffles another. */
const stream = (name: string): Rng => new Rng((hash32(name) ^ SEED) >>> 0);

export interface Set2 {
  readonly leads: Set2Lead[];
  readonly phrases: Set2Phrase[];
}

export function generateSet2(): Set2 {
  const tuningLeads = generatePool(stream('leads:tuning'), 'tuning', TUNING_LEADS);
  const frozenLeads = generatePool(stream('leads:frozen'), 'frozen', FROZEN_LEADS);
  const taken = new Set<string>();
  const tuningPhrases = generatePhrases(stream('phrases:tuning'), 'tuning', tuningLeads, taken);
  const frozenPhrases = generatePhrases(stream('phrases:frozen'), 'frozen', frozenLeads, taken);
  return { leads: [...tuningLeads, ...frozenLeads], phrases: [...tuningPhrases, ...frozenPhrases] };
}

export const toJsonl = (rows: readonly unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function main(): void {
  const set = generateSet2();
  fs.writeFileSync(path.join(SET2_DIR, LEADS_FILE), toJsonl(set.leads));
  fs.writeFileSync(path.join(SET2_DIR, PHRASES_FILE), toJsonl(set.phrases));
  const parts = (frozen: boolean): string =>
    `${set.leads.filter((l) => l.frozen === frozen).length} leads, ${set.phrases.filter((p) => p.frozen === frozen).length} phrases`;
  process.stdout.write(`wrote ${LEADS_FILE} and ${PHRASES_FILE}: tuning ${parts(false)}; frozen ${parts(true)}\n`);
}

if (require.main === module) main();
