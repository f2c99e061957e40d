import type { Sequelize } from 'sequelize';
import { AccountService } from '../src/accounts/account-service';
import { saveCompany } from '../src/companies';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/log/logger';
import { openDatabase } from '../src/runtime/database';

/** Ids of one account's objects, for the fuzzer to put in paths besides the ids it makes up. */
export interface SeededIds {
  readonly accountId: string;
  readonly campaignIds: string[];
  readonly leadIds: string[];
  readonly mailboxIds: string[];
  /** Keys the fuzzer may revoke: never the one it authenticates with. */
  readonly spareKeyIds: string[];
  readonly deliveryIds: string[];
  readonly companyIds: string[];
}

export interface Seed {
  /** The account the fuzzer authenticates as. */
  readonly apiKey: string;
  readonly own: SeededIds;
  /** Another account's objects: every request naming one must be a 404 for the fuzzer's key. */
  readonly other: SeededIds;
}

async function call<T>(baseUrl: string, apiKey: string, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'X-API-Key': apiKey, Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': contentType }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`seeding: ${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/**
 * One account's objects, made through the API as a client makes them (a campaign on each surface
 * when Surface B has its create route, imported leads, a mailbox, a spare key, a webhook test
 * event whose failed attempt is in the delivery log) plus a company written straight to the store,
 * since scraping needs a site outside the fuzz namespace.
 */
async function seedAccount(baseUrl: string, apiKey: string, accountId: string, tag: string, o: SeedOptions): Promise<SeededIds> {
  const campaignIds: string[] = [];
  const a = await call<{ id: string }>(baseUrl, apiKey, 'POST', '/campaigns', {
    mcp: 'sales_outreach',
    target_url: `https://${tag}-target.example`,
    target_audience: 'Heads of operations at logistics companies',
    budget: { max_daily_usd: 5 },
    schedule: { frequency: 'weekdays', trial_days: 14 },
  });
  campaignIds.push(a.id);
  if (o.hasSurfaceBCampaigns) {
    const b = await call<{ id: string }>(baseUrl, apiKey, 'POST', '/v1/campaigns', { name: `${tag} launch`, brandUrl: `https://${tag}-brand.example` });
    campaignIds.push(b.id);
  }
  const csv = ['email,first_name,last_name,title,company', `ada@${tag}-leads.example,Ada,Lovelace,CTO,Analytical`, `alan@${tag}-leads.example,Alan,Turing,Head of Research,Bletchley`].join('\n');
  await call(baseUrl, apiKey, 'POST', '/v1/leads/import', csv + '\n', 'text/csv');
  const leads = await call<{ leads: { id: string }[] }>(baseUrl, apiKey, 'GET', '/v1/leads');
  const mailbox = await call<{ id: string }>(baseUrl, apiKey, 'POST', '/v1/mailboxes', {
    fromEmail: `sam@${tag}-mail.example`,
    fromName: 'Sam',
    smtpUrl: `smtps://sam:secret@smtp.${tag}-mail.example:465`,
  });
  const spare = await call<{ id: string }>(baseUrl, apiKey, 'POST', '/v1/api-keys', { label: 'spare key for the fuzzer to revoke' });
  // The attempt fails at once (no network, or nothing listening) and is logged as a failed delivery.
  await call(baseUrl, apiKey, 'POST', '/v1/webhooks/test', { url: o.webhookTestUrl(tag) });
  const deliveries = await call<{ deliveries: { id: string }[] }>(baseUrl, apiKey, 'GET', '/v1/webhook-deliveries');
  return {
    accountId,
    campaignIds,
    leadIds: leads.leads.map((l) => l.id),
    mailboxIds: [mailbox.id],
    spareKeyIds: [spare.id],
    deliveryIds: deliveries.deliveries.map((d) => d.id),
    companyIds: [],
  };
}

export interface SeedOptions {
  /** Whether Surface B has POST /v1/campaigns (the document says). */
  readonly hasSurfaceBCampaigns: boolean;
  /** Where each account's webhook test event goes: somewhere it fails at once. */
  readonly webhookTestUrl: (tag: string) => string;
}

/** Two accounts (Pro: quota out of the way) with a few objects each, on the running service and its database. */
export async function seedAccounts(baseUrl: string, sequelize: Sequelize, o: SeedOptions): Promise<Seed> {
  const accounts = new AccountService(sequelize);
  const own = await accounts.createAccount('Fuzz Co', 'pro');
  const other = await accounts.createAccount('Other Co', 'pro');
  const company = async (accountId: string, tag: string): Promise<string> =>
    (
      await saveCompany(sequelize, accountId, {
        url: `https://${tag}-company.example/`,
        domain: `${tag}-company.example`,
        name: `${tag} company`,
        description: 'Freight software',
        logoUrl: null,
        socialLinks: {},
        contactEmails: [`hello@${tag}-company.example`],
        technologies: ['react'],
        industryKeywords: ['logistics'],
      })
    ).id;
  const ownIds = await seedAccount(baseUrl, own.key.apiKey, own.account.id, 'fuzz', o);
  const otherIds = await seedAccount(baseUrl, other.key.apiKey, other.account.id, 'other', o);
  ownIds.companyIds.push(await company(own.account.id, 'fuzz'));
  otherIds.companyIds.push(await company(other.account.id, 'other'));
  return { apiKey: own.key.apiKey, own: ownIds, other: otherIds };
}

/** seedAccounts on the service started by fuzz/service.ts, through its database. */
export async function seed(baseUrl: string, serviceEnv: NodeJS.ProcessEnv, hasSurfaceBCampaigns: boolean): Promise<Seed> {
  const log = createLogger('warn', 'fuzz-seed', 2);
  const db = await openDatabase(loadConfig(serviceEnv), log, 'attach');
  try {
    // No network in the namespace: any address fails at once.
    return await seedAccounts(baseUrl, db.sequelize, { hasSurfaceBCampaigns, webhookTestUrl: (tag) => `https://hooks.${tag}.example/in` });
  } finally {
    await db.close();
  }
}
