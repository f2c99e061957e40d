import type { Command } from 'commander';
import { inboundSecret } from '../../inbound/inbound-secret';
import { INBOUND_SMTP_USER } from '../../inbound/relay-settings';
import { print, withDatabase } from '../support';

/**
 * `outreach secrets show`: what an operator needs to point a mail relay at the service. Only the
 * inbound secret is shown; the tracking secret never has to leave the service (nothing outside
 * it verifies links), so printing it would only widen who knows it.
 */
export function registerSecretsCommands(program: Command): void {
  const secrets = program.command('secrets').description('Service-wide secrets an operator configures elsewhere');
  secrets
    .command('show')
    .description('Print the inbound secret (X-Inbound-Secret for POST /inbound/mime, SMTP AUTH password) and where to use it')
    .action(async () => {
      const out = await withDatabase(async (db, config) => ({
        inbound_secret: await inboundSecret(db.sequelize, config),
        source: config.inboundSecret ? 'INBOUND_SECRET' : 'generated (kept in the database)',
        http_endpoint: `${config.publicBaseUrl}/inbound/mime`,
        smtp: { host: config.host, port: config.inboundSmtpPort, user: INBOUND_SMTP_USER, auth_required: 'for clients other than loopback' },
      }));
      print(out);
    });
}
