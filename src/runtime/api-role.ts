import { buildApp } from '../api/app';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import { TemporalClientProvider } from '../temporal/client';
import type { Database } from './database';
import { listen, type RunningHttpServer } from './http-server';

/**
 * The API role: Koa on PORT, a lazy Temporal client, the shared database. Kept apart from the
 * worker role so an API-only process never loads the worker SDK.
 */
export async function startApiRole(config: Config, log: Logger, db: Database, temporalAddress: string): Promise<{ http: RunningHttpServer; temporal: TemporalClientProvider }> {
  const temporal = new TemporalClientProvider({ address: temporalAddress, namespace: config.temporalNamespace });
  const { app } = buildApp({ config, sequelize: db.sequelize, log: log.child({ component: 'http' }), temporal });
  const http = await listen(app, config.host, config.port);
  return { http, temporal };
}
