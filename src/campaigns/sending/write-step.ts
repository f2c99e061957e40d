/**
 * The content of one step for one lead once its draft is known (draft-step.ts): a template step
 * as rendered; an ai step written by the account's LLM or the built-in writer, following the
 * step's instructions; then the sender's signature and the HTML part (assemble-email.ts). The
 * sending batch and the preview write through this one function, so a preview shows what is sent.
 */
import type { EmailWriter, WriteStepInput } from '../../writing/email-writer';
import type { WriteEmailInput } from '../../writing/types';
import { assembleEmail, type AssembledEmail } from '../sequences/assemble-email';
import type { StepDraft, ThreadSoFar } from '../sequences/draft-step';
import type { SenderIdentity } from './batch-context';
import type { ItemLead } from './item-state';

export interface StepToWrite {
  readonly accountId: string;
  readonly campaignId: string;
  /** Whose email it is, for the cost of an LLM-written one. */
  readonly leadId: string;
  readonly brandId: string | null;
  readonly mcp: string;
  readonly stepIndex: number;
  readonly delayDays: number;
  readonly draft: Exclude<StepDraft, { omitted: string }>;
  readonly lead: ItemLead;
  readonly identity: SenderIdentity;
  readonly thread: ThreadSoFar;
  readonly campaign: WriteEmailInput['campaign'];
  readonly company: WriteEmailInput['company'];
  /** The subject the lead's previous step had, when no thread says it (steps before sequences were stored). */
  readonly previousSubject?: string | null;
  readonly charge?: WriteStepInput['charge'];
}

export async function writeStep(writer: Pick<EmailWriter, 'write'>, s: StepToWrite): Promise<AssembledEmail> {
  const { draft, identity } = s;
  const { calendarLink } = s.campaign;
  if (draft.text !== null && draft.subject !== null) return assembleEmail({ subject: draft.subject, text: draft.text, links: draft.links }, identity.signature, calendarLink);
  const written = await writer.write({
    accountId: s.accountId,
    campaignId: s.campaignId,
    leadId: s.leadId,
    brandId: s.brandId,
    content: {
      mcp: s.mcp,
      step: { index: s.stepIndex, kind: draft.variant.kind, delayDays: s.delayDays, instructions: draft.variant.instructions },
      previousSubject: s.thread.subject ?? s.previousSubject ?? null,
      subject: draft.subject,
      lead: s.lead,
      company: s.company,
      campaign: { ...s.campaign, senderName: identity.isPerson ? identity.name : null },
    },
    ...(s.charge === undefined ? {} : { charge: s.charge }),
  });
  return assembleEmail({ subject: draft.subject ?? written.subject, text: draft.text ?? written.text, links: draft.text === null ? [] : draft.links }, identity.signature, calendarLink);
}
