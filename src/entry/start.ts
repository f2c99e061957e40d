/**
 * `npm start`: the whole service in one process tree on its embedded default — PostgreSQL and the
 * Temporal dev server as child processes (unless DATABASE_URL / TEMPORAL_ADDRESS point elsewhere),
 * the worker and the API in this process.
 */
import { startTemporalDevServer } from '../embedded/temporal-dev-server';
import { boot, fatal } from '../runtime/boot';
import { openDatabase } from '../runtime/database';
import { InstanceLock } from '../runtime/instance-lock';
import { startApiRole } from '../runtime/api-role';
import { startWorkerRole } from '../runtime/worker-role';
import { Shutdown } from '../runtime/shutdown';

async function main(): Promise<void> {
  const started = Date.now();
  const { config, log } = boot('service');
  const shutdown = new Shutdown(log);
  shutdown.listen();
  try {
    // After a crash: stops what the earlier run left running; see docs/reliability-restart.md.
    const lock = new InstanceLock(config.dataDir, (msg) => log.warn(msg));
    await lock.acquire();
    shutdown.add('instance lock', () => lock.release());

    const db = await openDatabase(config, log);
    await lock.recordChild('postgres', db.embeddedPid);
    shutdown.add('database', () => db.close());

    let temporalAddress = config.temporalAddress;
    let temporalUi = config.temporalUiUrl;
    if (temporalAddress === undefined) {
      const dev = await startTemporalDevServer({
        dataDir: config.dataDir,
        port: config.temporalDevPort,
        uiPort: config.temporalUiPort,
        namespace: config.temporalNamespace,
        log: (msg) => log.info(msg),
      });
      await lock.recordChild('temporal', dev.pid);
      shutdown.add('temporal dev server', () => dev.stop());
      temporalAddress = dev.address;
      temporalUi = dev.uiUrl;
    }

    const worker = await startWorkerRole(config, log.child({ component: 'worker' }), db, temporalAddress);
    shutdown.add('worker', () => worker.shutdown());
    worker.done.catch((err: unknown) => {
      log.error({ err }, 'worker stopped unexpectedly');
      process.kill(process.pid, 'SIGTERM');
    });

    const api = await startApiRole(config, log, db, temporalAddress);
    shutdown.add('temporal client', () => api.temporal.close());
    shutdown.add('http api', () => api.http.close());

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log.info({ api: config.publicBaseUrl, temporalUi, seconds }, 'service ready');
    process.stderr.write(
      [
        '',
        `  Campaign Outreach is ready (${seconds} s)`,
        `  API:              ${config.publicBaseUrl}   (reference: ${config.publicBaseUrl}/docs)`,
        `  Dashboard:        ${config.publicBaseUrl}/dashboard`,
        `  Temporal Web UI:  ${temporalUi ?? '(external Temporal: set TEMPORAL_UI_URL)'}`,
        '',
        '  Create an account: npx outreach accounts create --name "Acme" --plan free',
        '',
      ].join('\n') + '\n',
    );
  } catch (err) {
    await shutdown.run();
    fatal(log, err);
  }
}

void main();
