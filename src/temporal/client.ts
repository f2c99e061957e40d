import { Client, Connection } from '@temporalio/client';

export interface TemporalClientOptions {
  readonly address: string;
  readonly namespace: string;
}

/**
 * One Temporal connection per process, opened on first use. `Connection.lazy` lets the API start
 * (and answer /readyz with 503) while Temporal is still down, instead of failing at boot.
 */
export class TemporalClientProvider {
  private client: Client | undefined;
  private connection: Connection | undefined;
  private probe: Connection | undefined;

  constructor(private readonly opts: TemporalClientOptions) {}

  get(): Client {
    if (!this.client) {
      this.connection = Connection.lazy({ address: this.opts.address });
      this.client = new Client({ connection: this.connection, namespace: this.opts.namespace });
    }
    return this.client;
  }

  /** Resolves when the frontend answers; rejects with the reason otherwise. */
  async ping(timeoutMs: number): Promise<void> {
    // A separate channel without the SDK's retry interceptor: a readiness probe must answer within
    // its deadline, and must not leave retries behind that outlive the connection at shutdown.
    this.probe ??= Connection.lazy({ address: this.opts.address, interceptors: [] });
    const probe = this.probe;
    await probe.withDeadline(Date.now() + timeoutMs, () => probe.workflowService.getSystemInfo({}));
  }

  async close(): Promise<void> {
    await this.probe?.close();
    this.probe = undefined;
    await this.connection?.close();
    this.connection = undefined;
    this.client = undefined;
  }
}
