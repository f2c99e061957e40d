/**
 * The service's own matcher for the evaluation: a throwaway PostgreSQL (temporary data directory,
 * free port), migrated to the latest schema, with one account per pool (set 1, and set 2's tuning
 * and frozen parts) whose leads are stored through the import write path (insertNewLeads, so each
 * profile is computed exactly as at import). Phrases are then matched by findMatchingLeads, the
 * statement campaigns run, within the pool's account only.
 */
import type { Sequelize } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { migrateUp } from '../../src/db/migrator';
import { initModels } from '../../src/db/models';
import { createSequelize } from '../../src/db/sequelize';
import type { LeadInput } from '../../src/leads/fields';
import { findMatchingLeads, insertNewLeads, listLeads, MAX_ROWS_PER_STATEMENT } from '../../src/leads/lead-repository';
import type { LeadCriteria } from '../../src/leads/profile/types';
import { startTestPostgres, type TestPostgres } from '../../test/support/postgres';

/** A lead of the pool as the evaluation set writes it (the fields insertNewLeads reads). */
export interface PoolLead {
  readonly id: string;
  readonly first_name?: string | null;
  readonly last_name?: string | null;
  readonly email: string;
  readonly company: string | null;
  readonly title: string | null;
  readonly country: string | null;
  /** State or province as the export writes it (set 2); absent in set 1. */
  readonly state?: string | null;
  readonly city: string | null;
  readonly industry: string | null;
  readonly company_size: string | null;
}

export interface SqlPool {
  /** The pool's ids of the leads matching the criteria, in the pool's order. */
  match(criteria: LeadCriteria): Promise<string[]>;
  /** Closes the connections, stops PostgreSQL and removes its data directory. */
  close(): Promise<void>;
}

const toInput = (l: PoolLead): LeadInput => ({
  email: l.email.toLowerCase(),
  firstName: l.first_name ?? null,
  lastName: l.last_name ?? null,
  title: l.title,
  company: l.company,
  companyDomain: null,
  industry: l.industry,
  city: l.city,
  state: l.state ?? null,
  country: l.country,
  linkedinUrl: null,
  phone: null,
  companySize: l.company_size,
});

/** Stores a pool as a new account's leads; returns the account and the pool's ids by stored lead id. */
async function load(sequelize: Sequelize, name: string, leads: readonly PoolLead[]): Promise<{ accountId: string; poolIdByLeadId: Map<string, string> }> {
  const { account } = await new AccountService(sequelize).createAccount(name, 'free');
  const accountId = account.id;
  const inputs = leads.map(toInput);
  const poolIdByEmail = new Map(leads.map((l, i) => [inputs[i]!.email, l.id] as const));
  if (poolIdByEmail.size !== leads.length) throw new Error('two leads of the pool share an address');
  await sequelize.transaction(async (tx) => {
    for (let i = 0; i < inputs.length; i += MAX_ROWS_PER_STATEMENT) {
      const batch = inputs.slice(i, i + MAX_ROWS_PER_STATEMENT);
      const inserted = await insertNewLeads(sequelize, tx, accountId, 'import', batch);
      if (inserted !== batch.length) throw new Error(`only ${inserted} of ${batch.length} leads were stored`);
    }
  });
  const { leads: stored } = await listLeads(sequelize, accountId, 1, leads.length + 1);
  const poolIdByLeadId = new Map<string, string>();
  for (const s of stored) {
    const poolId = poolIdByEmail.get(s.email);
    if (poolId === undefined) throw new Error(`stored lead ${s.email} is not in the pool`);
    poolIdByLeadId.set(s.id, poolId);
  }
  if (poolIdByLeadId.size !== leads.length) throw new Error(`${poolIdByLeadId.size} of ${leads.length} leads stored`);
  return { accountId, poolIdByLeadId };
}

export interface SqlDatabase {
  /** Stores a pool as one more account's leads; its matcher sees that account only. */
  loadPool(name: string, leads: readonly PoolLead[]): Promise<SqlPool['match']>;
  /** Closes the connections, stops PostgreSQL and removes its data directory. */
  close(): Promise<void>;
}

/** Starts PostgreSQL and migrates it; on any failure on the way, everything started is stopped again. */
export async function startSqlDatabase(): Promise<SqlDatabase> {
  const pg: TestPostgres = await startTestPostgres();
  let sequelize: Sequelize | undefined;
  const close = async (): Promise<void> => {
    try {
      await sequelize?.close();
    } finally {
      await pg.stop();
    }
  };
  try {
    sequelize = createSequelize({ url: pg.url, poolMax: 4 });
    const db = sequelize;
    initModels(db);
    await migrateUp(db);
    return {
      loadPool: async (name, leads) => {
        const { accountId, poolIdByLeadId } = await load(db, name, leads);
        const order = new Map(leads.map((l, i) => [l.id, i] as const));
        return async (criteria) => {
          const found = await findMatchingLeads(db, accountId, criteria, { limit: leads.length + 1 });
          if (found.length > leads.length) throw new Error('more leads matched than the pool holds');
          return found.map((l) => poolIdByLeadId.get(l.id)!).sort((a, b) => order.get(a)! - order.get(b)!);
        };
      },
      close,
    };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

/** One pool in its own database (the single-pool form of startSqlDatabase). */
export async function startSqlPool(leads: readonly PoolLead[]): Promise<SqlPool> {
  const db = await startSqlDatabase();
  try {
    return { match: await db.loadPool('Audience evaluation', leads), close: db.close };
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
}
