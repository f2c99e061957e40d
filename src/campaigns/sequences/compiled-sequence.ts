/**
 * A stored sequence with its templates parsed, ready to render for many leads. A sequence version
 * never changes once stored, so a process keeps the compiled form of the versions it has used
 * (a bounded map): a batch of 25 emails, or a preview, parses each template once, not per lead.
 */
import type { Sequelize } from 'sequelize';
import { startsThread, stepKind, type CampaignSequence, type StepVariant, type SequenceStep } from '../model/sequence';
import type { StepKind } from '../model/templates';
import { compileTemplate, type CompiledTemplate } from './compile-template';
import { readSequence } from './sequence-repository';

export interface CompiledVariant extends StepVariant {
  readonly subjectTemplate: CompiledTemplate | null;
  readonly bodyTemplate: CompiledTemplate | null;
  /** Opens a thread (its own subject) rather than replying in the one before. */
  readonly startsThread: boolean;
  readonly kind: StepKind;
}

export interface CompiledStep extends Omit<SequenceStep, 'variants'> {
  readonly variants: readonly CompiledVariant[];
}

export interface CompiledSequence {
  readonly version: number;
  readonly sequence: CampaignSequence;
  readonly steps: readonly CompiledStep[];
}

export function compileSequence(sequence: CampaignSequence, version: number): CompiledSequence {
  return {
    version,
    sequence,
    steps: sequence.steps.map((step, i) => ({
      ...step,
      variants: step.variants.map((v) => ({
        ...v,
        subjectTemplate: v.subject === null ? null : compileTemplate(v.subject),
        bodyTemplate: v.body === null ? null : compileTemplate(v.body),
        startsThread: startsThread(i, v),
        kind: stepKind(i, v),
      })),
    })),
  };
}

const MAX_CACHED = 200;
const cache = new Map<string, CompiledSequence>();

/**
 * The campaign's sequence `version` (the one in use when not given), compiled; null when the
 * campaign has none (or is not the account's).
 */
export async function loadCompiledSequence(sequelize: Sequelize, accountId: string, campaignId: string, version?: number): Promise<CompiledSequence | null> {
  if (version !== undefined) {
    const hit = cache.get(`${accountId}:${campaignId}:${version}`);
    if (hit !== undefined) return hit;
  }
  const stored = await readSequence(sequelize, accountId, campaignId, version);
  if (stored === null) return null;
  const key = `${accountId}:${campaignId}:${stored.version}`;
  const compiled = cache.get(key) ?? compileSequence(stored.sequence, stored.version);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}
