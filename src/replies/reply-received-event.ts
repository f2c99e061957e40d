import { normalizeEmail } from '../suppressions/suppression-repository';
import type { LeadSnapshot } from './sent-email';

export interface ReplyReceivedFacts {
  readonly replyId: string;
  readonly fromEmail: string;
  readonly fromName: string | null;
  /** The lead's address the answered email went to. */
  readonly leadEmail: string;
  readonly lead: LeadSnapshot;
  readonly sentiment: string | null;
  readonly preview: string;
  readonly receivedAt: Date;
}

/**
 * The `reply.received` event's data, in the full form of the spec. Someone other than the lead may
 * answer (a colleague the email was forwarded to): the event then names the sender, not the lead,
 * and does not lend them the lead's title.
 */
export function replyReceivedData(f: ReplyReceivedFacts): Record<string, unknown> {
  const byLead = normalizeEmail(f.fromEmail) === normalizeEmail(f.leadEmail);
  return {
    reply_id: f.replyId,
    email: f.fromEmail,
    name: byLead ? (f.lead.name ?? f.fromName) : (f.fromName ?? f.lead.name),
    company: f.lead.company,
    title: byLead ? f.lead.title : null,
    sentiment: f.sentiment ?? 'neutral',
    preview: f.preview,
    received_at: f.receivedAt.toISOString(),
  };
}
