import pino, { type Logger } from 'pino';
import type { LogLevel } from '../config/config';

export type { Logger };

/**
 * One JSON logger per process; children carry the role (api, worker, ...) and request ids.
 * Lines are buffered (4 KiB) and written asynchronously: a synchronous write per request line cost
 * a measurable share of API throughput. pino flushes the buffer when the process exits.
 */
export function createLogger(level: LogLevel, role: string, fd: 1 | 2 = 1): Logger {
  const destination = pino.destination({ dest: fd, minLength: 4096, sync: false });
  return pino({ level, base: { role }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
