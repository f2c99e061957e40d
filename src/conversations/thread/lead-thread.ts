import type { Sequelize } from 'sequelize';
import { NotFoundError } from '../../errors/domain-errors';
import { answerRefusal } from '../answerability';
import { MAX_THREAD_MESSAGES } from './thread-bounds';
import { comparePositions, decodeCursor, encodeCursor, SOURCE_RANK, type ThreadPosition } from './thread-cursor';
import { toAnswer, toCampaignEmail, toInbound, toThreadEvent } from './thread-messages';
import { readAnswers, readCampaignEmails, readEmailEvents, readInbound, readLeadHeader, type PageRequest } from './thread-queries';
import type { LeadThread, ThreadEvent, ThreadLead, ThreadMessage } from './thread-types';

export interface ThreadOptions {
  /** A `nextBefore` of an earlier answer: only messages older than it. */
  readonly before?: string | null;
  /** Messages at most, 1 to MAX_THREAD_MESSAGES (the default). */
  readonly limit?: number;
}

/** One row of any source, with its place in the thread and how to show it once its page is known. */
type Entry = ThreadPosition & { readonly show: (events: ReadonlyMap<string, ThreadEvent[]>) => ThreadMessage; readonly emailId: string | null };

/**
 * Every message between the account and one lead, oldest first: the campaign emails sent to it
 * (with their delivery, open, click, bounce, reply, unsubscribe and meeting facts), what came in
 * from it (replies, automatic answers, bounces) and the answers written in the thread. At most the
 * newest `limit` messages (200) are given; `nextBefore` pages back through older ones.
 *
 * Throws NotFoundError('lead') for an id the account does not have (another account's lead is not
 * told apart), and InvalidInputError for a `before` this function did not give.
 */
export async function getLeadThread(sequelize: Sequelize, accountId: string, leadId: string, opts: ThreadOptions = {}): Promise<LeadThread> {
  const before = opts.before === undefined || opts.before === null ? null : decodeCursor(opts.before);
  const limit = Math.min(MAX_THREAD_MESSAGES, Math.max(1, Math.floor(opts.limit ?? MAX_THREAD_MESSAGES)));
  const lead = await readLeadHeader(sequelize, accountId, leadId);
  if (lead === null) throw new NotFoundError('lead');

  // One row more than the page from each source: the newest limit + 1 of all three are among them,
  // and the extra one says whether older messages exist.
  const page: PageRequest = { accountId, leadId, before, limit: limit + 1 };
  const [emails, inbound, answers, refusal] = await Promise.all([
    readCampaignEmails(sequelize, page),
    readInbound(sequelize, page),
    readAnswers(sequelize, page),
    answerRefusal(sequelize, accountId, lead),
  ]);
  const entries: Entry[] = [
    ...emails.map((r) => ({ atMicros: r.at_us, rank: SOURCE_RANK.campaign_email, id: r.id, emailId: r.id, show: (ev: ReadonlyMap<string, ThreadEvent[]>) => toCampaignEmail(r, ev.get(r.id) ?? []) })),
    ...inbound.map((r) => ({ atMicros: r.at_us, rank: SOURCE_RANK.inbound, id: r.id, emailId: null, show: () => toInbound(r) })),
    ...answers.map((r) => ({ atMicros: r.at_us, rank: SOURCE_RANK.answer, id: r.id, emailId: null, show: () => toAnswer(r) })),
  ].sort((a, b) => comparePositions(b, a));

  const hasMore = entries.length > limit;
  const shown = entries.slice(0, limit).reverse();
  const emailIds = shown.flatMap((e) => (e.emailId === null ? [] : [e.emailId]));
  const events = new Map<string, ThreadEvent[]>();
  for (const row of await readEmailEvents(sequelize, accountId, emailIds)) {
    const list = events.get(row.email_id) ?? [];
    list.push(toThreadEvent(row));
    events.set(row.email_id, list);
  }

  const oldest = shown[0];
  return {
    lead: headerOf(lead, refusal),
    messages: shown.map((e) => e.show(events)),
    hasMore,
    nextBefore: hasMore && oldest !== undefined ? encodeCursor(oldest) : null,
  };
}

function headerOf(r: Awaited<ReturnType<typeof readLeadHeader>> & object, refusal: ThreadLead['answer']['reason']): ThreadLead {
  const name = [r.first_name, r.last_name].filter((p): p is string => p !== null && p.trim() !== '').join(' ');
  return {
    id: r.id,
    email: r.email,
    name: name === '' ? null : name,
    company: r.company,
    title: r.title,
    answer: { allowed: refusal === null, reason: refusal },
  };
}
