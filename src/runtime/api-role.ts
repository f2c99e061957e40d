import { buildApp } from '../api/app';
import { LeadFactSignals } from '../campaigns/control/lead-fact-signals';
import type { Config } from '../config/config';
import { startInboundListener } from '../inbound/inbound-listener';
import type { Logger } from '../log/logger';
import { TemporalClientProvider } from '../temporal/client';
import { startTracking, trackingJournalDir, type Tracking } from '../tracking/tracking';
import type { Database } from './database';
import { listen, type RunningHttpServer } from './http-server';

/**
 * The API role: Koa on PORT, a lazy Temporal client, the shared database, the tracking recorder.
 * Kept apart from the worker role so an API-only process never loads the worker SDK.
 * `http.close()` also drains the tracking recorder, after the last request: the entry points'
 * shutdown order (HTTP, then the database) then needs no step of its own for it. The inbound SMTP
 * listener (replies, on INBOUND_SMTP_PORT) is part of the role the same way: started after HTTP,
 * stopped first, so no message is taken once the database is about to close. Replies,
 * unsubscribes, bookings and bounces that end a lead's sequence signal the campaign's workflow
 * (LeadFactSignals); `http.close()` waits for the signals still on their way.
 */
export async function startApiRole(
  config: Config,
  log: Logger,
  db: Database,
  temporalAddress: string,
): Promise<{ http: RunningHttpServer; temporal: TemporalClientProvider; tracking: Tracking }> {
  const temporal = new TemporalClientProvider({ address: temporalAddress, namespace: config.temporalNamespace });
  const trackingLog = log.child({ component: 'tracking' });
  const tracking = await startTracking({ sequelize: db.sequelize, config, log: trackingLog, journalDir: trackingJournalDir(config, trackingLog) });
  const leadFacts = new LeadFactSignals(temporal, log.child({ component: 'lead-facts' }));
  const { app } = buildApp({ config, sequelize: db.sequelize, log: log.child({ component: 'http' }), temporal, tracking, leadFacts });
  const server = await listen(app, config.host, config.port).catch(async (err: unknown) => {
    await tracking.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${config.port} (PORT) is in use: another program listens there. Set PORT to run the service on another port.`);
    }
    throw err;
  });
  const inboundSmtp = await startInboundListener(config, db.sequelize, log, leadFacts).catch(async (err: unknown) => {
    await server.close();
    await tracking.close();
    throw err;
  });
  const http: RunningHttpServer = {
    ...server,
    close: async (graceMs) => {
      await inboundSmtp.close();
      await server.close(graceMs);
      await tracking.close();
      await leadFacts.idle();
    },
  };
  return { http, temporal, tracking };
}
