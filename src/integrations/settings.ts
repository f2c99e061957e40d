import type { Sequelize } from 'sequelize';
import type { IntegrationPatch } from './fields';
import { patchProblem } from './patch-schema';
import { readIntegrations, writeIntegrations } from './integration-repository';
import { toView, type IntegrationsView } from './view';

/** A patch value the settings refuse; `field` names the offending setting. */
export class IntegrationInputError extends Error {
  override readonly name = 'IntegrationInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A key pasted into the other provider's field would only fail later, at the first email, as an
 * authentication error from the wrong provider; refuse it now. Only unmistakable prefixes count:
 * an OpenAI-compatible endpoint may issue keys of any shape.
 */
function keyMixUp(patch: IntegrationPatch): IntegrationInputError | null {
  if (patch.openaiApiKey?.startsWith('sk-ant-')) return new IntegrationInputError('openaiApiKey', 'openaiApiKey looks like an Anthropic key (sk-ant-...); set it as anthropicApiKey');
  if (patch.anthropicApiKey?.startsWith('sk-proj-')) return new IntegrationInputError('anthropicApiKey', 'anthropicApiKey looks like an OpenAI key (sk-proj-...); set it as openaiApiKey');
  return null;
}

/** The account's integration settings, secrets masked. Shared by `GET /v1/integrations` and the CLI. */
export async function showIntegrations(sequelize: Sequelize, accountId: string): Promise<IntegrationsView> {
  return toView(await readIntegrations(sequelize, accountId));
}

/** Validates and applies a patch (null clears, absent keeps); returns the new settings, masked. */
export async function updateIntegrations(sequelize: Sequelize, accountId: string, patch: IntegrationPatch): Promise<IntegrationsView> {
  const problem = patchProblem(patch);
  if (problem !== null) throw new IntegrationInputError(problem.field, `${problem.field || 'patch'} ${problem.message}`);
  const mixUp = keyMixUp(patch);
  if (mixUp !== null) throw mixUp;
  return toView(await writeIntegrations(sequelize, accountId, patch));
}
