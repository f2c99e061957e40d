/**
 * Every step of a sequence for one lead, rendered exactly as the sending batch would render and
 * compose it (variant choice, merge variables, spintax, the writer, signature, tracking, the
 * unsubscribe lines), without sending or storing an email: which variant the lead gets, each
 * step's subject and both parts, the thread it replies in, and why a step would be passed over.
 * Where the host has SpamAssassin, each step's local score and the rules that fired.
 *
 * A step written by the account's LLM costs what the model charges: it is recorded as an
 * `ai_generation` cost with the feature `email-preview` (under its own key, so the real send of
 * that step is charged again). The built-in writer and templates cost nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { selectLlm } from '../../ai/select-llm';
import type { Config } from '../../config/config';
import { serviceSecret } from '../../config/service-secret-repository';
import { rawMessage } from '../../deliverability/raw-message';
import { scoreMessage, spamAssassinAvailable, type SpamReport } from '../../deliverability/spamassassin';
import { composeMessage, displayName, newMessageId } from '../../sending/compose';
import type { TrackingChoice } from '../../sending/types';
import { TrackingLinks } from '../../tracking/links';
import type { EmailWriter } from '../../writing/email-writer';
import type { WriteEmailInput } from '../../writing/types';
import type { StepMode, VariantId } from '../model/sequence';
import type { SenderIdentity } from '../sending/batch-context';
import { threadOf, type ItemLead, type SentBefore } from '../sending/item-state';
import { writeStep } from '../sending/write-step';
import type { CompiledSequence } from './compiled-sequence';
import { draftStep } from './draft-step';

export interface PreviewDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly writer: Pick<EmailWriter, 'write'>;
}

/** What rendering needs besides the settings: the writer, the tracking links, and who writes ai steps. */
export interface PreviewRendering {
  readonly writer: Pick<EmailWriter, 'write'>;
  readonly links: TrackingLinks;
  readonly publicBaseUrl: string;
  /** The writer of the account's ai steps: its LLM provider, or the built-in writer. */
  readonly aiWriter: 'builtin' | 'openai' | 'anthropic';
}

/** The account's rendering: the deployment's tracking secret and the account's writer. */
export async function previewRendering(deps: PreviewDeps, accountId: string): Promise<PreviewRendering> {
  const [secret, llm] = await Promise.all([serviceSecret(deps.sequelize, 'tracking', deps.config.trackingSecret), selectLlm(deps.sequelize, accountId)]);
  return { writer: deps.writer, links: new TrackingLinks(secret, deps.config.publicBaseUrl), publicBaseUrl: deps.config.publicBaseUrl, aiWriter: llm === null ? 'builtin' : llm.provider };
}

/** What the steps are written for and as: the campaign (stored, or as a request describes it). */
export interface PreviewSettings {
  readonly accountId: string;
  /** Null for a sequence that is not a campaign's yet. */
  readonly campaignId: string | null;
  readonly brandId: string | null;
  readonly mcp: string;
  readonly sequence: CompiledSequence;
  readonly winners: ReadonlyMap<number, VariantId>;
  readonly campaign: WriteEmailInput['campaign'];
  readonly company: WriteEmailInput['company'];
  readonly tracking: TrackingChoice;
  readonly identity: SenderIdentity;
}

export interface PreviewLead {
  /** The lead's id, or null for fields given in the request. */
  readonly id: string | null;
  readonly lead: ItemLead;
}

export type SpamCheck = { readonly status: 'checked'; readonly report: SpamReport } | { readonly status: 'unavailable' | 'off' | 'failed'; readonly reason: string };

export interface PreviewStep {
  /** 1 for the first email. */
  readonly step: number;
  readonly delayDays: number;
  readonly variant: VariantId;
  readonly mode: StepMode;
  /** Who writes the content: the template, the built-in writer, or the account's LLM. */
  readonly writer: 'template' | 'builtin' | 'openai' | 'anthropic' | null;
  /** Why the step would be passed over for this lead; null when it would go out. */
  readonly skipped: string | null;
  readonly subject: string | null;
  /** The parts as sent: tracking and the unsubscribe lines included; html null for plain text only. */
  readonly text: string | null;
  readonly html: string | null;
  /** The step whose email this one replies to (In-Reply-To), or null when it opens a thread. */
  readonly inReplyToStep: number | null;
  readonly spam: SpamCheck | null;
}

export async function previewSequence(r: PreviewRendering, s: PreviewSettings, who: PreviewLead, opts: { readonly spamCheck: boolean }): Promise<PreviewStep[]> {
  const leadKey = who.id ?? who.lead.email.trim().toLowerCase();
  const campaignId = s.campaignId ?? 'cmp_preview';
  const spamOn = opts.spamCheck && (await spamAssassinAvailable());
  const previewId = randomUUID().slice(0, 8);
  /** The steps that would have gone out so far, for threading. */
  const sent: SentBefore[] = [];
  const out: PreviewStep[] = [];
  for (const [i, step] of s.sequence.steps.entries()) {
    const thread = threadOf(sent);
    const draft = draftStep({
      step,
      stepIndex: i,
      leadKey,
      lead: who.lead,
      sender: { name: s.identity.name, email: s.identity.email, company: s.identity.company },
      calendarLink: s.campaign.calendarLink,
      winner: s.winners.get(i) ?? null,
      thread,
    });
    const base = { step: i + 1, delayDays: step.delayDays, variant: draft.variant.id, mode: draft.variant.mode };
    if ('omitted' in draft) {
      out.push({ ...base, writer: null, skipped: draft.omitted, subject: null, text: null, html: null, inReplyToStep: null, spam: null });
      continue;
    }
    const email = await writeStep(r.writer, {
      accountId: s.accountId,
      campaignId,
      leadId: who.id ?? leadKey,
      brandId: s.brandId,
      mcp: s.mcp,
      stepIndex: i,
      delayDays: step.delayDays,
      draft,
      lead: who.lead,
      identity: s.identity,
      thread,
      campaign: s.campaign,
      company: s.company,
      charge: { costKey: `preview:${previewId}:${i}`, featureSlug: 'email-preview', campaignId: s.campaignId },
    });
    const emailId = `em_preview${previewId}${i}`;
    const messageId = newMessageId(emailId, s.identity.email);
    const replyTo = draft.inThread ? sent.filter((e) => thread.messageIds.includes(e.messageId)) : [];
    const message = composeMessage(
      {
        emailId,
        messageId,
        from: { address: s.identity.email, name: s.identity.name },
        to: { address: who.lead.email, name: displayName(who.lead.firstName, who.lead.lastName) },
        subject: email.subject,
        html: email.html,
        text: email.text,
        ...(replyTo.length === 0 ? {} : { inReplyTo: replyTo[replyTo.length - 1]!.messageId, references: replyTo.map((e) => e.messageId) }),
        dkim: null,
        campaignId,
        tracking: s.tracking,
      },
      r.links,
      r.publicBaseUrl,
    );
    sent.push({ step: i, subject: email.subject, messageId, startsThread: !draft.inThread, mailboxId: null });
    out.push({
      ...base,
      writer: draft.text !== null ? 'template' : r.aiWriter,
      skipped: null,
      subject: email.subject,
      text: typeof message.text === 'string' ? message.text : email.text,
      html: typeof message.html === 'string' ? message.html : null,
      inReplyToStep: replyTo.length === 0 ? null : replyTo[replyTo.length - 1]!.step + 1,
      spam: opts.spamCheck ? await spamOf(spamOn, () => rawMessage(message)) : { status: 'off', reason: 'not asked for (spamCheck: false)' },
    });
  }
  return out;
}

async function spamOf(available: boolean, raw: () => Promise<Buffer>): Promise<SpamCheck> {
  if (!available) return { status: 'unavailable', reason: 'SpamAssassin is not installed on this host' };
  try {
    return { status: 'checked', report: await scoreMessage(await raw()) };
  } catch (err) {
    return { status: 'failed', reason: err instanceof Error ? err.message : String(err) };
  }
}

