import type { Sequelize } from 'sequelize';
import { Account, initAccount } from './account';
import { AccountIntegration, initAccountIntegration } from './account-integration';
import { ApiKey, initApiKey } from './api-key';
import { Campaign, initCampaign } from './campaign';
import { Company, initCompany } from './company';
import { Cost, initCost } from './cost';
import { Email, initEmail } from './email';
import { EmailEvent, initEmailEvent } from './email-event';
import { Lead, initLead } from './lead';
import { Mailbox, initMailbox } from './mailbox';
import { Meeting, initMeeting } from './meeting';
import { OutboxEvent, initOutboxEvent } from './outbox-event';
import { Reply, initReply } from './reply';
import { Suppression, initSuppression } from './suppression';

export { Account, AccountIntegration, ApiKey, Campaign, Company, Cost, Email, EmailEvent, Lead, Mailbox, Meeting, OutboxEvent, Reply, Suppression };

/** Registers every model on this process's Sequelize instance. Call once, before any query. */
export function initModels(sequelize: Sequelize): void {
  initAccount(sequelize);
  initApiKey(sequelize);
  initCampaign(sequelize);
  initAccountIntegration(sequelize);
  initLead(sequelize);
  initSuppression(sequelize);
  initCompany(sequelize);
  initMailbox(sequelize);
  initEmail(sequelize);
  initEmailEvent(sequelize);
  initReply(sequelize);
  initMeeting(sequelize);
  initCost(sequelize);
  initOutboxEvent(sequelize);
  Account.hasMany(ApiKey, { foreignKey: 'accountId' });
  ApiKey.belongsTo(Account, { foreignKey: 'accountId' });
  Account.hasMany(Campaign, { foreignKey: 'accountId' });
  Campaign.belongsTo(Account, { foreignKey: 'accountId' });
}
