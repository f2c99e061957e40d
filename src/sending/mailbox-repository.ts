import { isIP } from 'node:net';
import { QueryTypes, type Sequelize } from 'sequelize';
import { parseMailboxFromName, parseSenderName, parseSignature } from '../accounts/default-sender';
import { newId } from '../accounts/ids';
import { judgeAddress, type AddressPolicy } from '../egress/address-policy';
import { normalizeEmail } from '../suppressions/suppression-repository';
import { checkDkimPrivateKey, DkimKeyError } from './dkim-key';
import { parseSmtpUrl, SmtpUrlError, type SmtpServer } from './smtp-url';
import { ConflictError, InvalidInputError } from '../errors/domain-errors';

export interface NewMailbox {
  readonly fromEmail: string;
  readonly fromName?: string;
  /** Plain text under every email sent from the mailbox; blank or null: none. */
  readonly signature?: string | null;
  readonly smtpUrl: string;
  readonly dailyCap?: number;
  readonly minGapSeconds?: number;
  readonly dkim?: { readonly domain: string; readonly selector: string; readonly privateKey: string };
}

/** A change to a mailbox: a member left out is kept; null clears the name or the signature. */
export interface MailboxPatch {
  readonly fromName?: string | null;
  readonly signature?: string | null;
  readonly dailyCap?: number;
  readonly minGapSeconds?: number;
}

interface MailboxRow {
  id: string;
  from_email: string;
  from_name: string | null;
  signature: string | null;
  smtp_url: string;
  daily_cap: number;
  min_gap_seconds: number;
  dkim_domain: string | null;
  dkim_selector: string | null;
  active: boolean;
  sent_today_now: number;
  last_sent_at: Date | null;
  created_at: Date;
}

/** The columns a client may see: never the password (inside smtp_url) nor the DKIM key. */
const COLUMNS = `id, from_email, from_name, signature, smtp_url, daily_cap, min_gap_seconds, dkim_domain, dkim_selector, active,
  CASE WHEN sent_day = (now() AT TIME ZONE 'UTC')::date THEN sent_today ELSE 0 END AS sent_today_now, last_sent_at, created_at`;

/** A mailbox as the API shows it: the server's host, port and user, never its password or the DKIM key. */
export function renderMailbox(r: MailboxRow) {
  const server = parseSmtpUrl(r.smtp_url);
  return {
    id: r.id,
    fromEmail: r.from_email,
    fromName: r.from_name,
    signature: r.signature,
    smtp: { host: server.host, port: server.port, secure: server.secure, user: server.user ?? null },
    dailyCap: r.daily_cap,
    minGapSeconds: r.min_gap_seconds,
    dkim: r.dkim_domain === null || r.dkim_selector === null ? null : { domain: r.dkim_domain, selector: r.dkim_selector },
    active: r.active,
    sentToday: r.sent_today_now,
    lastSentAt: r.last_sent_at === null ? null : r.last_sent_at.toISOString(),
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * Checks what the schema cannot: the URL's form and credentials, a host the worker may connect to,
 * and a DKIM key nodemailer can sign with. Each problem is a 400 that names it.
 */
function checkMailbox(m: NewMailbox, policy: AddressPolicy): SmtpServer {
  let server: SmtpServer;
  try {
    server = parseSmtpUrl(m.smtpUrl);
  } catch (err) {
    if (err instanceof SmtpUrlError) throw new InvalidInputError(err.message);
    throw err;
  }
  if (server.user === undefined || server.password === undefined) throw new InvalidInputError('smtpUrl must carry a user and a password (smtp://user:password@host:port)');
  // A literal address is judged now; a name is resolved and judged when the worker connects.
  const literal = isIP(server.host) !== 0 ? server.host : server.host.toLowerCase() === 'localhost' ? '127.0.0.1' : null;
  if (literal !== null) {
    const verdict = judgeAddress(literal, policy);
    if (!verdict.allowed) throw new InvalidInputError(`smtpUrl host ${server.host} is not allowed: ${verdict.range} address`);
  }
  if (m.dkim !== undefined) {
    try {
      checkDkimPrivateKey(m.dkim.privateKey);
    } catch (err) {
      if (err instanceof DkimKeyError) throw new InvalidInputError(err.message);
      throw err;
    }
  }
  return server;
}

/**
 * Adds a mailbox. The address of a deactivated mailbox may be added again: that row comes back with
 * the new settings and keeps today's count, so re-adding a mailbox cannot reset its daily cap.
 */
export async function createMailbox(sequelize: Sequelize, accountId: string, m: NewMailbox, policy: AddressPolicy) {
  const fromName = parseMailboxFromName(m.fromName, 'fromName');
  const signature = parseSignature(m.signature ?? null, 'signature');
  checkMailbox(m, policy);
  const fromEmail = normalizeEmail(m.fromEmail);
  const rows = await sequelize.query<MailboxRow>(
    `INSERT INTO mailboxes (id, account_id, from_email, from_name, smtp_url, daily_cap, min_gap_seconds, dkim_domain, dkim_selector, dkim_private_key, signature)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (account_id, from_email) DO UPDATE SET
       from_name = EXCLUDED.from_name, signature = EXCLUDED.signature, smtp_url = EXCLUDED.smtp_url, daily_cap = EXCLUDED.daily_cap, min_gap_seconds = EXCLUDED.min_gap_seconds,
       dkim_domain = EXCLUDED.dkim_domain, dkim_selector = EXCLUDED.dkim_selector, dkim_private_key = EXCLUDED.dkim_private_key,
       active = true, updated_at = now()
     WHERE mailboxes.active = false
     RETURNING ${COLUMNS}`,
    {
      bind: [
        newId('mbx'),
        accountId,
        fromEmail,
        fromName,
        m.smtpUrl,
        m.dailyCap ?? 50,
        m.minGapSeconds ?? 60,
        m.dkim?.domain.toLowerCase() ?? null,
        m.dkim?.selector ?? null,
        m.dkim?.privateKey ?? null,
        signature,
      ],
      type: QueryTypes.SELECT,
    },
  );
  const row = rows[0];
  if (row === undefined) throw new ConflictError(`A mailbox for ${fromEmail} already exists`);
  return renderMailbox(row);
}

/** The account's active mailboxes, oldest first. */
export async function listMailboxes(sequelize: Sequelize, accountId: string) {
  const rows = await sequelize.query<MailboxRow>(`SELECT ${COLUMNS} FROM mailboxes WHERE account_id = $1 AND active ORDER BY created_at, id`, {
    bind: [accountId],
    type: QueryTypes.SELECT,
  });
  return rows.map(renderMailbox);
}

/**
 * Stops sending through a mailbox (idempotent). The row stays: sent emails keep pointing at it
 * and its daily count survives until the day ends. Null when the account has no such mailbox.
 */
export async function deactivateMailbox(sequelize: Sequelize, accountId: string, id: string) {
  const rows = await sequelize.query<MailboxRow>(
    `UPDATE mailboxes SET active = false, updated_at = CASE WHEN active THEN now() ELSE updated_at END
     WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
    { bind: [id, accountId], type: QueryTypes.SELECT },
  );
  return rows[0] === undefined ? null : renderMailbox(rows[0]);
}

/**
 * Changes an active mailbox's name, signature or pace (members left out are kept, in the same
 * statement). Null when the account has no such active mailbox: a deactivated one is not edited,
 * since it sends nothing and POST brings it back with settings of its own.
 */
export async function updateMailbox(sequelize: Sequelize, accountId: string, id: string, patch: MailboxPatch) {
  const fromName = patch.fromName === undefined ? undefined : parseSenderName(patch.fromName, 'fromName');
  const signature = patch.signature === undefined ? undefined : parseSignature(patch.signature, 'signature');
  const rows = await sequelize.query<MailboxRow>(
    `UPDATE mailboxes SET
       from_name = CASE WHEN $3::boolean THEN $4::text ELSE from_name END,
       signature = CASE WHEN $5::boolean THEN $6::text ELSE signature END,
       daily_cap = COALESCE($7::integer, daily_cap),
       min_gap_seconds = COALESCE($8::integer, min_gap_seconds),
       updated_at = now()
     WHERE id = $1 AND account_id = $2 AND active RETURNING ${COLUMNS}`,
    {
      bind: [id, accountId, fromName !== undefined, fromName ?? null, signature !== undefined, signature ?? null, patch.dailyCap ?? null, patch.minGapSeconds ?? null],
      type: QueryTypes.SELECT,
    },
  );
  return rows[0] === undefined ? null : renderMailbox(rows[0]);
}
