import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Sequelize } from 'sequelize';
import type { AuthContext } from '../../auth/authenticate';
import type { Config } from '../../config/config';
import type { PlanName } from '../../config/plans';
import { preparedQuery } from '../../db/prepared-query';
import { GroupedConsumer, type RateDecision } from './grouped-consumer';

/** The table of migration 20261122110000-rate-limits, in the layout rate-limiter-flexible expects. */
export const RATE_LIMIT_TABLE = 'rate_limits';
const WINDOW_SECONDS = 60;

export type Surface = 'a' | 'b';

interface LimiterStatement {
  readonly name?: string;
  readonly text: string;
  readonly values?: unknown[];
}

/**
 * The limiter's store as rate-limiter-flexible's 'pool' client: its statements (the counting
 * upsert, and the periodic delete of expired windows), which it names, run through preparedQuery
 * on Sequelize's pool, like the other statements every request runs. The library's own Sequelize
 * path takes each connection through the connection manager's hooks and has pg describe the
 * result of every upsert again.
 */
function limiterStore(sequelize: Sequelize): { query(statement: LimiterStatement): Promise<{ rows: unknown[] }> } {
  return {
    async query(statement) {
      // Only the library's CREATE TABLE is unnamed, and the table comes from a migration (tableCreated).
      if (statement.name === undefined) throw new Error(`Unnamed rate-limit statement: ${statement.text}`);
      return { rows: await preparedQuery(sequelize, statement.name, statement.text, statement.values ?? []) };
    },
  };
}

/**
 * The request budget of every account, per surface: Surface A by plan (Free 100, Pro 1000 a
 * minute by default), Surface B the same for every plan (100). The two surfaces count apart
 * (keys `a:<account>` and `b:<account>`), so a client of one surface cannot starve the other.
 * Windows are fixed minutes from an account's first request, counted in PostgreSQL so that every
 * API process shares them.
 */
export class AccountRateLimits {
  private readonly surfaceA: Readonly<Record<PlanName, GroupedConsumer>>;
  private readonly surfaceB: GroupedConsumer;

  constructor(sequelize: Sequelize, limits: Config['rateLimits']) {
    const store = limiterStore(sequelize);
    const consumer = (surface: Surface, points: number) =>
      new GroupedConsumer(
        new RateLimiterPostgres({
          storeClient: store,
          storeType: 'pool',
          tableName: RATE_LIMIT_TABLE,
          tableCreated: true, // by the migration: no DDL from request-serving processes
          keyPrefix: surface,
          points,
          duration: WINDOW_SECONDS,
          // Past the limit, refuse from memory until the window ends: no database work for a client that keeps trying.
          inMemoryBlockOnConsumed: points,
        }),
      );
    this.surfaceA = { free: consumer('a', limits.a.free), pro: consumer('a', limits.a.pro) };
    this.surfaceB = consumer('b', limits.b);
  }

  take(surface: Surface, auth: Pick<AuthContext, 'accountId' | 'plan'>): Promise<RateDecision> {
    const consumer = surface === 'a' ? this.surfaceA[auth.plan] : this.surfaceB;
    return consumer.take(auth.accountId);
  }
}
