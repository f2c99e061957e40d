import { InvalidArgumentError, type Command } from 'commander';
import { QueryTypes, type Sequelize } from 'sequelize';
import { AccountNotFound } from '../../accounts/account-service';
import { egressFor } from '../../egress';
import {
  DELIVERY_STATUSES,
  deliveryDetail,
  listDeliveries,
  type DeliveryDetail,
  type DeliveryOrder,
  type DeliveryStatus,
  type DeliverySummary,
} from '../../webhooks/delivery-repository';
import { LOGGED_EVENT_KINDS } from '../../webhooks/event-kinds';
import { resendDelivery, ResendRefused } from '../../webhooks/resend';
import { webhookSecretProblem } from '../../webhooks/secrets';
import { rotateWebhookSecret, setWebhookUrl, webhookSettings, type WebhookSettings } from '../../webhooks/webhook-settings-repository';
import { sendTestEvent, TestEventRefused, type TestEventResult } from '../../webhooks/test-event';
import { normalizeWebhookUrl, webhookUrlProblem } from '../../webhooks/webhook-url';
import { print, withDatabase } from '../support';

/** Input the command cannot act on, found once the configuration or the database is read: exit 2. */
class BadInput extends Error {}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

const DELIVERY_ORDERS: readonly DeliveryOrder[] = ['newest', 'oldest'];

/** What happens next to a delivery nobody is attempting, in words for the operator; null when it is under way or done. */
const waitingNote = (d: DeliverySummary): string | null =>
  d.resendsOnRecovery ? 'waits for the URL to answer 2xx: then sent again, oldest event first' : null;

// snake_case like the CLI's other output.
const renderSettings = (s: WebhookSettings) => ({
  account_id: s.accountId,
  url: s.url,
  secret: s.secret,
  previous_secret: s.previousSecret,
  previous_secret_expires_at: iso(s.previousSecretExpiresAt),
  secret_rotated_at: iso(s.secretRotatedAt),
  updated_at: iso(s.updatedAt),
});

const renderDelivery = (d: DeliverySummary) => ({
  id: d.id,
  account_id: d.accountId,
  event_id: d.eventId,
  event: d.event,
  campaign_id: d.campaignId,
  url: d.url,
  status: d.status,
  cycle: d.cycle,
  attempt_count: d.attemptCount,
  next_attempt_at: iso(d.nextAttemptAt),
  last_attempt_at: iso(d.lastAttemptAt),
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  delivered_at: iso(d.deliveredAt),
  failed_at: iso(d.failedAt),
  created_at: iso(d.createdAt),
  updated_at: iso(d.updatedAt),
  resends_on_recovery: d.resendsOnRecovery,
  note: waitingNote(d),
});

const renderDetail = (d: DeliveryDetail) => ({
  ...renderDelivery(d),
  attempts: d.attempts.map((a) => ({
    number: a.number,
    cycle: a.cycle,
    attempted_at: iso(a.attemptedAt),
    duration_ms: a.durationMs,
    status_code: a.statusCode,
    error: a.error,
    succeeded: a.succeeded,
  })),
  payload: d.payload,
});

const renderTest = (r: TestEventResult) => ({
  delivery_id: r.deliveryId,
  event_id: r.eventId,
  url: r.url,
  delivered: r.delivered,
  status_code: r.statusCode,
  duration_ms: r.durationMs,
  error: r.error,
});

function oneOf<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
    return value as T;
  };
}

function positiveInt(max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > max) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}`);
    return n;
  };
}

/**
 * A URL to filter by, normalised as deliveries store it, so any spelling of one destination finds
 * its deliveries (as GET /v1/webhook-deliveries?url= does). Any absolute URL: the log may hold URLs
 * the current policy would refuse to save.
 */
function parseFilterUrl(value: string): string {
  try {
    return normalizeWebhookUrl(value);
  } catch {
    throw new InvalidArgumentError('expected an absolute URL, e.g. https://example.com/hooks');
  }
}

function parseSecret(value: string): string {
  const problem = webhookSecretProblem(value);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return value;
}

async function requireAccount(sequelize: Sequelize, accountId: string): Promise<void> {
  const rows = await sequelize.query('SELECT 1 FROM accounts WHERE id = $1', { bind: [accountId], type: QueryTypes.SELECT });
  if (rows.length === 0) throw new AccountNotFound(`No account ${accountId}`);
}

/**
 * Runs a command's work and prints its result; input found bad on the way (a URL the
 * configuration does not allow, an unknown delivery, a delivery still in flight) exits 2 with
 * the message, as commander does for a bad flag.
 */
async function run<T>(cmd: Command, work: () => Promise<T>): Promise<void> {
  let result: T;
  try {
    result = await work();
  } catch (err) {
    if (err instanceof BadInput || err instanceof ResendRefused || err instanceof TestEventRefused) cmd.error(`error: ${err.message}`, { exitCode: 2 });
    throw err;
  }
  print(result);
}

/** `outreach webhooks ...`: an account's webhook settings, its delivery log, resends and test events. */
export function registerWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description("An account's webhooks: global URL, signing secret, delivery log, resend, test event");
  // Every refusal of the input (a missing or unknown flag, a bad value) exits 2, as the lookups
  // below do; commander's own default is 1. Set before the subcommands, which inherit it.
  webhooks.exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

  const show = webhooks
    .command('show')
    .description('Show the webhook settings: global URL and signing secret (in full, as receivers need it), and during a rotation the previous one')
    .requiredOption('--account <id>', 'account id')
    .action((opts: { account: string }) =>
      run(show, () =>
        withDatabase(async (db) => {
          await requireAccount(db.sequelize, opts.account);
          return renderSettings(await webhookSettings(db.sequelize, opts.account));
        }),
      ),
    );

  const set = webhooks
    .command('set')
    .description('Set (--url) or clear (--clear-url) the global webhook URL: https only (plain http to loopback under ALLOW_LOOPBACK_EGRESS)')
    .requiredOption('--account <id>', 'account id')
    .option('--url <url>', 'the global URL: receives the events of every campaign of the account')
    .option('--clear-url', 'remove the global URL')
    .action((opts: { account: string; url?: string; clearUrl?: boolean }) => {
      if ((opts.url === undefined) === (opts.clearUrl !== true)) set.error('error: give exactly one of --url <url> and --clear-url', { exitCode: 2 });
      return run(set, () =>
        withDatabase(async (db, config) => {
          let url: string | null = null;
          if (opts.url !== undefined) {
            const problem = webhookUrlProblem(opts.url, config.allowLoopbackEgress);
            if (problem !== null) throw new BadInput(`--url ${problem}`);
            url = normalizeWebhookUrl(opts.url);
          }
          await requireAccount(db.sequelize, opts.account);
          return renderSettings(await setWebhookUrl(db.sequelize, opts.account, url));
        }),
      );
    });

  const rotate = webhooks
    .command('rotate-secret')
    .description('Replace the signing secret (generated, or --secret); the previous one keeps signing for 24 hours')
    .requiredOption('--account <id>', 'account id')
    .option('--secret <whsec_...>', 'your own new secret: whsec_ and the base64 of 24 to 64 random bytes', parseSecret)
    .action((opts: { account: string; secret?: string }) =>
      run(rotate, () =>
        withDatabase(async (db) => {
          await requireAccount(db.sequelize, opts.account);
          return renderSettings(await rotateWebhookSecret(db.sequelize, opts.account, opts.secret));
        }),
      ),
    );

  const deliveries = webhooks
    .command('deliveries')
    .description(
      "List an account's webhook deliveries, newest first (or --order oldest: oldest event first). A failed delivery waits for its URL: " +
        'when the URL next answers 2xx it is sent again, oldest event first (--status failed --url URL --order oldest lists them in that order)',
    )
    .requiredOption('--account <id>', 'account id')
    .option('--event <kind>', `only this event: ${LOGGED_EVENT_KINDS.join(', ')}`, oneOf(LOGGED_EVENT_KINDS))
    .option('--campaign <id>', 'only deliveries of this campaign')
    .option('--status <status>', `only this status: ${DELIVERY_STATUSES.join(', ')}`, oneOf(DELIVERY_STATUSES))
    .option('--url <url>', 'only deliveries to this URL (absolute; compared normalised)', parseFilterUrl)
    .option('--order <order>', `${DELIVERY_ORDERS.join(' or ')}: newest delivery first, or oldest event first`, oneOf(DELIVERY_ORDERS), 'newest')
    .option('--page <n>', 'page, from 1', positiveInt(1_000_000), 1)
    .option('--per-page <n>', 'deliveries per page, at most 100', positiveInt(100), 20)
    .action(
      (opts: { account: string; event?: string; campaign?: string; status?: DeliveryStatus; url?: string; order: DeliveryOrder; page: number; perPage: number }) =>
        run(deliveries, () =>
          withDatabase(async (db) => {
            await requireAccount(db.sequelize, opts.account);
            const filter = { event: opts.event, campaignId: opts.campaign, status: opts.status, url: opts.url };
            const result = await listDeliveries(db.sequelize, opts.account, filter, opts.page, opts.perPage, opts.order);
            return { deliveries: result.deliveries.map(renderDelivery), order: opts.order, page: opts.page, per_page: opts.perPage, total: result.total };
          }),
        ),
    );

  const delivery = webhooks
    .command('delivery')
    .description('Show one delivery with every attempt and the payload it posts')
    .argument('<delivery_id>', 'id of the delivery (whd_…)')
    .action((deliveryId: string) =>
      run(delivery, () =>
        withDatabase(async (db) => {
          const found = await deliveryDetail(db.sequelize, deliveryId, null);
          if (found === null) throw new BadInput(`No webhook delivery ${deliveryId}`);
          return renderDetail(found);
        }),
      ),
    );

  const resend = webhooks
    .command('resend')
    .description('Send a delivered or failed delivery again (same event id and body); a running service attempts it within moments')
    .argument('<delivery_id>', 'id of the delivery (whd_…)')
    .action((deliveryId: string) => run(resend, () => withDatabase(async (db) => renderDelivery(await resendDelivery(db.sequelize, deliveryId, null)))));

  const test = webhooks
    .command('test')
    .description('Send a test event now (to --url, else the global URL), once, and print how the endpoint answered')
    .requiredOption('--account <id>', 'account id')
    .option('--url <url>', 'where to send it; default: the global URL')
    .action((opts: { account: string; url?: string }) =>
      run(test, () =>
        withDatabase(async (db, config) => {
          await requireAccount(db.sequelize, opts.account);
          const egress = egressFor(config);
          try {
            return renderTest(await sendTestEvent({ sequelize: db.sequelize, egress, allowLoopback: config.allowLoopbackEgress }, opts.account, opts.url));
          } finally {
            // A one-shot process: its idle connections must not keep it alive.
            await egress.close();
          }
        }),
      ),
    );
}
