import { endSessionsOfKey } from '../auth/sessions/session-repository';
import type { Sequelize, Transaction } from 'sequelize';
import { isPlanName, type PlanName } from '../config/plans';
import { generateApiKey } from '../auth/api-key-format';
import { Account, ApiKey } from '../db/models';
import { newId } from './ids';

export interface IssuedKey {
  readonly keyId: string;
  readonly prefix: string;
  /** The full key: shown once, never stored. */
  readonly apiKey: string;
  readonly createdAt: Date;
}

export interface KeySummary {
  readonly keyId: string;
  readonly prefix: string;
  readonly label: string | null;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

export class AccountNotFound extends Error {}
export class KeyNotFound extends Error {}

/** Accounts and their keys, shared by the operator CLI, the dashboard endpoints and tests. */
export class AccountService {
  constructor(private readonly sequelize: Sequelize) {}

  async createAccount(name: string, plan: PlanName): Promise<{ account: Account; key: IssuedKey }> {
    if (!isPlanName(plan)) throw new Error(`Unknown plan ${plan}`);
    return this.sequelize.transaction(async (transaction) => {
      const account = await Account.create({ id: newId('acc'), name, plan }, { transaction });
      const key = await this.insertKey(account.id, null, transaction);
      return { account, key };
    });
  }

  async issueKey(accountId: string, label: string | null = null): Promise<IssuedKey> {
    const account = await Account.findByPk(accountId);
    if (!account) throw new AccountNotFound(`No account ${accountId}`);
    return this.insertKey(accountId, label);
  }

  async listKeys(accountId: string): Promise<KeySummary[]> {
    const account = await Account.findByPk(accountId);
    if (!account) throw new AccountNotFound(`No account ${accountId}`);
    const keys = await ApiKey.findAll({ where: { accountId }, order: [['createdAt', 'ASC']] });
    return keys.map(summarise);
  }

  /** Revokes a key; revoking twice keeps the first revocation time. `accountId` scopes the lookup when given. */
  async revokeKey(keyId: string, accountId?: string): Promise<KeySummary> {
    const key = await ApiKey.findOne({ where: accountId === undefined ? { id: keyId } : { id: keyId, accountId } });
    if (!key) throw new KeyNotFound(`No API key ${keyId}`);
    if (key.revokedAt === null) {
      key.revokedAt = new Date();
      await key.save();
    }
    // A revoked key ends its dashboard sessions at once (the session lookup refuses them anyway).
    await endSessionsOfKey(this.sequelize, key.id);
    return summarise(key);
  }

  private async insertKey(accountId: string, label: string | null, transaction?: Transaction): Promise<IssuedKey> {
    const generated = generateApiKey();
    const row = await ApiKey.create(
      { id: newId('key'), accountId, prefix: generated.prefix, keyHash: generated.hash, label },
      { transaction },
    );
    return { keyId: row.id, prefix: row.prefix, apiKey: generated.key, createdAt: row.createdAt };
  }
}

function summarise(k: ApiKey): KeySummary {
  return { keyId: k.id, prefix: k.prefix, label: k.label, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt };
}
