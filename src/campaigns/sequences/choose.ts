/**
 * The choices made for one lead without a random source, so that a retry, a replay or a preview
 * makes the same ones: which variant of a step a lead gets, and which option of each spintax group.
 * Each choice is a hash of the lead and the step (and what is being chosen), so different leads
 * spread over the options in their proportions while one lead always gets the same.
 */
import { hash } from 'node:crypto';
import { seededRandom } from '../../util/seeded-random';
import type { StepVariant, VariantId } from '../model/sequence';

/** A uniform 32-bit number from the text (the first four bytes of its SHA-1). */
function hash32(text: string): number {
  return hash('sha1', text, 'buffer').readUInt32BE(0);
}

/**
 * The variant `leadKey` (the lead's id; its address in a preview of unsaved fields) gets at step
 * `stepIndex`: the step's winner once one is decided, otherwise drawn in proportion to the weights
 * (a weight of 0 is never drawn; validate-sequence.ts refuses a step whose weights sum to 0).
 */
export function chooseVariant<V extends Pick<StepVariant, 'id' | 'weight'>>(variants: readonly V[], leadKey: string, stepIndex: number, winner: VariantId | null = null): V {
  if (winner !== null) {
    const won = variants.find((v) => v.id === winner);
    if (won !== undefined) return won;
  }
  if (variants.length === 1) return variants[0]!;
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  let point = (hash32(`${leadKey}\n${stepIndex}\nvariant`) / 2 ** 32) * total;
  for (const v of variants) {
    if (v.weight <= 0) continue;
    if (point < v.weight) return v;
    point -= v.weight;
  }
  // Rounding at the very top of the range: the last variant that can be drawn.
  return [...variants].reverse().find((v) => v.weight > 0) ?? variants[0]!;
}

/** One option of each spintax group (`g0`, `g1`, ...) for the lead, step and template `slot`. */
export function spinChoices(options: readonly number[], leadKey: string, stepIndex: number, slot: string): Record<string, number> {
  const choices: Record<string, number> = {};
  if (options.length === 0) return choices;
  const next = seededRandom(hash32(`${leadKey}\n${stepIndex}\n${slot}`));
  options.forEach((count, g) => {
    choices[`g${g}`] = Math.floor(next() * count);
  });
  return choices;
}
