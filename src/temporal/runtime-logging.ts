import { Runtime, type LogLevel as SdkLogLevel, type LogMetadata, type Logger as SdkLogger } from '@temporalio/worker';
import type { Logger } from '../log/logger';

const LEVELS: Record<SdkLogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** Sends the Temporal SDK's logs (worker, workflow `log`, core) into our JSON logger. */
class PinoSdkLogger implements SdkLogger {
  constructor(private readonly target: Logger) {}
  private log_(level: SdkLogLevel, message: string, meta?: LogMetadata): void {
    this.target[LEVELS[level]]({ ...(meta ?? {}) }, message);
  }
  log(level: SdkLogLevel, message: string, meta?: LogMetadata): void {
    this.log_(level, message, meta);
  }
  trace(message: string, meta?: LogMetadata): void {
    this.log_('TRACE', message, meta);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.log_('DEBUG', message, meta);
  }
  info(message: string, meta?: LogMetadata): void {
    this.log_('INFO', message, meta);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.log_('WARN', message, meta);
  }
  error(message: string, meta?: LogMetadata): void {
    this.log_('ERROR', message, meta);
  }
}

let installed = false;

/** Installs the SDK runtime once per process, before any worker or native connection exists. */
export function installTemporalRuntime(log: Logger): void {
  if (installed) return;
  installed = true;
  // Core (Rust) logs are forwarded too, so they come out as JSON lines, not as stderr text.
  const level: SdkLogLevel = log.isLevelEnabled('info') ? 'WARN' : 'ERROR';
  Runtime.install({
    logger: new PinoSdkLogger(log.child({ source: 'temporal-sdk' })),
    telemetryOptions: { logging: { filter: { core: level, other: 'ERROR' }, forward: {} } },
  });
}
