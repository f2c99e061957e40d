/**
 * The Temporal dev server as `npm start` runs it (src/embedded/temporal-dev-server.ts: the CLI's
 * `server start-dev`, SQLite persistence in BENCH_TEMPORAL_DIR, the campaign search attributes,
 * the Web UI), on free ports. This Node process only launches and supervises it: it reports the
 * frontend port over IPC like the HTTP servers (bench/lib/child-server.ts), and stops the server
 * when told to or when the bench goes away (the channel drops). The server is its direct child,
 * so CPU and memory are read from there (bench/lib/process-memory.ts childPids).
 *
 * BENCH_TEMPORAL_REMOVE=1: delete BENCH_TEMPORAL_DIR once the server has stopped (a directory
 * outside the run's own, which the bench's cleanup and watchdog do not know).
 */
import fs from 'node:fs';
import type { ReadyMessage } from '../lib/child-server';
import { startTemporalDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';
import { freePort } from '../../src/net/ports';

function main(): void {
  if (!process.send) {
    process.stderr.write('This is a bench server: it is started by `npm run bench`, with an IPC channel.\n');
    process.exit(2);
  }
  const dataDir = process.env.BENCH_TEMPORAL_DIR;
  if (dataDir === undefined || dataDir === '') {
    process.stderr.write('BENCH_TEMPORAL_DIR must name the dev server\'s data directory\n');
    process.exit(2);
  }
  let server: DevServer | undefined;
  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(0), 20_000).unref();
    await server?.stop().catch(() => undefined);
    if (process.env.BENCH_TEMPORAL_REMOVE === '1') fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => undefined); // the parent decides when this child stops
  process.on('disconnect', () => void shutdown());
  const log = (msg: string): void => void process.stdout.write(`${msg}\n`);
  (async () => {
    const port = await freePort();
    let uiPort = await freePort();
    for (let i = 0; i < 10 && uiPort === port; i++) uiPort = await freePort();
    server = await startTemporalDevServer({ dataDir, port, uiPort, namespace: 'default', log });
    if (closing) await server.stop();
    const msg: ReadyMessage = { type: 'ready', port };
    process.send?.(msg);
  })().catch((err: unknown) => {
    process.stderr.write(`temporal dev server failed to start: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}

main();
