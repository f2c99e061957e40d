import { Sequelize } from 'sequelize';

export interface DatabaseOptions {
  readonly url: string;
  readonly poolMax: number;
}

/** One Sequelize instance (and one pg pool) per process. Queries are not logged: pino logs requests. */
export function createSequelize(opts: DatabaseOptions): Sequelize {
  return new Sequelize(opts.url, {
    dialect: 'postgres',
    logging: false,
    pool: { max: opts.poolMax, min: 0, idle: 10_000, acquire: 30_000 },
    define: { underscored: true },
  });
}
