import { QueryTypes, type Sequelize } from 'sequelize';
import { InvalidInputError, NotFoundError } from '../errors/domain-errors';

/**
 * Who writes an email: a display name for the From header and a plain-text signature. A mailbox
 * has its own (`mailboxes.from_name`, `signature`); an account's default sender
 * (`accounts.sender_name`, `sender_signature`) is used for emails sent without a mailbox. The rules
 * below are the one definition of both, for the API schemas, the mailbox repository and the CLI.
 */

/** A sender name: 1 to 100 characters as given, stored trimmed. */
export const SENDER_NAME_MAX_LENGTH = 100;
/** A signature: at most 2,000 characters as given, and 15 lines once normalised. */
export const SIGNATURE_MAX_LENGTH = 2_000;
export const SIGNATURE_MAX_LINES = 15;

/**
 * Line terminators (CR, LF, VT, FF, NEL, LINE and PARAGRAPH SEPARATOR): a name holding one could
 * start a new header line, and a signature holding one is normalised to \n.
 */
const LINE_BREAKS = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;
const HAS_LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/;
/**
 * Characters that make a display name look like (or break out into) an address: `"` ends the quoted
 * name, `<` and `>` delimit the address, `@` makes the name read as one ("ceo@bank.example").
 */
const ADDRESS_LIKE = /[<>"@]/;
/** Control characters a plain-text signature has no use for; tabs and (normalised) line breaks are fine. */
const CONTROL = /[^\P{Cc}\t\n]/u;

/** Length in characters (code points), as the API schemas count it. */
const charCount = (s: string): number => [...s].length;

/** A name or signature the rules refuse; `field` is what the caller calls it (`name`, `fromName`, `--name`). */
export class SenderInputError extends InvalidInputError {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field} ${problem}`);
  }
}

/** What is wrong with a sender name, or null. Only the characters; blank and length are checked by `parseSenderName`. */
function nameCharacterProblem(value: string): string | null {
  if (HAS_LINE_BREAK.test(value)) return 'must be a single line (no line breaks)';
  if (ADDRESS_LIKE.test(value)) return 'must not contain <, >, " or @: it is shown as a display name and must never look like an address';
  return null;
}

/**
 * A sender name checked and trimmed; null stays null (clears it). Throws SenderInputError naming
 * `field`: blank, over 100 characters, a line break, or one of `<>"@`.
 */
export function parseSenderName(value: string | null, field: string): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (trimmed === '') throw new SenderInputError(field, 'must not be blank');
  if (charCount(value) > SENDER_NAME_MAX_LENGTH) throw new SenderInputError(field, `must be at most ${SENDER_NAME_MAX_LENGTH} characters`);
  const problem = nameCharacterProblem(value);
  if (problem !== null) throw new SenderInputError(field, problem);
  return trimmed;
}

/**
 * A mailbox's `fromName` on create (POST /v1/mailboxes), which has always taken any 1 to 100
 * characters, blank ones included. Of the name rules it gets only what keeps the name from forging
 * an address or a header line; a blank name, which showed as no name, is stored as none. So no
 * client is refused a harmless name it could give before.
 */
export function parseMailboxFromName(value: string | undefined, field: string): string | null {
  if (value === undefined || value.trim() === '') return null;
  return parseSenderName(value, field);
}

/**
 * A signature normalised: line endings to \n, trailing white space cut from every line, blank
 * lines at the start and the end dropped; blank (or null) is none. Throws SenderInputError naming
 * `field`: over 2,000 characters, over 15 lines, or control characters other than tabs.
 */
export function parseSignature(value: string | null, field: string): string | null {
  if (value === null) return null;
  if (charCount(value) > SIGNATURE_MAX_LENGTH) throw new SenderInputError(field, `must be at most ${SIGNATURE_MAX_LENGTH} characters`);
  const lines = value
    .replace(LINE_BREAKS, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/u, ''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return null;
  if (lines.length > SIGNATURE_MAX_LINES) throw new SenderInputError(field, `must be at most ${SIGNATURE_MAX_LINES} lines (this one has ${lines.length})`);
  const text = lines.join('\n');
  if (CONTROL.test(text)) throw new SenderInputError(field, 'must be plain text: no control characters other than tabs and line breaks');
  return text;
}

export interface DefaultSender {
  readonly name: string | null;
  readonly signature: string | null;
}

/** A change to the default sender: a member left out is kept, null clears it. */
export interface DefaultSenderPatch {
  readonly name?: string | null;
  readonly signature?: string | null;
}

interface SenderRow {
  sender_name: string | null;
  sender_signature: string | null;
}

const view = (r: SenderRow): DefaultSender => ({ name: r.sender_name, signature: r.sender_signature });

/** The account's default sender. NotFoundError when there is no such account. */
export async function getDefaultSender(sequelize: Sequelize, accountId: string): Promise<DefaultSender> {
  const rows = await sequelize.query<SenderRow>('SELECT sender_name, sender_signature FROM accounts WHERE id = $1', {
    bind: [accountId],
    type: QueryTypes.SELECT,
  });
  if (rows[0] === undefined) throw new NotFoundError('account');
  return view(rows[0]);
}

/**
 * Applies a patch (each value checked and normalised as above; SenderInputError names the member)
 * and returns the default sender after it. One statement: members left out keep their value even
 * when another writer changes them at the same moment.
 */
export async function updateDefaultSender(sequelize: Sequelize, accountId: string, patch: DefaultSenderPatch): Promise<DefaultSender> {
  const name = patch.name === undefined ? undefined : parseSenderName(patch.name, 'name');
  const sig = patch.signature === undefined ? undefined : parseSignature(patch.signature, 'signature');
  const rows = await sequelize.query<SenderRow>(
    `UPDATE accounts SET
       sender_name = CASE WHEN $2::boolean THEN $3::text ELSE sender_name END,
       sender_signature = CASE WHEN $4::boolean THEN $5::text ELSE sender_signature END,
       updated_at = now()
     WHERE id = $1 RETURNING sender_name, sender_signature`,
    { bind: [accountId, name !== undefined, name ?? null, sig !== undefined, sig ?? null], type: QueryTypes.SELECT },
  );
  if (rows[0] === undefined) throw new NotFoundError('account');
  return view(rows[0]);
}
