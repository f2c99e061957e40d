import { QueryTypes, type Sequelize } from 'sequelize';
import type { CalendarProvider } from '../db/models/meeting';

/**
 * The secret an account's calendar webhooks are signed with (set in its integration settings),
 * or null when none is configured or the account does not exist: both are refused alike.
 */
export async function calendarWebhookSecret(sequelize: Sequelize, accountId: string, provider: CalendarProvider): Promise<string | null> {
  const column = provider === 'calcom' ? 'calcom_webhook_secret' : 'calendly_signing_key';
  const rows = await sequelize.query<{ secret: string | null }>(`SELECT ${column} AS secret FROM account_integrations WHERE account_id = $1`, {
    bind: [accountId],
    type: QueryTypes.SELECT,
  });
  const secret = rows[0]?.secret ?? null;
  return secret === null || secret === '' ? null : secret;
}
