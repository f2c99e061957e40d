import { createHash } from 'node:crypto';

/** Picks one of several options. The same seed and slot always pick the same option. */
export type Pick = <T>(slot: string, options: readonly T[]) => T;

/**
 * A deterministic chooser for one lead and step: the choice is a hash of the lead's address, the
 * step and the slot being filled, so a retried activity writes the same email, while different
 * leads (and different steps to one lead) get different phrasings.
 */
export function seededPick(leadEmail: string, stepIndex: number): Pick {
  const seed = `${leadEmail.trim().toLowerCase()}\n${stepIndex}`;
  return <T>(slot: string, options: readonly T[]): T => {
    if (options.length === 0) throw new RangeError(`no options for ${slot}`);
    const digest = createHash('sha256').update(`${seed}\n${slot}`).digest();
    return options[digest.readUInt32BE(0) % options.length]!;
  };
}
