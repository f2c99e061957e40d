import pg from 'pg';
import type { Sequelize } from 'sequelize';

type TypeParser = (value: string) => unknown;

/** The slice of a pg client we use; Sequelize's postgres connections are pg clients. */
interface PgClient {
  query(submittable: PreparedExecution): PreparedExecution;
  query(config: { text: string; values: unknown[] }, callback: (err: Error | null, result: { rows: unknown[] }) => void): void;
  getTypeParser(oid: number, format: 'text'): TypeParser;
  _invalid?: boolean;
}

/** pg's connection as a Submittable sees it (pg-cursor and pg-query-stream use the same). */
interface PgConnection {
  readonly stream: { cork(): void; uncork(): void };
  readonly parsedStatements: Record<string, string | undefined>;
  readonly submittedNamedStatements: Record<string, string | undefined>;
  parse(msg: { name: string; text: string }): void;
  bind(msg: { portal: string; statement: string; values: unknown[]; binary: boolean }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(msg: { portal: string; rows?: number }): void;
  sendCopyFail(message: string): void;
  sync(): void;
}

/** Sequelize's pool of pg clients (sequelize-pool), under its connection manager. */
interface ClientPool {
  acquire(): Promise<PgClient>;
  release(client: PgClient): void;
}

/** What a RowDescription says of a statement's result, turned into what building a row needs. */
interface RowShape {
  readonly text: string;
  readonly names: readonly string[];
  readonly parsers: readonly TypeParser[];
}

/** Row shapes of the named statements prepared on each connection, by statement name. */
const shapes = new WeakMap<PgClient, Map<string, RowShape>>();

function shapesOf(client: PgClient): Map<string, RowShape> {
  let byName = shapes.get(client);
  if (byName === undefined) {
    byName = new Map();
    shapes.set(client, byName);
  }
  return byName;
}

// pg's own conversion of bind values (dates, arrays, objects, buffers), called as its Query has
// pg-protocol call it (value, index).
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown, index: number): unknown } }).utils.prepareValue;

/**
 * One execution of a named prepared statement, as a pg Submittable (the interface pg-cursor
 * implements). pg's own Query asks PostgreSQL to describe the result on every execution and
 * then parses that description and looks up a type parser for every column, every time: for the
 * 30-odd columns of a campaign's read that was the most expensive JavaScript of GET /campaigns/:id
 * (the benchmark's floor, the same read through a plain pg.Pool, costs 40-50 µs more CPU per request).
 * Here the description is asked for only when the statement is parsed on a connection (or no
 * shape is known yet); the shape is kept per connection and statement, and later executions are
 * Bind, Execute, Sync. Rows come out as pg builds them: one object per row, columns in result
 * order, values through the connection's type parsers (Sequelize's, on its connections).
 *
 * A statement whose result type changed under it (a migration) fails with 0A000 before any row
 * is sent; preparedQuery then runs the text unnamed, which pg describes as usual.
 */
class PreparedExecution {
  private shape: RowShape | undefined;
  private readonly rows: Record<string, unknown>[] = [];
  private rowError: unknown;

  constructor(
    private readonly client: PgClient,
    readonly name: string,
    readonly text: string,
    private readonly values: unknown[],
    /** Named as pg's Query names it: the client wraps it when a query_timeout is configured. */
    public callback: (err: unknown, rows?: Record<string, unknown>[]) => void,
  ) {}

  /** Called by the client when the connection is free; an Error returned is reported instead. */
  submit(connection: PgConnection): Error | null {
    const parsed = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
    if (parsed !== undefined && parsed !== this.text) return new Error(`Prepared statements must be unique - '${this.name}' was used for a different statement`);
    // Converted before anything is sent: a value that cannot be (a circular toPostgres) is this
    // query's error, and the connection is left as it was.
    let values: unknown[];
    try {
      values = this.values.map((value, i) => prepareValue(value, i));
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
    const known = shapesOf(this.client).get(this.name);
    // A statement parsed now may have another result than before (a migration ran): describe it again.
    this.shape = parsed !== undefined && known?.text === this.text ? known : undefined;
    connection.stream.cork();
    try {
      if (parsed === undefined) {
        connection.parse({ name: this.name, text: this.text });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ portal: '', statement: this.name, values, binary: false });
      if (this.shape === undefined) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  handleRowDescription(msg: { fields: readonly { name: string; dataTypeID: number }[] }): void {
    const shape: RowShape = {
      text: this.text,
      names: msg.fields.map((f) => f.name),
      parsers: msg.fields.map((f) => this.client.getTypeParser(f.dataTypeID, 'text')),
    };
    shapesOf(this.client).set(this.name, shape);
    this.shape = shape;
  }

  handleDataRow(msg: { fields: readonly (string | null)[] }): void {
    if (this.rowError !== undefined) return;
    const shape = this.shape;
    if (shape === undefined) {
      this.rowError = new Error(`No row description for prepared statement '${this.name}'`);
      return;
    }
    try {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < msg.fields.length; i++) {
        const raw = msg.fields[i];
        row[shape.names[i] as string] = raw === null || raw === undefined ? null : (shape.parsers[i] as TypeParser)(raw);
      }
      this.rows.push(row);
    } catch (err) {
      this.rowError = err; // reported once PostgreSQL is done with the statement, as pg's Query does
    }
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleError(err: unknown): void {
    // The statement may be what failed (0A000: its result changed): describe it again next time.
    shapesOf(this.client).delete(this.name);
    this.callback(err);
  }

  handleReadyForQuery(): void {
    if (this.rowError !== undefined) this.callback(this.rowError);
    else this.callback(null, this.rows);
  }

  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}
}

function execute<Row>(client: PgClient, name: string, text: string, values: unknown[]): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    client.query(new PreparedExecution(client, name, text, values, (err, rows) => (err ? reject(err) : resolve(rows as Row[]))));
  });
}

// pg's callback interface, not its promise: measured with the campaign read, the promise form had
// the young-generation collector promote the rows of every result to the old generation (left for
// full collections); with a callback, none were.
function executeUnnamed<Row>(client: PgClient, text: string, values: unknown[]): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    client.query({ text, values }, (err, result) => (err ? reject(err) : resolve(result.rows as Row[])));
  });
}

// PostgreSQL's "cached plan must not change result type": a migration changed a table under a
// statement this connection had prepared. The unnamed retry re-plans it.
const CACHED_PLAN_CHANGED = '0A000';

/**
 * Runs a named prepared statement on a connection of Sequelize's own pool (one pool per process,
 * so DATABASE_POOL_MAX still holds). For the few queries on every request's path: PostgreSQL parses
 * and plans it once per connection instead of every time, and Sequelize's per-query machinery is
 * skipped. Measured on the auth lookup: about half the database CPU and 10–20% more requests/s.
 *
 * The connection comes straight from the pool rather than through connectionManager.getConnection,
 * which wraps the same acquire in two awaited hook runs (beforePoolAcquire/afterPoolAcquire; the
 * service registers none) and a version check that only matters before the first connection:
 * three more promises per query, on every request.
 */
export async function preparedQuery<Row>(sequelize: Sequelize, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const pool = (sequelize as unknown as { connectionManager: { pool: ClientPool } }).connectionManager.pool;
  const connection = await pool.acquire();
  try {
    try {
      return await execute<Row>(connection, name, text, values);
    } catch (err) {
      if ((err as { code?: string }).code !== CACHED_PLAN_CHANGED) throw err;
      return await executeUnnamed<Row>(connection, text, values);
    }
  } catch (err) {
    // No SQLSTATE means the connection itself failed: tell the pool not to hand it out again,
    // as Sequelize's own query path does.
    if ((err as { code?: string }).code === undefined) connection._invalid = true;
    throw err;
  } finally {
    pool.release(connection);
  }
}
