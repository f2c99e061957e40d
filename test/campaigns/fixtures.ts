import { ApplicationFailure } from '@temporalio/common';
import type { MockActivityEnvironment } from '@temporalio/testing';
import { expect } from 'chai';
import { QueryTypes, type Sequelize } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import type { PlanName } from '../../src/config/plans';
import type { BatchItem } from '../../workflows/campaign/contract';
import { createAccount } from '../support/api';

/** Rows the campaign activity tests need, written directly (the APIs that create them belong elsewhere). */

export interface CampaignFixture {
  readonly accountId: string;
  readonly campaignId: string;
}

export async function newRunningCampaign(
  sequelize: Sequelize,
  opts: { readonly accountId?: string; readonly plan?: PlanName; readonly status?: string; readonly targetUrl?: string } = {},
): Promise<CampaignFixture> {
  const accountId = opts.accountId ?? (await createAccount(sequelize, opts.plan ?? 'free')).accountId;
  const campaignId = newId('cmp');
  await sequelize.query(
    `INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url, target_audience, target_outcome, value_for_target, calendar_link, status)
     VALUES ($1, $2, 'a', 'Q3 outreach', 'sales_outreach', $3, 'heads of growth', 'a 20-minute call', 'twice the replies', 'https://cal.example/sam', $4)`,
    { bind: [campaignId, accountId, opts.targetUrl ?? 'https://target.example', opts.status ?? 'running'] },
  );
  return { accountId, campaignId };
}

export async function newLeads(sequelize: Sequelize, accountId: string, count: number, prefix = 'lead'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = newId('lead');
    const tag = Math.random().toString(36).slice(2, 8);
    await sequelize.query(
      `INSERT INTO leads (id, account_id, email, first_name, last_name, title, company, source) VALUES ($1, $2, $3, $4, 'Doe', 'Head of Growth', 'Acme', 'api')`,
      { bind: [id, accountId, `${prefix}${i}.${tag}@lead.example`, `Jo${i}`] },
    );
    ids.push(id);
  }
  return ids;
}

export async function leadEmail(sequelize: Sequelize, leadId: string): Promise<string> {
  const [row] = await sequelize.query<{ email: string }>(`SELECT email FROM leads WHERE id = $1`, { bind: [leadId], type: QueryTypes.SELECT });
  if (row === undefined) throw new Error(`no lead ${leadId}`);
  return row.email;
}

/** First emails (step 0 of sales_outreach) for these leads. */
export function firstSteps(leadIds: readonly string[]): BatchItem[] {
  return leadIds.map((leadId) => ({ leadId, step: 0, kind: 'first', delayDays: 0, previousSubject: null, thread: [] }));
}

export async function rowsOf<T extends object>(sequelize: Sequelize, sql: string, bind: unknown[] = []): Promise<T[]> {
  return sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });
}

export async function countOf(sequelize: Sequelize, sql: string, bind: unknown[] = []): Promise<number> {
  const [row] = await sequelize.query<{ n: string | number }>(sql, { bind, type: QueryTypes.SELECT });
  return Number(row?.n ?? 0);
}

/** Runs an activity function inside a mock activity context (heartbeats, activity info), typed. */
export function runInActivity<I, O>(env: MockActivityEnvironment, fn: (input: I) => Promise<O>, input: I): Promise<O> {
  return env.run(fn, input) as Promise<O>;
}

/** The ApplicationFailure an activity call rejects with (fails the test if it resolves). */
export async function failureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(ApplicationFailure);
    return err as ApplicationFailure;
  }
  throw new Error('expected an ApplicationFailure');
}
