import pg from 'pg';
import type { Sequelize } from 'sequelize';

type TypeParser = (value: string) => unknown;

/** The slice of a pg client we use; Sequelize's postgres connections are pg clients. */
interface PgClient {
  query<S extends PreparedExecution | Preparation | BatchExecution>(submittable: S): S;
  query(config: { text: string; values: unknown[] }, callback: (err: Error | null, result: { rows: unknown[] }) => void): void;
  getTypeParser(oid: number, format: 'text'): TypeParser;
  readonly connection: PgConnection;
  _invalid?: boolean;
}

/** pg's connection as a Submittable sees it (pg-cursor and pg-query-stream use the same). */
interface PgConnection {
  readonly stream: { cork(): void; uncork(): void };
  readonly parsedStatements: Record<string, string | undefined>;
  readonly submittedNamedStatements: Record<string, string | undefined>;
  parse(msg: { name: string; text: string }): void;
  close(msg: { type: 'S'; name: string }): void;
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

/**
 * The Parse of one named statement on its own (then Sync). pg records the statement as parsed on
 * the connection when PostgreSQL confirms it, as it does for its own named queries. `replace`
 * first closes a statement of that name (one whose cached plan can no longer be used).
 */
class Preparation {
  constructor(
    readonly name: string,
    readonly text: string,
    private readonly replace: boolean,
    public callback: (err: unknown) => void,
  ) {}

  submit(connection: PgConnection): Error | null {
    connection.stream.cork();
    try {
      if (this.replace) connection.close({ type: 'S', name: this.name });
      connection.parse({ name: this.name, text: this.text });
      connection.submittedNamedStatements[this.name] = this.text;
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  handleError(err: unknown): void {
    this.callback(err);
  }

  handleReadyForQuery(): void {
    this.callback(null);
  }

  handleRowDescription(): void {}

  handleDataRow(): void {}

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}
}

/** One execution of a named statement in a batch (see preparedBatch). */
export interface BatchStep {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

export interface StepResult<Row = Record<string, unknown>> {
  readonly rows: Row[];
  /** What the command tag counts: rows inserted, updated or deleted, or returned by a SELECT. */
  readonly rowCount: number;
}

/**
 * A part of a batch: its steps, and how to read what they returned (the results of exactly its
 * own steps, in order). Parts of different writers can share one batch (see runBatchParts).
 */
export interface BatchPart<R> {
  readonly steps: readonly BatchStep[];
  read(results: readonly StepResult[]): R;
}

/** A statement that returns no rows: described once (NoData), never again. */
const NO_ROWS: Omit<RowShape, 'text'> = { names: [], parsers: [] };

/**
 * Several executions of named statements, already parsed on the connection, sent at once: Bind
 * (Describe when the result's shape is not known yet) and Execute for each, then ONE Sync. The
 * extended protocol runs everything before a Sync in one implicit transaction: all steps commit
 * together at the Sync, or the first error rolls back all of them (PostgreSQL skips the rest).
 * One round trip and one commit for the lot. Rows are built as PreparedExecution builds them.
 */
class BatchExecution {
  private readonly results: Array<{ rows: Record<string, unknown>[]; rowCount: number }>;
  private readonly shapes: Array<RowShape | undefined>;
  private readonly described: boolean[];
  private step = 0;
  private rowError: unknown;

  constructor(
    private readonly client: PgClient,
    private readonly steps: readonly BatchStep[],
    public callback: (err: unknown, results?: StepResult[]) => void,
  ) {
    this.results = steps.map(() => ({ rows: [], rowCount: 0 }));
    this.shapes = steps.map(() => undefined);
    this.described = steps.map(() => false);
  }

  submit(connection: PgConnection): Error | null {
    const known = shapesOf(this.client);
    let values: unknown[][];
    try {
      values = this.steps.map((s) => s.values.map((value, i) => prepareValue(value, i)));
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
    for (const s of this.steps) {
      if (connection.parsedStatements[s.name] !== s.text) return new Error(`statement '${s.name}' is not prepared on this connection`);
    }
    connection.stream.cork();
    try {
      this.steps.forEach((s, i) => {
        const shape = known.get(s.name);
        this.shapes[i] = shape?.text === s.text ? shape : undefined;
        connection.bind({ portal: '', statement: s.name, values: values[i] as unknown[], binary: false });
        if (this.shapes[i] === undefined) {
          this.described[i] = true;
          connection.describe({ type: 'P', name: '' });
        }
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  handleRowDescription(msg: { fields: readonly { name: string; dataTypeID: number }[] }): void {
    const s = this.steps[this.step];
    if (s === undefined) return;
    const shape: RowShape = { text: s.text, names: msg.fields.map((f) => f.name), parsers: msg.fields.map((f) => this.client.getTypeParser(f.dataTypeID, 'text')) };
    shapesOf(this.client).set(s.name, shape);
    this.shapes[this.step] = shape;
  }

  handleDataRow(msg: { fields: readonly (string | null)[] }): void {
    if (this.rowError !== undefined) return;
    const shape = this.shapes[this.step];
    const result = this.results[this.step];
    if (shape === undefined || result === undefined) {
      this.rowError = new Error(`No row description for prepared statement '${this.steps[this.step]?.name ?? '?'}'`);
      return;
    }
    try {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < msg.fields.length; i++) {
        const raw = msg.fields[i];
        row[shape.names[i] as string] = raw === null || raw === undefined ? null : (shape.parsers[i] as TypeParser)(raw);
      }
      result.rows.push(row);
    } catch (err) {
      this.rowError = err;
    }
  }

  handleCommandComplete(msg: { text?: string }): void {
    const s = this.steps[this.step];
    const result = this.results[this.step];
    if (s !== undefined && result !== undefined) {
      // "UPDATE 3", "INSERT 0 3", "SELECT 3": the count is the last word.
      const count = Number((msg.text ?? '').slice((msg.text ?? '').lastIndexOf(' ') + 1));
      result.rowCount = Number.isInteger(count) ? count : 0;
      if (this.described[this.step] && this.shapes[this.step] === undefined) shapesOf(this.client).set(s.name, { text: s.text, ...NO_ROWS });
    }
    this.step += 1;
  }

  handleEmptyQuery(): void {
    this.step += 1;
  }

  handlePortalSuspended(): void {}

  handleError(err: unknown): void {
    for (const s of this.steps) shapesOf(this.client).delete(s.name);
    this.callback(err);
  }

  handleReadyForQuery(): void {
    if (this.rowError !== undefined) this.callback(this.rowError);
    else this.callback(null, this.results);
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

function prepare(client: PgClient, name: string, text: string, replace: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    if (replace) delete client.connection.parsedStatements[name];
    client.query(new Preparation(name, text, replace, (err) => (err ? reject(err) : resolve())));
  });
}

function executeBatch(client: PgClient, steps: readonly BatchStep[]): Promise<StepResult[]> {
  return new Promise((resolve, reject) => {
    client.query(new BatchExecution(client, steps, (err, results) => (err ? reject(err) : resolve(results as StepResult[]))));
  });
}

/** Parses, one at a time, the statements of `steps` this connection has not parsed yet (all of them again with `replace`). */
async function prepareSteps(client: PgClient, steps: readonly BatchStep[], replace: boolean): Promise<void> {
  const texts = new Map(steps.map((s) => [s.name, s.text]));
  for (const [name, text] of texts) {
    if (replace || client.connection.parsedStatements[name] !== text) await prepare(client, name, text, replace);
  }
}

/**
 * Runs `steps` (executions of named prepared statements, several of one statement allowed) in ONE
 * transaction and one round trip, on a connection of Sequelize's pool: what several writes that
 * must commit together cost as one statement would, without folding them into one statement. Each
 * statement is parsed and planned once per connection, like preparedQuery's. All steps commit
 * together, or none does: the first failing step's error is thrown.
 */
export async function preparedBatch(sequelize: Sequelize, steps: readonly BatchStep[]): Promise<StepResult[]> {
  if (steps.length === 0) return [];
  const pool = (sequelize as unknown as { connectionManager: { pool: ClientPool } }).connectionManager.pool;
  const connection = await pool.acquire();
  try {
    await prepareSteps(connection, steps, false);
    try {
      return await executeBatch(connection, steps);
    } catch (err) {
      if ((err as { code?: string }).code !== CACHED_PLAN_CHANGED) throw err;
      // Nothing was written (the batch rolled back): parse the statements again and run it once more.
      await prepareSteps(connection, steps, true);
      return await executeBatch(connection, steps);
    }
  } catch (err) {
    if ((err as { code?: string }).code === undefined) connection._invalid = true;
    throw err;
  } finally {
    pool.release(connection);
  }
}

/** Runs the steps of every part in one batch (see preparedBatch) and gives each part its own results. */
export async function runBatchParts<R>(sequelize: Sequelize, parts: ReadonlyArray<BatchPart<R>>): Promise<R[]> {
  const results = await preparedBatch(sequelize, parts.flatMap((p) => p.steps));
  let at = 0;
  return parts.map((p) => {
    const own = results.slice(at, at + p.steps.length);
    at += p.steps.length;
    return p.read(own);
  });
}
