import pino, { type Logger } from 'pino';
import type { LogLevel } from '../config/config';

export type { Logger };

/** One JSON logger per process; children carry the role (api, worker, ...) and request ids. */
export function createLogger(level: LogLevel, role: string): Logger {
  return pino({ level, base: { role }, timestamp: pino.stdTimeFunctions.isoTime });
}
