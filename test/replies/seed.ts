import { randomBytes } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { createAccount } from '../support/api';

export interface SentFixture {
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  readonly emailId: string;
  /** Bare Message-ID of the sent email (stored with angle brackets, as the header carries it). */
  readonly messageId: string;
  readonly leadEmail: string;
  readonly fromEmail: string;
}

export interface SentOptions {
  readonly accountId?: string;
  readonly leadEmail?: string;
  readonly calendarLink?: string | null;
  readonly sentAt?: Date;
  readonly first?: string;
  readonly last?: string;
  readonly company?: string;
  readonly title?: string;
}

/** An account (unless given), a campaign, a lead and one email sent to the lead. */
export async function seedSentEmail(sequelize: Sequelize, opts: SentOptions = {}): Promise<SentFixture> {
  const accountId = opts.accountId ?? (await createAccount(sequelize)).accountId;
  const campaignId = newId('cmp');
  const tag = randomBytes(4).toString('hex');
  const leadEmail = opts.leadEmail ?? `jane.${tag}@acme.test`;
  const fromEmail = 'sam@outreach.test';
  await sequelize.query(
    `INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url, calendar_link, status) VALUES ($1, $2, 'a', 'Test campaign', 'saas-demo', 'https://target.test', $3, 'running')`,
    { bind: [campaignId, accountId, opts.calendarLink === undefined ? 'https://cal.test/sam/intro' : opts.calendarLink] },
  );
  const existing = await sequelize.query<{ id: string }>(`SELECT id FROM leads WHERE account_id = $1 AND email = $2`, { bind: [accountId, leadEmail], type: QueryTypes.SELECT });
  const leadId = existing[0]?.id ?? newId('lead');
  if (existing.length === 0) {
    await sequelize.query(`INSERT INTO leads (id, account_id, email, first_name, last_name, title, company, source) VALUES ($1, $2, $3, $4, $5, $6, $7, 'import')`, {
      bind: [leadId, accountId, leadEmail, opts.first ?? 'Jane', opts.last ?? 'Doe', opts.title ?? 'Head of Growth', opts.company ?? 'Acme Corp'],
    });
  }
  const emailId = newId('em');
  const messageId = `${emailId}.${tag}@outreach.test`;
  await sequelize.query(
    `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status, sent_at)
     VALUES ($1, $2, $3, $4, 0, $5, $6, 'Quick question', $7, 'sent', $8)`,
    { bind: [emailId, accountId, campaignId, leadId, fromEmail, leadEmail, `<${messageId}>`, (opts.sentAt ?? new Date()).toISOString()] },
  );
  return { accountId, campaignId, leadId, emailId, messageId, leadEmail, fromEmail };
}

export async function rows<T extends object>(sequelize: Sequelize, sql: string, bind: unknown[] = []): Promise<T[]> {
  return sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });
}
