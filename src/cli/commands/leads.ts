import fs from 'node:fs';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { Account } from '../../db/models';
import { ImportHeaderError } from '../../leads/import/columns';
import { importAndVerify, type VerifiedImportResult } from '../../leads/import/import-and-verify';
import { print, withDatabase } from '../support';

/** Files above this size get a progress bar even when stderr is not a terminal (a log shows it advancing). */
const PROGRESS_ABOVE_BYTES = 1024 * 1024;

/** An operator error: the message is printed as is and the command exits with status 1. */
class CommandFailed extends Error {}

const megabytes = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MB`;

function progressBar(size: number): SingleBar | null {
  if (!process.stderr.isTTY && size <= PROGRESS_ABOVE_BYTES) return null;
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: 'Importing leads [{bar}] {percentage}% | {done} of {size}',
      hideCursor: true,
      // Off a terminal, one line a second instead of redrawing one line in place.
      noTTYOutput: true,
      notTTYSchedule: 1000,
    },
    Presets.shades_classic,
  );
  bar.start(size, 0, { done: megabytes(0), size: megabytes(size) });
  return bar;
}

async function readableFileSize(file: string): Promise<number> {
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new CommandFailed(`${file} is not a file`);
    await fs.promises.access(file, fs.constants.R_OK);
    return stat.size;
  } catch (err) {
    if (err instanceof CommandFailed) throw err;
    throw new CommandFailed(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The file imported as POST /v1/leads/import does it: the new leads verified once committed. */
async function importFile(file: string, accountId: string): Promise<VerifiedImportResult> {
  const size = await readableFileSize(file);
  return withDatabase(async (db, config) => {
    if ((await Account.findByPk(accountId, { attributes: ['id'] })) === null) throw new CommandFailed(`No account ${accountId}`);
    const bar = progressBar(size);
    try {
      return await importAndVerify({ sequelize: db.sequelize, config }, accountId, fs.createReadStream(file), {
        onBytes: (n) => bar?.update(n, { done: megabytes(n) }),
      });
    } catch (err) {
      if (err instanceof ImportHeaderError) throw new CommandFailed(err.message);
      const code = (err as NodeJS.ErrnoException).code;
      if (typeof code === 'string' && code.startsWith('E')) throw new CommandFailed(`cannot read ${file}: ${code}`);
      throw err;
    } finally {
      bar?.stop();
    }
  });
}

/** `outreach leads ...`: operator commands on an account's leads. */
export function registerLeadCommands(program: Command): void {
  const leads = program.command('leads').description("An account's leads");
  leads
    .command('import')
    .description('Import leads from a CSV file (header row first; see POST /v1/leads/import). Prints the result as JSON.')
    .argument('<file>', 'the CSV file')
    .requiredOption('--account <id>', 'account id')
    .action(async (file: string, opts: { account: string }) => {
      try {
        print(await importFile(file, opts.account));
      } catch (err) {
        if (!(err instanceof CommandFailed)) throw err;
        process.stderr.write(`outreach: ${err.message}\n`);
        process.exitCode = 1;
      }
    });
}
