/**
 * The service's local mail sink (src/mail-sink) alone in its own process, as the worker runs it:
 * .eml files in BENCH_SINK_DIR (bounded to 1000), one pino line per message to stdout. Started by
 * the smtp-send scenario; reports its port over IPC like the HTTP servers (bench/lib/child-server.ts).
 */
import type { ReadyMessage } from '../lib/child-server';
import { createLogger } from '../../src/log/logger';
import { startMailSink, type RunningMailSink } from '../../src/mail-sink/mail-sink';

function main(): void {
  if (!process.send) {
    process.stderr.write('This is a bench server: it is started by `npm run bench`, with an IPC channel.\n');
    process.exit(2);
  }
  const log = createLogger('info', 'mail-sink');
  let sink: RunningMailSink | undefined;
  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(0), 5_000).unref();
    await sink?.close().catch(() => undefined);
    log.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => undefined); // the parent decides when this child stops
  process.on('disconnect', () => void shutdown());
  startMailSink({ port: 0, dir: process.env.BENCH_SINK_DIR ?? null, log }).then(
    (s) => {
      sink = s;
      const msg: ReadyMessage = { type: 'ready', port: s.port };
      process.send?.(msg);
    },
    (err: unknown) => {
      process.stderr.write(`mail sink failed to start: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}

main();
