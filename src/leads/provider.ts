import type { Sequelize } from 'sequelize';
import type { Config } from '../config/config';
import { readIntegrations } from '../integrations/integration-repository';
import { ApolloClient } from './apollo/client';
import { egressHttpPost, type HttpPost } from './apollo/http';

/** What the lead services need: the store, the configuration and (for tests) the HTTP transport. */
export interface LeadDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  /** Defaults to the egress client of `config`. */
  readonly post?: HttpPost;
}

/** The account's own Apollo key (account_integrations), or null when it has none. */
export async function apolloKeyOf(sequelize: Sequelize, accountId: string): Promise<string | null> {
  const key = (await readIntegrations(sequelize, accountId)).apolloApiKey?.trim();
  return key === undefined || key === '' ? null : key;
}

/**
 * The lead provider of an account: an Apollo client on its own key when it configured one,
 * otherwise null, meaning "use the account's stored (imported) leads".
 */
export async function leadProviderFor(deps: LeadDeps, accountId: string): Promise<ApolloClient | null> {
  const apiKey = await apolloKeyOf(deps.sequelize, accountId);
  if (apiKey === null) return null;
  return new ApolloClient({ baseUrl: deps.config.apolloApiUrl, apiKey, post: deps.post ?? egressHttpPost(deps.config) });
}
