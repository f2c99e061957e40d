import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { serviceSignature } from '../../src/webhooks/signing';
import { createAccount } from '../support/api';
import { cliEnv, runOutreach, type CliRun } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { WebhookReceiver } from '../support/webhook-receiver';

const OWN_SECRET = `whsec_${Buffer.alloc(48, 3).toString('base64')}`;

/**
 * `outreach webhooks …` as an operator runs it: the CLI in a child process on a test database
 * through DATABASE_URL, started through bin/outreach.js as the README says.
 */
describe('outreach webhooks (CLI)', function () {
  // Each command is a fresh Node process compiling the CLI through tsx: seconds each on a busy machine.
  this.timeout(240_000);
  let db: TestDatabase;
  let hooks: WebhookReceiver;

  before(async () => {
    db = await createTestDatabase();
    // The first request is answered 200, every later one 500.
    hooks = await WebhookReceiver.start((n) => (n === 0 ? 200 : 500));
  });
  after(async () => {
    await hooks?.close();
    await db?.drop();
  });

  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
    runOutreach(['webhooks', ...args], cliEnv(db.url, { ALLOW_LOOPBACK_EGRESS: 'true', ...env }));


  async function json(args: string[], env?: Record<string, string>): Promise<Record<string, unknown>> {
    const run = await cli(args, env);
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(0);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }

  it('show, set, rotate-secret, test, deliveries, delivery and resend: a round trip', async () => {
    const { accountId } = await createAccount(db.sequelize);

    const shown = await json(['show', '--account', accountId]);
    expect(shown).to.deep.include({ account_id: accountId, url: null, previous_secret: null, previous_secret_expires_at: null });
    expect(shown.secret).to.match(/^whsec_/);
    expect((await json(['show', '--account', accountId])).secret).to.equal(shown.secret);

    const set = await json(['set', '--account', accountId, '--url', 'https://Hooks.Example.com/in']);
    expect(set.url).to.equal('https://hooks.example.com/in');
    expect((await json(['set', '--account', accountId, '--clear-url'])).url).to.equal(null);
    expect((await json(['set', '--account', accountId, '--url', hooks.url('/global')])).url).to.equal(hooks.url('/global'));

    const rotated = await json(['rotate-secret', '--account', accountId]);
    expect(rotated.previous_secret).to.equal(shown.secret);
    expect(rotated.secret).to.match(/^whsec_/).and.not.equal(shown.secret);
    expect(Date.parse(String(rotated.previous_secret_expires_at))).to.be.closeTo(Date.now() + 24 * 3_600_000, 60_000);
    const own = await json(['rotate-secret', '--account', accountId, '--secret', OWN_SECRET]);
    expect(own).to.deep.include({ secret: OWN_SECRET, previous_secret: rotated.secret });

    // To the URL given: the receiver answers 200.
    const sent = await json(['test', '--account', accountId, '--url', hooks.url('/given')]);
    expect(sent).to.deep.include({ url: hooks.url('/given'), delivered: true, status_code: 200, error: null });
    expect(hooks.received).to.have.length(1);
    const got = hooks.received[0]!;
    expect(got.path).to.equal('/given');
    expect(got.headers['x-service-signature']).to.equal(serviceSignature(got.rawBody, OWN_SECRET));
    expect(got.headers['x-service-signature-previous']).to.equal(serviceSignature(got.rawBody, String(rotated.secret)));
    expect(hooks.events()[0]).to.deep.include({ id: sent.event_id, event: 'webhook.test', campaign_id: null });

    // To the global URL: the receiver answers 500 now.
    const failed = await json(['test', '--account', accountId]);
    expect(failed).to.deep.include({ url: hooks.url('/global'), delivered: false, status_code: 500, error: 'HTTP 500' });
    expect(hooks.received.map((r) => r.path)).to.deep.equal(['/given', '/global']);

    const all = await json(['deliveries', '--account', accountId]);
    expect(all).to.deep.include({ page: 1, per_page: 20, total: 2 });
    const listed = all.deliveries as Array<Record<string, unknown>>;
    expect(listed.map((d) => [d.id, d.status, d.event])).to.deep.equal([
      [failed.delivery_id, 'failed', 'webhook.test'],
      [sent.delivery_id, 'delivered', 'webhook.test'],
    ]);
    const onlyFailed = await json(['deliveries', '--account', accountId, '--status', 'failed']);
    expect((onlyFailed.deliveries as Array<{ id: string }>).map((d) => d.id)).to.deep.equal([failed.delivery_id]);
    const secondPage = await json(['deliveries', '--account', accountId, '--event', 'webhook.test', '--per-page', '1', '--page', '2']);
    expect(secondPage).to.deep.include({ page: 2, per_page: 1, total: 2 });
    expect((secondPage.deliveries as Array<{ id: string }>).map((d) => d.id)).to.deep.equal([sent.delivery_id]);

    const detail = await json(['delivery', String(sent.delivery_id)]);
    expect(detail).to.deep.include({ id: sent.delivery_id, account_id: accountId, status: 'delivered', attempt_count: 1, cycle: 1 });
    expect(detail.payload).to.deep.equal(hooks.events()[0]);
    expect(detail.attempts).to.have.length(1);
    expect((detail.attempts as Array<Record<string, unknown>>)[0]).to.deep.include({ number: 1, cycle: 1, status_code: 200, succeeded: true, error: null });

    // A test event is never resent.
    const refused = await cli(['resend', String(failed.delivery_id)]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.match(/test event is sent once/);

    // A failed delivery of a real event: resent as cycle 2, pending, for the running service's dispatcher.
    const eventId = newId('evt');
    await db.sequelize.query(`INSERT INTO outbox (id, account_id, event, data, dispatched_at) VALUES ($1, $2, 'campaign.started', '{}', now())`, { bind: [eventId, accountId] });
    const deliveryId = 'whd_cli0000000000001';
    await db.sequelize.query(
      `INSERT INTO webhook_deliveries (id, account_id, event_id, event, url, status, attempt_count, failed_at) VALUES ($1, $2, $3, 'campaign.started', 'https://hooks.example.com/in', 'failed', 6, now())`,
      { bind: [deliveryId, accountId, eventId] },
    );
    const resent = await json(['resend', deliveryId]);
    expect(resent).to.deep.include({ id: deliveryId, status: 'pending', cycle: 2, failed_at: null, attempt_count: 6 });
    const again = await cli(['resend', deliveryId]);
    expect(again.code).to.equal(2);
    expect(again.stderr).to.match(/already being delivered \(status pending\)/);
  });

  it('deliveries --status failed --url --order oldest: what waits for a URL, in the order it will be sent again', async () => {
    const { accountId } = await createAccount(db.sequelize);
    const t0 = Date.parse('2026-09-01T08:00:00Z');
    /** A failed delivery of a real event whose own time is t0 + `hours`; inserted in the order called. */
    const failedTo = async (url: string, hours: number, status = 'failed'): Promise<string> => {
      const eventId = newId('evt');
      const at = new Date(t0 + hours * 3_600_000).toISOString();
      await db.sequelize.query(`INSERT INTO outbox (id, account_id, event, data, created_at, dispatched_at) VALUES ($1, $2, 'reply.received', '{}', $3, $3)`, {
        bind: [eventId, accountId, at],
      });
      const id = `whd_${newId('evt').slice(4)}`;
      await db.sequelize.query(
        `INSERT INTO webhook_deliveries (id, account_id, event_id, event, url, status, attempt_count, failed_at, delivered_at, event_at)
         VALUES ($1, $2, $3, 'reply.received', $4, $5, 6, CASE WHEN $5 = 'failed' THEN now() END, CASE WHEN $5 = 'delivered' THEN now() END, $6)`,
        { bind: [id, accountId, eventId, url, status, at] },
      );
      return id;
    };
    // Written out of event order: the listing sorts by the event's time, not by when the row was written.
    const third = await failedTo('https://down.example.com/in', 2);
    const first = await failedTo('https://down.example.com/in', 0);
    const second = await failedTo('https://down.example.com/in', 1);
    await failedTo('https://other.example.com/in', -1);
    await failedTo('https://down.example.com/in', -2, 'delivered');

    // Any spelling of the URL finds its deliveries (stored normalised).
    const waiting = await json(['deliveries', '--account', accountId, '--status', 'failed', '--url', 'HTTPS://Down.Example.com:443/in', '--order', 'oldest']);
    expect(waiting).to.deep.include({ order: 'oldest', page: 1, per_page: 20, total: 3 });
    const listed = waiting.deliveries as Array<Record<string, unknown>>;
    expect(listed.map((d) => d.id)).to.deep.equal([first, second, third]);
    for (const d of listed) {
      expect(d).to.deep.include({ status: 'failed', url: 'https://down.example.com/in', resends_on_recovery: true });
      expect(d.note).to.match(/waits for the URL to answer 2xx/);
    }
    // Newest first is the default; a delivered one waits for nothing.
    const all = await json(['deliveries', '--account', accountId, '--url', 'https://down.example.com/in']);
    expect(all).to.deep.include({ order: 'newest', total: 4 });
    const delivered = (all.deliveries as Array<Record<string, unknown>>).find((d) => d.status === 'delivered');
    expect(delivered).to.deep.include({ resends_on_recovery: false, note: null });
  });

  it('exits 2 with a message on bad input, changing nothing', async () => {
    const { accountId } = await createAccount(db.sequelize);
    await json(['set', '--account', accountId, '--url', 'https://kept.example.com/hooks']);
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [['set', '--account', accountId], /exactly one of --url <url> and --clear-url/],
      [['set', '--account', accountId, '--url', 'https://x.example.com', '--clear-url'], /exactly one of --url <url> and --clear-url/],
      [['set', '--account', accountId, '--url', 'http://public.example.com/hooks'], /--url must be an https URL/],
      [['set', '--account', accountId, '--url', 'https://u:p@x.example.com/'], /--url must not carry credentials/],
      // Without ALLOW_LOOPBACK_EGRESS, loopback is refused as delivery would refuse it.
      [['set', '--account', accountId, '--url', 'http://127.0.0.1:9/hooks'], /--url must point to a public address: 127\.0\.0\.1 is a loopback address/, { ALLOW_LOOPBACK_EGRESS: 'false' }],
      [['set', '--url', 'https://x.example.com'], /required option '--account <id>'/],
      [['set', '--account', 'acc_doesnotexist', '--clear-url'], /No account acc_doesnotexist/],
      [['rotate-secret', '--account', accountId, '--secret', 'not-a-secret'], /--secret <whsec_...>' argument 'not-a-secret' is invalid\. must start with whsec_/],
      [['deliveries', '--account', accountId, '--status', 'lost'], /expected one of pending, retrying, delivered, failed/],
      [['deliveries', '--account', accountId, '--event', 'campaign.exploded'], /expected one of campaign\.started/],
      [['deliveries', '--account', accountId, '--per-page', '101'], /expected a whole number from 1 to 100/],
      [['deliveries', '--account', accountId, '--page', '0'], /expected a whole number from 1 to 1000000/],
      [['deliveries', '--account', accountId, '--order', 'sideways'], /option '--order <order>' argument 'sideways' is invalid\. expected one of newest, oldest/],
      [['deliveries', '--account', accountId, '--url', 'down.example.com/in'], /option '--url <url>' argument 'down\.example\.com\/in' is invalid\. expected an absolute URL/],
      [['delivery', 'whd_doesnotexist'], /No webhook delivery whd_doesnotexist/],
      [['resend', 'whd_doesnotexist'], /No webhook delivery whd_doesnotexist/],
      [['test', '--account', accountId, '--url', 'ftp://files.example.com/'], /url must be an https URL/],
      [['show', '--account', 'acc_doesnotexist'], /No account acc_doesnotexist/],
    ];
    for (const [args, message, env] of cases) {
      const run = await cli(args, env);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(2);
      expect(run.stderr, args.join(' ')).to.match(message);
      expect(run.stdout, args.join(' ')).to.equal('');
    }
    const [row] = await db.sequelize.query<{ url: string; previous_secret: string | null }>(`SELECT url, previous_secret FROM webhook_settings WHERE account_id = $1`, {
      bind: [accountId],
      type: QueryTypes.SELECT,
    });
    expect(row).to.deep.equal({ url: 'https://kept.example.com/hooks', previous_secret: null });

    // No global URL and none given: nothing to send to.
    const { accountId: bare } = await createAccount(db.sequelize, 'free', 'Bare Co');
    const none = await cli(['test', '--account', bare]);
    expect(none.code).to.equal(2);
    expect(none.stderr).to.match(/No webhook URL/);
  });
});
