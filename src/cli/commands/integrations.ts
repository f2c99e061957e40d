import { InvalidArgumentError, type Command } from 'commander';
import { QueryTypes, type Sequelize } from 'sequelize';
import { AccountNotFound } from '../../accounts/account-service';
import type { IntegrationPatch, SettingField } from '../../integrations/fields';
import { patchProblem } from '../../integrations/patch-schema';
import { IntegrationInputError, showIntegrations, updateIntegrations } from '../../integrations/settings';
import type { IntegrationsView } from '../../integrations/view';
import { print, withDatabase } from '../support';

/** Each `set` flag and the setting it writes; `--clear` takes the same names. */
const FLAGS: ReadonlyArray<{ flag: string; option: string; field: SettingField; what: string }> = [
  { flag: 'openai-key', option: 'openaiKey', field: 'openaiApiKey', what: 'OpenAI API key' },
  { flag: 'openai-model', option: 'openaiModel', field: 'openaiModel', what: 'OpenAI model (default gpt-4o-mini)' },
  { flag: 'anthropic-key', option: 'anthropicKey', field: 'anthropicApiKey', what: 'Anthropic API key' },
  { flag: 'anthropic-model', option: 'anthropicModel', field: 'anthropicModel', what: 'Anthropic model (default claude-haiku-4-5)' },
  { flag: 'llm-provider', option: 'llmProvider', field: 'llmProvider', what: 'openai or anthropic: which key to use when both are set' },
  { flag: 'apollo-key', option: 'apolloKey', field: 'apolloApiKey', what: 'API key of the Apollo-compatible lead provider' },
  { flag: 'calcom-secret', option: 'calcomSecret', field: 'calcomWebhookSecret', what: 'Cal.com webhook secret' },
  { flag: 'calendly-key', option: 'calendlyKey', field: 'calendlySigningKey', what: 'Calendly webhook signing key' },
];

/** snake_case like the CLI's other output; secrets masked exactly as the API masks them. */
function render(accountId: string, v: IntegrationsView) {
  return {
    account_id: accountId,
    apollo_api_key: v.apolloApiKey,
    openai_api_key: v.openaiApiKey,
    openai_model: v.openaiModel,
    anthropic_api_key: v.anthropicApiKey,
    anthropic_model: v.anthropicModel,
    llm_provider: v.llmProvider,
    calcom_webhook_secret: v.calcomWebhookSecret,
    calendly_signing_key: v.calendlySigningKey,
    active_llm: v.activeLlm,
    updated_at: v.updatedAt,
  };
}

/** Commander parser for one flag: the same rule the API applies to that field. */
function parserFor(field: SettingField, flag: string) {
  return (value: string): string => {
    const problem = patchProblem({ [field]: value } as IntegrationPatch);
    if (problem !== null) throw new InvalidArgumentError(`--${flag} ${problem.message}`);
    return value;
  };
}

function parseClear(value: string, previous: SettingField[] = []): SettingField[] {
  const fields = value.split(',').map((name) => {
    const known = FLAGS.find((f) => f.flag === name.trim());
    if (known === undefined) throw new InvalidArgumentError(`expected names among ${FLAGS.map((f) => f.flag).join(', ')}`);
    return known.field;
  });
  return [...previous, ...fields];
}

async function requireAccount(sequelize: Sequelize, accountId: string): Promise<void> {
  const rows = await sequelize.query('SELECT 1 FROM accounts WHERE id = $1', { bind: [accountId], type: QueryTypes.SELECT });
  if (rows.length === 0) throw new AccountNotFound(`No account ${accountId}`);
}

/** `outreach integrations show|set`: an account's own keys (BYOK) and webhook secrets, never printed in full. */
export function registerIntegrationCommands(program: Command): void {
  const integrations = program.command('integrations').description("An account's own keys for outside services (shown masked)");
  integrations
    .command('show')
    .description("Show an account's integration settings (secrets as their last four characters)")
    .requiredOption('--account <id>', 'account id')
    .action(async (opts: { account: string }) => {
      const view = await withDatabase(async (db) => {
        await requireAccount(db.sequelize, opts.account);
        return showIntegrations(db.sequelize, opts.account);
      });
      print(render(opts.account, view));
    });

  const set = integrations
    .command('set')
    .description('Set or clear integration settings; flags not given are left unchanged')
    .requiredOption('--account <id>', 'account id');
  for (const f of FLAGS) set.option(`--${f.flag} <value>`, f.what, parserFor(f.field, f.flag));
  set.option('--clear <names>', `comma-separated settings to clear: ${FLAGS.map((f) => f.flag).join(', ')}`, parseClear);
  set.action(async (opts: Record<string, string | SettingField[] | undefined>) => {
    const accountId = opts.account as string;
    const patch: Record<string, string | null> = {};
    for (const field of (opts.clear as SettingField[] | undefined) ?? []) patch[field] = null;
    for (const f of FLAGS) {
      const value = opts[f.option];
      if (typeof value !== 'string') continue;
      if (f.field in patch) set.error(`error: --${f.flag} and --clear ${f.flag} contradict each other`, { exitCode: 2 });
      patch[f.field] = value;
    }
    if (Object.keys(patch).length === 0) set.error('error: nothing to change: give at least one setting flag or --clear', { exitCode: 2 });
    try {
      const view = await withDatabase(async (db) => {
        await requireAccount(db.sequelize, accountId);
        return updateIntegrations(db.sequelize, accountId, patch as IntegrationPatch);
      });
      print(render(accountId, view));
    } catch (err) {
      if (err instanceof IntegrationInputError) {
        const flag = FLAGS.find((f) => f.field === err.field)?.flag;
        set.error(`error: ${flag === undefined ? '' : `--${flag}: `}${err.message}`, { exitCode: 2 });
      }
      throw err;
    }
  });
}
