import { QueryTypes, type Sequelize } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import type { SendEmailInput } from '../../src/sending/types';
import { createAccount } from '../support/api';

/** Rows the sending tests need, inserted directly (the APIs that create them belong elsewhere). */
export async function newCampaign(sequelize: Sequelize, accountId: string): Promise<string> {
  const id = newId('cmp');
  await sequelize.query(`INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url) VALUES ($1, $2, 'a', 'Test campaign', 'sales', 'https://target.example')`, {
    bind: [id, accountId],
  });
  return id;
}

export async function newLead(sequelize: Sequelize, accountId: string, email: string, firstName: string | null = 'Ada', lastName: string | null = 'Lovelace'): Promise<string> {
  const id = newId('lead');
  await sequelize.query(`INSERT INTO leads (id, account_id, email, first_name, last_name, source) VALUES ($1, $2, $3, $4, $5, 'api')`, {
    bind: [id, accountId, email, firstName, lastName],
  });
  return id;
}

export interface MailboxFixture {
  readonly fromEmail: string;
  readonly smtpUrl: string;
  readonly dailyCap?: number;
  readonly minGapSeconds?: number;
  readonly fromName?: string;
  readonly dkim?: { readonly domain: string; readonly selector: string; readonly privateKey: string };
}

export async function newMailbox(sequelize: Sequelize, accountId: string, m: MailboxFixture): Promise<string> {
  const id = newId('mbx');
  await sequelize.query(
    `INSERT INTO mailboxes (id, account_id, from_email, from_name, smtp_url, daily_cap, min_gap_seconds, dkim_domain, dkim_selector, dkim_private_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    {
      bind: [id, accountId, m.fromEmail, m.fromName ?? null, m.smtpUrl, m.dailyCap ?? 50, m.minGapSeconds ?? 0, m.dkim?.domain ?? null, m.dkim?.selector ?? null, m.dkim?.privateKey ?? null],
    },
  );
  return id;
}

/** An account with one campaign. */
export async function newAccountWithCampaign(sequelize: Sequelize): Promise<{ accountId: string; campaignId: string }> {
  const { accountId } = await createAccount(sequelize);
  return { accountId, campaignId: await newCampaign(sequelize, accountId) };
}

export const HTML = [
  '<p>Hi Ada,</p>',
  '<p>See <a href="https://example.com/pricing?plan=pro&amp;ref=mail">our pricing</a> and',
  '<a href="http://example.org/case-study">a case study</a>.</p>',
  '<p>Call <a href="tel:+15551234567">us</a> or <a href="mailto:sales@example.com">write</a>; <a href="#top">top</a>.</p>',
  '<!-- <a href="https://example.com/in-a-comment">not a link</a> -->',
].join('\n');

export function input(accountId: string, campaignId: string, leadId: string, step = 0, extra: Partial<SendEmailInput> = {}): SendEmailInput {
  return {
    accountId,
    campaignId,
    leadId,
    step,
    content: { subject: `Quick question (step ${step})`, html: HTML, text: 'Hi Ada,\n\nSee our pricing: https://example.com/pricing\n' },
    ...extra,
  };
}

export async function count(sequelize: Sequelize, sql: string, bind: unknown[]): Promise<number> {
  const rows = await sequelize.query<{ n: string }>(sql, { bind, type: QueryTypes.SELECT });
  return Number(rows[0]?.n ?? 0);
}

export async function emailRow(sequelize: Sequelize, emailId: string): Promise<Record<string, unknown>> {
  const rows = await sequelize.query<Record<string, unknown>>(`SELECT * FROM emails WHERE id = $1`, { bind: [emailId], type: QueryTypes.SELECT });
  if (rows[0] === undefined) throw new Error(`no email ${emailId}`);
  return rows[0];
}
