import type { Logger } from '../log/logger';

type Step = { readonly name: string; readonly run: () => Promise<void> };

/**
 * Ordered shutdown on SIGINT/SIGTERM: steps run last-registered first (API stops taking requests,
 * then the worker drains, then the child servers stop). A second signal forces the exit.
 */
export class Shutdown {
  private readonly steps: Step[] = [];
  private started = false;
  private firstSignalAt = 0;

  constructor(private readonly log: Logger) {}

  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  listen(): void {
    const onSignal = (signal: NodeJS.Signals): void => {
      if (this.started) {
        // Ctrl-C reaches npm, tsx and this process at once, and npm/tsx forward it again: a repeat
        // within a moment is the same request. A later one means "stop waiting".
        if (Date.now() - this.firstSignalAt < 2_000) return;
        this.log.warn({ signal }, 'second signal: exiting now');
        process.exit(130);
      }
      this.firstSignalAt = Date.now();
      this.log.info({ signal }, 'shutting down');
      void this.run().then(() => process.exit(0));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }

  async run(): Promise<void> {
    this.started = true;
    for (const step of [...this.steps].reverse()) {
      try {
        await step.run();
        this.log.info({ step: step.name }, 'stopped');
      } catch (err) {
        this.log.error({ err, step: step.name }, 'shutdown step failed');
      }
    }
    this.log.flush();
  }
}
