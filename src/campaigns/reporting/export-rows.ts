import type { Readable } from 'node:stream';
import QueryStream from 'pg-query-stream';
import type { Sequelize } from 'sequelize';
import type { EmailEventType } from '../../db/models/email-event';

/** One fact of a campaign, as a row of its export. */
export interface ExportRow {
  /** ISO 8601 UTC, millisecond precision. */
  readonly occurredAt: string;
  readonly event: EmailEventType;
  readonly emailId: string | null;
  readonly leadEmail: string | null;
  readonly leadName: string | null;
  readonly company: string | null;
  /** Position of the email in the sequence, 1 for the first email. */
  readonly step: number | null;
  readonly subject: string | null;
  /** Without angle brackets. */
  readonly messageId: string | null;
  /** The link's target, for clicks. */
  readonly url: string | null;
  readonly replySentiment: string | null;
  readonly replyCategory: string | null;
  readonly replyPreview: string | null;
  /** The receiving server's words, for bounces. */
  readonly bounceReason: string | null;
  /** The email's variant of its step (A-E); null for emails from before variants, and facts of no email. */
  readonly variant: string | null;
  /** The lead's custom fields ({} when it has none); null for a fact of no lead. */
  readonly leadCustomFields: Readonly<Record<string, string>> | null;
}

// Oldest first; the id breaks ties between facts of the same instant (a send and its delivery).
// Timestamps are formatted by PostgreSQL so both file formats carry the same text.
const SQL = `
SELECT to_char(ev.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
       ev.type AS "event",
       ev.email_id AS "emailId",
       coalesce(l.email, em.to_email) AS "leadEmail",
       nullif(concat_ws(' ', nullif(btrim(l.first_name), ''), nullif(btrim(l.last_name), '')), '') AS "leadName",
       l.company AS "company",
       em.step + 1 AS "step",
       em.subject AS "subject",
       btrim(em.message_id, '<>') AS "messageId",
       CASE WHEN ev.type = 'clicked' THEN ev.data->>'url' END AS "url",
       r.sentiment AS "replySentiment",
       r.category AS "replyCategory",
       r.preview AS "replyPreview",
       CASE WHEN ev.type = 'bounced' THEN coalesce(ev.data->>'diagnostic', ev.data->>'smtp_response') END AS "bounceReason",
       em.variant AS "variant",
       CASE WHEN l.id IS NOT NULL THEN coalesce(l.custom_fields, '{}'::jsonb) END AS "leadCustomFields"
  FROM email_events ev
  LEFT JOIN emails em ON em.id = ev.email_id
  LEFT JOIN leads l ON l.id = coalesce(ev.lead_id, em.lead_id)
  LEFT JOIN replies r ON ev.type = 'replied' AND r.id = ev.data->>'reply_id'
 WHERE ev.campaign_id = $1
 ORDER BY ev.occurred_at, ev.id`;

/** The slice of a pg client we use; Sequelize's postgres connections are pg clients. */
interface PgConnection {
  query<T extends QueryStream>(stream: T): T;
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  once(event: 'end', listener: () => void): unknown;
  removeListener(event: 'end', listener: () => void): unknown;
  _invalid?: boolean;
}

interface ConnectionManager {
  getConnection(options: { type: 'read' | 'write' }): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void> | void;
}

/** Rows fetched from the server per round trip: a few hundred KB at most, whatever the campaign's size. */
const BATCH_ROWS = 500;

/** A connection of Sequelize's pool, held until `release` (once; later calls do nothing). */
interface Borrowed {
  readonly connection: PgConnection;
  /** Gives the connection back; `broken` marks it so the pool drops it. */
  release(broken: boolean): void;
}

async function borrowConnection(sequelize: Sequelize): Promise<Borrowed> {
  const manager = (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager;
  const connection = await manager.getConnection({ type: 'read' });
  let released = false;
  const release = (broken: boolean): void => {
    if (released) return;
    released = true;
    connection.removeListener('end', onEnd);
    if (broken) connection._invalid = true;
    // Sequelize's release is synchronous today; a promise from a later version is settled quietly.
    void Promise.resolve(manager.releaseConnection(connection)).catch(() => undefined);
  };
  // A connection that dies while borrowed is returned when it ends, marked so the pool drops it.
  const onEnd = (): void => release(true);
  connection.once('end', onEnd);
  return { connection, release };
}

/**
 * Every fact of the campaign as an object stream of ExportRow, read through a server-side cursor
 * on a connection of Sequelize's pool: rows arrive as the reader consumes them, so an export of a
 * million facts holds a batch in memory, not the campaign.
 *
 * The connection goes back to the pool when the stream closes: after the last row, on an error,
 * or when the reader destroys it (a client that disconnects mid-download: Koa destroys the body).
 * The stream closes only once its cursor is closed and the server is ready for the next query, so
 * the connection is returned clean. A connection that dies meanwhile never gets that far: it is
 * returned when it ends, marked so the pool drops it.
 */
export async function openExportRows(sequelize: Sequelize, campaignId: string): Promise<Readable> {
  const { connection, release } = await borrowConnection(sequelize);
  // An idle connection submits the query at once: nothing is left queued on it once we release it.
  const rows = connection.query(new QueryStream(SQL, [campaignId], { batchSize: BATCH_ROWS }));
  rows.once('close', () => release(false));
  return rows;
}

/** A statement and its bind values. */
export interface Statement {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/**
 * A query read first and a stream read after it, both from one snapshot: a read-only REPEATABLE
 * READ transaction on one pooled connection, so what the first query says about the rows (an
 * export's column names) holds for every row the stream then brings, whatever commits meanwhile.
 * The stream is read through a server-side cursor as openExportRows reads its own; when it closes
 * (last row, error, or the reader destroying it) the transaction is rolled back (it wrote nothing)
 * and the connection goes back to the pool, dropped if the rollback failed.
 */
export async function openSnapshotRows<R>(sequelize: Sequelize, first: Statement, stream: Statement): Promise<{ first: R[]; rows: Readable }> {
  const { connection, release } = await borrowConnection(sequelize);
  let before: R[];
  try {
    await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    before = (await connection.query<R>(first.sql, [...first.values])).rows;
  } catch (err) {
    // The transaction may still be open: a connection in an unknown state is not given back for reuse.
    release(true);
    throw err;
  }
  const rows = connection.query(new QueryStream(stream.sql, [...stream.values], { batchSize: BATCH_ROWS }));
  rows.once('close', () => {
    connection.query('ROLLBACK').then(
      () => release(false),
      () => release(true),
    );
  });
  return { first: before, rows };
}
