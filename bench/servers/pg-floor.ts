/**
 * Database floor for GET /v1/me: bare node:http plus a pg.Pool of the service's size, doing the
 * one lookup src/auth/authenticate.ts does per request (same SQL, same bind parameter, same
 * extended-protocol round trip), checking the key hash, and answering the same JSON body.
 * What the real stack costs above this is framework, middleware, ORM and logging.
 *
 * Env: BENCH_DATABASE_URL, BENCH_POOL_MAX; BENCH_FLOOR_DRIVER=sequelize runs the same lookup through
 * sequelize.query on the service's createSequelize (a diagnostic: the ORM's share of the gap);
 * BENCH_FLOOR_PREPARED=1 makes the pg lookup a named prepared statement (parsed and planned once per
 * connection), the floor to compare a service doing the same against.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { QueryTypes } from 'sequelize';
import { AUTH_KEY_QUERY, type KeyRow } from '../../src/auth/authenticate';
import { PLANS } from '../../src/config/plans';
import { createSequelize } from '../../src/db/sequelize';
import { applyServiceTimeouts, listenLocal, runChild } from './child';

// Kept byte-identical to src/auth/authenticate.ts.
const KEY_QUERY = AUTH_KEY_QUERY;
const KEY_PATTERN = /^ok_([A-Za-z0-9]{12})_([A-Za-z0-9]{32})$/;


function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

runChild(async () => {
  const connectionString = process.env.BENCH_DATABASE_URL;
  const max = Number(process.env.BENCH_POOL_MAX);
  if (!connectionString || !Number.isInteger(max) || max < 1) throw new Error('BENCH_DATABASE_URL and BENCH_POOL_MAX are required');
  let lookup: (prefix: string) => Promise<KeyRow | undefined>;
  let close: () => Promise<void>;
  if (process.env.BENCH_FLOOR_DRIVER === 'sequelize') {
    const sequelize = createSequelize({ url: connectionString, poolMax: max });
    lookup = async (prefix) =>
      (await sequelize.query<KeyRow>(KEY_QUERY, { bind: [prefix], type: QueryTypes.SELECT, raw: true }))[0];
    close = () => sequelize.close();
  } else {
    const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 10_000 });
    const name = process.env.BENCH_FLOOR_PREPARED === '1' ? 'bench_key_by_prefix' : undefined;
    lookup = async (prefix) => (await pool.query<KeyRow>({ name, text: KEY_QUERY, values: [prefix] })).rows[0];
    close = () => pool.end();
  }

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const header = req.headers['x-api-key'];
    const key = typeof header === 'string' ? header.trim() : '';
    const m = KEY_PATTERN.exec(key);
    if (!m) return send(res, 401, '{"error":"Invalid API key"}');
    const row = await lookup(m[1] as string);
    const presented = createHash('sha256').update(key).digest();
    const stored = row ? Buffer.from(row.key_hash, 'hex') : Buffer.alloc(0);
    if (!row || presented.length !== stored.length || !timingSafeEqual(presented, stored)) return send(res, 401, '{"error":"Invalid API key"}');
    if (row.revoked) return send(res, 401, '{"error":"API key has been revoked"}');
    const createdAt = row.account_created_at.toISOString();
    send(
      res,
      200,
      JSON.stringify({
        account: { id: row.account_id, name: row.account_name, createdAt },
        organization: { id: row.account_id, name: row.account_name, plan: row.plan, emailLimit: PLANS[row.plan].emailLimit, createdAt },
        apiKey: { id: row.key_id, prefix: m[1] as string },
      }),
    );
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, JSON.stringify({ error: (err as Error).message })));
  });
  applyServiceTimeouts(server);
  await listenLocal(server);
  return { server, close };
});
