import { LlmOutputError } from '../../ai/errors';
import { priceTokens } from '../../ai/pricing';
import type { Llm, LlmResult, LlmUsage } from '../../ai/types';
import { clean, factsOf } from '../facts';
import { normalizeText, textToHtml } from '../render';
import { replySubject } from '../subject';
import type { WriteEmailInput, WrittenEmail } from '../types';
import { buildEmailPrompt, EMAIL_SCHEMA, type LlmEmailAnswer } from './prompt';

export interface LlmWrite {
  readonly email: WrittenEmail;
  /** Tokens of every attempt, the failed one included: they were all paid for. */
  readonly usage: LlmUsage;
  readonly costUsd: number;
  readonly attempts: number;
}

/** Room for a 130-word email as JSON with some slack; a reasoning model's thinking also counts here. */
const MAX_TOKENS = 1_200;
/** A second sample when the first answer is unusable; provider errors are not retried here (the SDK and the activity do that). */
const MAX_ATTEMPTS = 2;

const PLACEHOLDER = /\[[A-Z][A-Za-z .'-]{1,40}\]|\{\{[^}]*\}\}|<[a-zA-Z/][^>]*>/;

function finish(answer: LlmEmailAnswer, input: WriteEmailInput, llm: Llm, model: string, usage: LlmUsage): WrittenEmail {
  const unusable = (why: string) => new LlmOutputError(llm.provider, 'unusable', usage, `The written email ${why}`);
  const own = clean(answer.subject.replace(/^\s*subject\s*:\s*/i, '').replace(/^["'“]+|["'”]+$/g, ''), 150);
  const fixed = input.subject?.trim() ? input.subject.trim() : null;
  const subject = fixed ?? (input.step.kind === 'first' ? own : (replySubject(input.previousSubject) ?? own));
  if (subject === null) throw unusable('has no subject');
  const text = normalizeText(answer.body_text);
  if (text.length < 40) throw unusable('is too short');
  if (text.length > 5_000) throw unusable('is too long');
  const leftover = PLACEHOLDER.exec(`${subject}\n${text}`);
  if (leftover !== null) throw unusable(`contains a placeholder or markup: ${leftover[0].slice(0, 40)}`);
  const link = factsOf(input).calendarLink;
  return { subject, text, html: textToHtml(text, link === null ? [] : [link]), writer: llm.provider, model };
}

type Sample = { readonly usage: LlmUsage; readonly costUsd: number } & ({ readonly email: WrittenEmail } | { readonly problem: LlmOutputError });

/** One call and its checks. Provider errors propagate; an unusable answer is returned as a problem. */
async function sample(llm: Llm, prompt: { system: string; user: string }, input: WriteEmailInput): Promise<Sample> {
  let r: LlmResult<LlmEmailAnswer>;
  try {
    r = await llm.complete<LlmEmailAnswer>({ ...prompt, maxTokens: MAX_TOKENS, json: EMAIL_SCHEMA });
  } catch (err) {
    if (err instanceof LlmOutputError) return { usage: err.usage, costUsd: priceTokens(llm.model, err.usage), problem: err };
    throw err;
  }
  try {
    return { usage: r.usage, costUsd: r.costUsd, email: finish(r.json!, input, llm, r.model, r.usage) };
  } catch (err) {
    if (err instanceof LlmOutputError) return { usage: r.usage, costUsd: r.costUsd, problem: err };
    throw err;
  }
}

/**
 * Writes one email with the account's LLM. A provider error (bad key, rate limit after the SDK's
 * retries, outage) is thrown as is: the caller must not silently switch to the built-in writer,
 * because the account chose its provider and the activity's retry policy owns retries. An
 * unusable answer (not matching the schema, truncated, a placeholder left in) is sampled once more;
 * a second unusable answer is thrown.
 */
export async function writeWithLlm(llm: Llm, input: WriteEmailInput): Promise<LlmWrite> {
  const prompt = buildEmailPrompt(input);
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  for (let attempt = 1; ; attempt++) {
    const s = await sample(llm, prompt, input);
    inputTokens += s.usage.inputTokens;
    outputTokens += s.usage.outputTokens;
    costUsd += s.costUsd;
    if ('email' in s) return { email: s.email, usage: { inputTokens, outputTokens }, costUsd: round6(costUsd), attempts: attempt };
    if (attempt >= MAX_ATTEMPTS) throw s.problem;
  }
}

function round6(usd: number): number {
  return Math.round(usd * 1_000_000) / 1_000_000;
}
