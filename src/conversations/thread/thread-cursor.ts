import { InvalidInputError } from '../../errors/domain-errors';

/**
 * Where a message sits in the thread: its time in microseconds (PostgreSQL's precision; a
 * millisecond ISO string would put two messages of one millisecond on the wrong side of a cursor),
 * then its source's rank, then its id. Every message has a distinct position, so the order is total
 * and a page never repeats or skips a message.
 */
export interface ThreadPosition {
  /** Microseconds since the epoch, as a decimal string (beyond Number's exact range). */
  readonly atMicros: string;
  readonly rank: number;
  readonly id: string;
}

/** Sources ordered at the same instant: our email, then our answer, then what came in. */
export const SOURCE_RANK = { campaign_email: 0, answer: 1, inbound: 2 } as const;

export function comparePositions(a: ThreadPosition, b: ThreadPosition): number {
  const at = BigInt(a.atMicros) - BigInt(b.atMicros);
  if (at !== 0n) return at < 0n ? -1 : 1;
  if (a.rank !== b.rank) return a.rank - b.rank;
  // Code-unit order, as the SQL compares ids (COLLATE "C").
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The opaque `before` cursor of a position. */
export function encodeCursor(p: ThreadPosition): string {
  return Buffer.from(`${p.atMicros}.${p.rank}.${p.id}`, 'utf8').toString('base64url');
}

/** A cursor this endpoint gave back as a position; anything else is the caller's error, naming the field. */
export function decodeCursor(cursor: string): ThreadPosition {
  const m = /^(\d{1,20})\.([0-2])\.([A-Za-z0-9_-]{1,100})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (m === null) throw new InvalidInputError('before is not a cursor this endpoint gave (use the nextBefore of an earlier answer)');
  return { atMicros: m[1]!, rank: Number(m[2]), id: m[3]! };
}
