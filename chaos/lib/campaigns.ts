import type { Sequelize } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { templatesFor } from './options';

/** One campaign of the run: its own account, its own leads (every one due a first email today). */
export interface ChaosCampaign {
  readonly index: number;
  readonly accountId: string;
  readonly apiKey: string;
  readonly campaignId: string;
  readonly template: string;
  /** The leads' addresses: each is due exactly one email (the first step) during the run. */
  readonly leads: readonly string[];
}

export interface SeedOptions {
  readonly sequelize: Sequelize;
  readonly baseUrl: string;
  readonly campaigns: number;
  readonly leads: number;
  /** Origin of the site every campaign speaks for (scraped when the campaign prepares). */
  readonly siteOrigin: string;
  /** The webhook URL of campaign `index` (reporting.webhook_url), or none. */
  readonly webhookUrl?: (index: number) => string;
}

async function call(url: string, init: RequestInit, what: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${what}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** The address of lead `i` of campaign `index`: unique in the run, so a received message names its campaign. */
export function leadAddress(index: number, i: number): string {
  return `lead${i}@c${index}.chaos.example`;
}

/**
 * Creates each campaign as a client would: a Pro account (written through the account service, as
 * `outreach accounts create` does), its leads imported as CSV through `POST /v1/leads/import`, and
 * the campaign through `POST /campaigns` with a sending window of the whole day (UTC), so that
 * every lead's first email is due now whatever the hour.
 */
export async function seedCampaigns(o: SeedOptions): Promise<ChaosCampaign[]> {
  const templates = templatesFor(o.leads);
  const accounts = new AccountService(o.sequelize);
  const out: ChaosCampaign[] = [];
  for (let index = 1; index <= o.campaigns; index++) {
    const template = templates[(index - 1) % templates.length]?.name as string;
    const { account, key } = await accounts.createAccount(`Chaos ${index}`, 'pro');
    const leads = Array.from({ length: o.leads }, (_, i) => leadAddress(index, i));
    const csv = ['email,first_name,last_name,title,company', ...leads.map((email, i) => `${email},Ada${i},Lovelace,Head of Operations,Company ${index}-${i}`)].join('\n');
    await call(`${o.baseUrl}/v1/leads/import`, { method: 'POST', headers: { 'X-API-Key': key.apiKey, 'content-type': 'text/csv' }, body: csv }, `importing the leads of campaign ${index}`);
    const body = {
      mcp: template,
      name: `Chaos ${index}`,
      target_url: o.siteOrigin,
      schedule: { send_window: { start: '00:00', end: '24:00' } },
      ...(o.webhookUrl === undefined ? {} : { reporting: { webhook_url: o.webhookUrl(index) } }),
    };
    const created = await call(
      `${o.baseUrl}/campaigns`,
      { method: 'POST', headers: { Authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) },
      `creating campaign ${index}`,
    );
    out.push({ index, accountId: account.id, apiKey: key.apiKey, campaignId: String(created.id), template, leads });
  }
  return out;
}

/** POST /campaigns/:id/pause or /resume as the campaign's client. */
export async function setPaused(baseUrl: string, c: ChaosCampaign, paused: boolean): Promise<void> {
  await call(`${baseUrl}/campaigns/${c.campaignId}/${paused ? 'pause' : 'resume'}`, { method: 'POST', headers: { Authorization: `Bearer ${c.apiKey}` } }, `${paused ? 'pausing' : 'resuming'} campaign ${c.index}`);
}
