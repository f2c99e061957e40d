import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import {
  getDefaultSender,
  parseSenderName,
  parseSignature,
  SenderInputError,
  updateDefaultSender,
  type DefaultSender,
  type DefaultSenderPatch,
} from '../../accounts/default-sender';
import { NotFoundError } from '../../errors/domain-errors';
import { print, withDatabase } from '../support';

/** Input the command refuses: printed as `error: <message>`, exit 1, nothing changed. */
class Refused extends Error {}

// snake_case like the CLI's other output.
const render = (accountId: string, s: DefaultSender) => ({ account_id: accountId, name: s.name, signature: s.signature });

interface SetOptions {
  account: string;
  name?: string;
  signature?: string;
  signatureFile?: string;
  clearName?: boolean;
  clearSignature?: boolean;
}

/**
 * The patch the flags ask for, checked by the rules the API applies (src/accounts/default-sender.ts),
 * each problem named by its flag; before the database is opened, so a bad value costs nothing.
 */
async function patchFromFlags(opts: SetOptions): Promise<DefaultSenderPatch> {
  if (opts.name !== undefined && opts.clearName === true) throw new Refused('give --name or --clear-name, not both');
  const signatureFlags = [opts.signature !== undefined, opts.signatureFile !== undefined, opts.clearSignature === true].filter(Boolean).length;
  if (signatureFlags > 1) throw new Refused('give one of --signature, --signature-file and --clear-signature');
  if (opts.name === undefined && opts.clearName !== true && signatureFlags === 0) {
    throw new Refused('nothing to change: give --name, --signature, --signature-file, --clear-name or --clear-signature');
  }
  const patch: { name?: string | null; signature?: string | null } = {};
  if (opts.clearName === true) patch.name = null;
  if (opts.name !== undefined) patch.name = parseSenderName(opts.name, '--name');
  if (opts.clearSignature === true) patch.signature = null;
  if (opts.signature !== undefined) patch.signature = parseSignature(opts.signature, '--signature');
  if (opts.signatureFile !== undefined) {
    let text: string;
    try {
      text = await readFile(opts.signatureFile, 'utf8');
    } catch (err) {
      throw new Refused(`--signature-file ${opts.signatureFile} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    patch.signature = parseSignature(text, '--signature-file');
  }
  return patch;
}

/**
 * Runs a command's work and prints its result. Refused input (a bad value, contradicting flags, an
 * unknown account) exits 1 with the message, once the database is closed again.
 */
async function run<T>(cmd: Command, accountId: string, work: () => Promise<T>): Promise<void> {
  let result: T;
  try {
    result = await work();
  } catch (err) {
    if (err instanceof Refused || err instanceof SenderInputError) cmd.error(`error: ${err.message}`, { exitCode: 1 });
    if (err instanceof NotFoundError) cmd.error(`error: No account ${accountId}`, { exitCode: 1 });
    throw err;
  }
  print(result);
}

/** `outreach sender show|set`: an account's default sender, the From name and signature of emails sent without a mailbox. */
export function registerSenderCommands(program: Command): void {
  const sender = program
    .command('sender')
    .description("An account's default sender: the From name and signature of emails sent without a mailbox (a mailbox has its own)");

  const show = sender
    .command('show')
    .description('Show the default sender: {"account_id", "name", "signature"}; null: not set (emails then name the campaign\'s company)')
    .requiredOption('--account <id>', 'account id')
    .action((opts: { account: string }) =>
      run(show, opts.account, () => withDatabase(async (db) => render(opts.account, await getDefaultSender(db.sequelize, opts.account)))),
    );

  const set = sender
    .command('set')
    .description('Set or clear the default sender; what no flag names is kept')
    .requiredOption('--account <id>', 'account id')
    .option('--name <name>', 'the From name: 1 to 100 characters, one line, without <, >, " or @; stored trimmed')
    .option('--signature <text>', 'the signature: plain text, at most 2000 characters and 15 lines; blank clears it')
    .option('--signature-file <path>', 'read the signature from a file (UTF-8): the way to give several lines')
    .option('--clear-name', 'remove the name: emails name the campaign\'s company')
    .option('--clear-signature', 'remove the signature')
    .action((opts: SetOptions) =>
      run(set, opts.account, async () => {
        const patch = await patchFromFlags(opts);
        return withDatabase(async (db) => render(opts.account, await updateDefaultSender(db.sequelize, opts.account, patch)));
      }),
    );
}
