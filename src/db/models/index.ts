import type { Sequelize } from 'sequelize';
import { Account, initAccount } from './account';
import { ApiKey, initApiKey } from './api-key';
import { Campaign, initCampaign } from './campaign';

export { Account, ApiKey, Campaign };

/** Registers every model on this process's Sequelize instance. Call once, before any query. */
export function initModels(sequelize: Sequelize): void {
  initAccount(sequelize);
  initApiKey(sequelize);
  initCampaign(sequelize);
  Account.hasMany(ApiKey, { foreignKey: 'accountId' });
  ApiKey.belongsTo(Account, { foreignKey: 'accountId' });
  Account.hasMany(Campaign, { foreignKey: 'accountId' });
  Campaign.belongsTo(Account, { foreignKey: 'accountId' });
}
