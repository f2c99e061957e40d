import type { Sequelize } from 'sequelize';
import { runBatchParts, type BatchPart } from '../db/prepared-query';
import { dataSentPart, sendStatesPart, type ClaimedSendState, type DataSent, type StateRequest } from './email-repository';
import { GroupCommit } from './group-commit';
import { acceptedPart, type AcceptedEmail } from './send-results';

type Write =
  | { readonly kind: 'state'; readonly request: StateRequest }
  | { readonly kind: 'dataSent'; readonly mark: DataSent }
  | { readonly kind: 'accepted'; readonly email: AcceptedEmail };

type WriteResult = ClaimedSendState | null | boolean | undefined;

/** The writes of one batch, by kind, in one transaction; each write's result in the order given. */
async function runWrites(sequelize: Sequelize, writes: readonly Write[]): Promise<WriteResult[]> {
  const states = writes.flatMap((w) => (w.kind === 'state' ? [w.request] : []));
  const marks = writes.flatMap((w) => (w.kind === 'dataSent' ? [w.mark] : []));
  const accepted = writes.flatMap((w) => (w.kind === 'accepted' ? [w.email] : []));
  const parts: Array<BatchPart<readonly WriteResult[]>> = [];
  // The reservations first: a claim that has to wait for another transaction's insert of the same
  // email then waits before this transaction has locked any row, so two batches never wait for
  // each other.
  if (states.length > 0) parts.push(sendStatesPart(states));
  if (marks.length > 0) parts.push(dataSentPart(marks));
  if (accepted.length > 0) parts.push(acceptedPart(accepted));
  const results = await runBatchParts(sequelize, parts);
  const byKind: Record<Write['kind'], readonly WriteResult[]> = {
    state: states.length > 0 ? (results.shift() ?? []) : [],
    dataSent: marks.length > 0 ? (results.shift() ?? []) : [],
    accepted: accepted.length > 0 ? (results.shift() ?? []) : [],
  };
  const next = { state: 0, dataSent: 0, accepted: 0 };
  return writes.map((w) => byKind[w.kind][next[w.kind]++]);
}

/**
 * The three writes of each email on the send path, durable before the send goes on: its
 * reservation (before a byte goes to SMTP), its end of data (before the terminating dot) and the
 * server's acceptance (before send() returns).
 *
 * They share ONE group commit (group-commit.ts): a batch carries whatever writes of any kind are
 * waiting, in one transaction and one round trip (runBatchParts), so the sends of this process
 * pay about one commit, one WAL flush and one round trip per email instead of three. The end of
 * data is urgent: it holds one of the pool's few SMTP connections idle until it has committed, so
 * it never waits for a free slot (it has two of its own besides the one the other writes use) and
 * it takes the other waiting writes along. Reservations and acceptances, which hold no
 * connection, wait for that slot or for an end of data to ride with, so they rarely cost a commit
 * of their own.
 *
 * Measured with `npm run bench -- smtp-send` (bench/README.md): with a group commit of each kind,
 * 1.6 transactions and 0.8-0.9 ms of PostgreSQL CPU per email; with this, 1.0-1.15 and 0.65-0.75.
 */
export class SendWrites {
  private readonly commits: GroupCommit<Write, WriteResult>;

  constructor(sequelize: Sequelize) {
    this.commits = new GroupCommit((writes) => runWrites(sequelize, writes), {
      maxBatch: 64,
      maxInFlight: 1,
      urgent: (w) => w.kind === 'dataSent',
      urgentInFlight: 2,
    });
  }

  /** Reads the send's state and, with a claim, reserves its row (see sendStatesPart). */
  async reserve(request: StateRequest): Promise<ClaimedSendState | null> {
    return (await this.commits.submit({ kind: 'state', request })) as ClaimedSendState | null;
  }

  /** Records the end of data; false when the attempt no longer owns its row (see dataSentPart). */
  async markDataSent(mark: DataSent): Promise<boolean> {
    return (await this.commits.submit({ kind: 'dataSent', mark })) as boolean;
  }

  /** Records an accepted email (see recordAcceptedBatch). */
  async recordAccepted(email: AcceptedEmail): Promise<void> {
    await this.commits.submit({ kind: 'accepted', email });
  }
}
