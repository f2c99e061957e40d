import { QueryTypes, type Sequelize } from 'sequelize';
import type { TrackingChoice } from '../../sending/types';
import { brandName } from '../../writing/brand-name';
import type { WriteEmailInput } from '../../writing/types';
import type { VariantId } from '../model/sequence';
import { loadCompiledSequence, type CompiledSequence } from '../sequences/compiled-sequence';
import { readWinners } from '../sequences/sequence-repository';

/** Who writes an email: the From name, the address, the company and the signature under it. */
export interface SenderIdentity {
  /** A person or the company, never empty: the From never shows a bare address. */
  readonly name: string;
  /** The name is a person's (a mailbox's or the account's sender name), not the company's. */
  readonly isPerson: boolean;
  readonly email: string;
  readonly company: string | null;
  readonly signature: string | null;
}

/** An active mailbox as a batch knows it before taking a slot (to write as its sender). */
export interface ContextMailbox {
  readonly id: string;
  readonly fromEmail: string;
  readonly fromName: string | null;
  readonly signature: string | null;
}

/** What every email of a batch shares: the campaign's own words, its sequence, and who may write. */
export interface BatchContext {
  readonly brandId: string | null;
  readonly campaign: WriteEmailInput['campaign'];
  readonly company: WriteEmailInput['company'];
  readonly tracking: TrackingChoice;
  /** Null only for a campaign with no stored sequence (none since sequences are stored at create). */
  readonly sequence: CompiledSequence | null;
  /** Decided variant tests, by step. */
  readonly winners: ReadonlyMap<number, VariantId>;
  /** The active mailboxes the campaign may send from (of its set, when it names one), oldest first. */
  readonly mailboxes: readonly ContextMailbox[];
  /**
   * The mailboxes the campaign names (`mailbox_ids`), or null for every active mailbox of the
   * account. With a set, an email only ever goes out through one of them: never through the
   * default transport, even when none of them is active (the batch then waits).
   */
  readonly mailboxSet: readonly string[] | null;
  /** Who writes through `mailbox`, or through the default transport when null. */
  identity(mailbox: Pick<ContextMailbox, 'fromEmail' | 'fromName' | 'signature'> | null): SenderIdentity;
}

interface CampaignRow {
  name: string;
  brand_id: string | null;
  target_url: string;
  target_audience: string | null;
  target_outcome: string | null;
  value_for_target: string | null;
  calendar_link: string | null;
  track_opens: boolean;
  track_clicks: boolean;
  plain_text_only: boolean;
  sequence_version: number | null;
  mailbox_ids: string[] | null;
}

interface CompanyRow {
  name: string | null;
  domain: string;
  description: string | null;
  industry_keywords: string[];
}

/**
 * Reads the campaign row (null when it is not the account's), its account's default sender and
 * the active mailboxes the campaign may send from (of its set, when it names one), the scraped
 * company, and the sequence version `sequenceVersion` (the one in use when not given) with its
 * decided variant tests.
 *
 * Who writes: through a mailbox with a `from_name`, that person with the mailbox's signature (or
 * none); otherwise the account's default sender (name and signature); without a name, the company
 * the campaign speaks for (its scraped name, or the name its domain spells), and last the account's
 * name. So the From always names a person or a company.
 */
export async function readBatchContext(
  sequelize: Sequelize,
  defaultFromEmail: string,
  input: { readonly accountId: string; readonly campaignId: string; readonly companyId: string | null; readonly sequenceVersion?: number },
): Promise<BatchContext | null> {
  const { accountId, campaignId, companyId } = input;
  const [row] = await sequelize.query<CampaignRow>(
    `SELECT c.name, c.brand_id, c.target_url, c.target_audience, c.target_outcome, c.value_for_target, c.calendar_link,
            c.track_opens, c.track_clicks, c.plain_text_only, c.sequence_version,
            c.mailbox_ids
       FROM campaigns c WHERE c.id = $1 AND c.account_id = $2`,
    { bind: [campaignId, accountId], type: QueryTypes.SELECT },
  );
  if (row === undefined) return null;
  const sender = await readAccountSender(sequelize, accountId);
  if (sender === null) return null;
  let company: BatchContext['company'] = null;
  if (companyId !== null) {
    const [co] = await sequelize.query<CompanyRow>(`SELECT name, domain, description, industry_keywords FROM companies WHERE id = $1 AND account_id = $2`, {
      bind: [companyId, accountId],
      type: QueryTypes.SELECT,
    });
    if (co !== undefined) company = { name: co.name, domain: co.domain, description: co.description, industryKeywords: co.industry_keywords };
  }
  const version = input.sequenceVersion ?? row.sequence_version ?? undefined;
  const sequence = version === undefined ? null : await loadCompiledSequence(sequelize, accountId, campaignId, version);
  const winners = sequence === null ? new Map<number, VariantId>() : new Map([...(await readWinners(sequelize, campaignId, sequence.version))].map(([step, w]) => [step, w.variant]));
  const brand = brandName(company?.name, row.target_url);
  const set = row.mailbox_ids;
  return {
    brandId: row.brand_id,
    campaign: {
      name: row.name,
      targetAudience: row.target_audience,
      targetOutcome: row.target_outcome,
      valueForTarget: row.value_for_target,
      senderName: null,
      calendarLink: row.calendar_link,
      targetUrl: row.target_url,
    },
    company,
    tracking: { opens: row.track_opens, clicks: row.track_clicks, plainTextOnly: row.plain_text_only },
    sequence,
    winners,
    mailboxes: set === null ? sender.mailboxes : sender.mailboxes.filter((m) => set.includes(m.id)),
    mailboxSet: set,
    identity: (mailbox) => senderIdentity(mailbox, sender.account, brand, defaultFromEmail),
  };
}

/** The account's default sender, as senderIdentity reads it. */
export interface AccountSender {
  readonly name: string;
  readonly senderName: string | null;
  readonly senderSignature: string | null;
}

const nameOf = (v: string | null | undefined): string | null => (v === null || v === undefined || v.trim() === '' ? null : v.trim());

/**
 * Who writes through `mailbox` (null: the default transport) for a campaign speaking for `brand`:
 * the mailbox's named person with its signature (or none: never the default sender's), else the
 * account's default sender (name and signature), else the company, else the account's name.
 */
export function senderIdentity(
  mailbox: Pick<ContextMailbox, 'fromEmail' | 'fromName' | 'signature'> | null,
  account: AccountSender,
  brand: string | null,
  defaultFromEmail: string,
): SenderIdentity {
  const own = nameOf(mailbox?.fromName);
  const person = own ?? nameOf(account.senderName);
  const signature = own !== null ? nameOf(mailbox?.signature) : (nameOf(mailbox?.signature) ?? nameOf(account.senderSignature));
  return { name: person ?? brand ?? account.name, isPerson: person !== null, email: mailbox?.fromEmail ?? defaultFromEmail, company: brand, signature };
}

/** The account's default sender and its active mailboxes (for a preview of a sequence no campaign has yet). */
export async function readAccountSender(sequelize: Sequelize, accountId: string): Promise<{ account: AccountSender; mailboxes: ContextMailbox[] } | null> {
  const [row] = await sequelize.query<{ name: string; sender_name: string | null; sender_signature: string | null; mailboxes: ContextMailbox[] | null }>(
    `SELECT a.name, a.sender_name, a.sender_signature,
            (SELECT json_agg(json_build_object('id', m.id, 'fromEmail', m.from_email, 'fromName', m.from_name, 'signature', m.signature) ORDER BY m.created_at, m.id)
               FROM mailboxes m WHERE m.account_id = a.id AND m.active) AS mailboxes
       FROM accounts a WHERE a.id = $1`,
    { bind: [accountId], type: QueryTypes.SELECT },
  );
  if (row === undefined) return null;
  return { account: { name: row.name, senderName: row.sender_name, senderSignature: row.sender_signature }, mailboxes: row.mailboxes ?? [] };
}
