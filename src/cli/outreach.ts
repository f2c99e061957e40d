/**
 * The operator CLI (`outreach`). It works on the same database as a running `npm start`: DATABASE_URL
 * when set, otherwise DATA_DIR's embedded PostgreSQL (attached to when running, started for the
 * duration of the command when not). Output is JSON on stdout; logs go to stderr.
 */
import { Command, InvalidArgumentError } from 'commander';
import { AccountNotFound, AccountService, KeyNotFound, type KeySummary } from '../accounts/account-service';
import { ConfigError } from '../config/config';
import { isPlanName, PLAN_NAMES, type PlanName } from '../config/plans';
import { registerAudienceCommands } from './commands/audience';
import { registerIntegrationCommands } from './commands/integrations';
import { registerLeadCommands } from './commands/leads';
import { registerSecretsCommands } from './commands/secrets';
import { registerSenderCommands } from './commands/sender';
import { registerWebhookCommands } from './commands/webhooks';
import { print, withDatabase } from './support';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const renderKey = (k: KeySummary) => ({
  key_id: k.keyId,
  prefix: k.prefix,
  label: k.label,
  created_at: iso(k.createdAt),
  last_used_at: iso(k.lastUsedAt),
  revoked_at: iso(k.revokedAt),
});

function parsePlan(value: string): PlanName {
  if (!isPlanName(value)) throw new InvalidArgumentError(`expected one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

function parseName(value: string): string {
  const v = value.trim();
  if (v.length === 0 || v.length > 200) throw new InvalidArgumentError('expected 1 to 200 characters');
  return v;
}

export function buildCli(): Command {
  const program = new Command('outreach').description('Operator commands for the campaign outreach service').showHelpAfterError();

  const accounts = program.command('accounts').description('Accounts (one account is one organization)');
  accounts
    .command('create')
    .description('Create an account and its first API key; prints {"account_id", "api_key"}')
    .requiredOption('--name <name>', 'account name', parseName)
    .requiredOption('--plan <plan>', `plan: ${PLAN_NAMES.join(' or ')}`, parsePlan)
    .action(async (opts: { name: string; plan: PlanName }) => {
      const { account, key } = await withDatabase((db) => new AccountService(db.sequelize).createAccount(opts.name, opts.plan));
      print({ account_id: account.id, api_key: key.apiKey });
    });

  const keys = program.command('keys').description('API keys');
  keys
    .command('create')
    .description('Issue a new API key for an account (the full key is shown once)')
    .requiredOption('--account <id>', 'account id')
    .option('--label <label>', 'a label to tell keys apart', parseName)
    .action(async (opts: { account: string; label?: string }) => {
      const key = await withDatabase((db) => new AccountService(db.sequelize).issueKey(opts.account, opts.label ?? null));
      print({ key_id: key.keyId, prefix: key.prefix, api_key: key.apiKey, created_at: key.createdAt.toISOString() });
    });
  keys
    .command('list')
    .description("List an account's keys (never their secrets)")
    .requiredOption('--account <id>', 'account id')
    .action(async (opts: { account: string }) => {
      const list = await withDatabase((db) => new AccountService(db.sequelize).listKeys(opts.account));
      print(list.map(renderKey));
    });
  keys
    .command('revoke')
    .description('Revoke a key at once')
    .argument('<key_id>', 'id of the key (key_…)')
    .action(async (keyId: string) => {
      const key = await withDatabase((db) => new AccountService(db.sequelize).revokeKey(keyId));
      print(renderKey(key));
    });
  registerAudienceCommands(program);
  registerIntegrationCommands(program);
  registerLeadCommands(program);
  registerSecretsCommands(program);
  registerSenderCommands(program);
  registerWebhookCommands(program);
  return program;
}

export async function runCli(argv: readonly string[] = process.argv): Promise<void> {
  try {
    await buildCli().parseAsync([...argv]);
  } catch (err) {
    const known = err instanceof AccountNotFound || err instanceof KeyNotFound || err instanceof ConfigError;
    process.stderr.write(`outreach: ${known ? (err as Error).message : `failed: ${(err as Error).message}`}\n`);
    process.exitCode = known ? 2 : 1;
  }
}
