import createSubscriber, { type Subscriber } from 'pg-listen';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../../log/logger';

/** The channel the outbox trigger notifies when events commit (see the webhooks migration). */
export const OUTBOX_CHANNEL = 'outbox';

/**
 * Wakes the dispatcher when new events commit, through PostgreSQL LISTEN on its own connection
 * (pg-listen reconnects it when it drops). Best effort by design: the dispatcher also polls, so a
 * lost notification or a broken listener costs latency, never an event.
 */
export class OutboxWakeups {
  private readonly subscriber: Subscriber;
  private listeners = new Set<() => void>();

  constructor(sequelize: Sequelize, private readonly log: Logger) {
    const c = sequelize.config;
    this.subscriber = createSubscriber(
      { host: c.host, port: c.port === undefined ? undefined : Number(c.port), user: c.username, password: c.password ?? undefined, database: c.database },
      // The trigger's payload is empty: nothing to parse.
      { parse: (s: string) => s, paranoidChecking: 30_000, retryTimeout: 60_000 },
    );
    this.subscriber.notifications.on(OUTBOX_CHANNEL, () => {
      for (const wake of this.listeners) wake();
    });
    this.subscriber.events.on('error', (err) => this.log.warn({ err }, 'outbox listener failed; the dispatcher polls until its next run'));
  }

  async start(): Promise<void> {
    await this.subscriber.connect();
    await this.subscriber.listenTo(OUTBOX_CHANNEL);
  }

  /** Calls `wake` on every notification until the returned function is called. */
  onWake(wake: () => void): () => void {
    this.listeners.add(wake);
    return () => this.listeners.delete(wake);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.subscriber.close().catch(() => undefined);
  }
}
