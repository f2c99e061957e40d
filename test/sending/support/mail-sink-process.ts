/**
 * The local mail sink alone in a process of its own, as the worker runs it, so a test can kill it
 * with SIGKILL: `tsx mail-sink-process.ts <dir>`. Prints `port <n>` once it listens.
 */
import { createLogger } from '../../../src/log/logger';
import { startMailSink } from '../../../src/mail-sink/mail-sink';

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write('usage: mail-sink-process.ts <dir>\n');
  process.exit(2);
}
startMailSink({ port: 0, dir, log: createLogger('silent', 'test') }).then(
  (sink) => process.stdout.write(`port ${sink.port}\n`),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
