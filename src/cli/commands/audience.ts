import { InvalidArgumentError, type Command } from 'commander';
import { previewAudience, type AudiencePreviewInput } from '../../campaigns/audience/preview';
import type { AudienceFilters } from '../../campaigns/audience/types';
import { Account } from '../../db/models';
import { InvalidInputError } from '../../errors/domain-errors';
import { SENIORITIES } from '../../leads/profile/types';
import { print, withDatabase } from '../support';

/** An operator error: the message is printed as is and the command exits with status 1. */
class CommandFailed extends Error {}

const LIST_MEMBERS = ['titles', 'departments', 'locations', 'industries', 'keywords'] as const;
const EXCLUDE_MEMBERS = ['titles', 'companies', 'domains', 'emails', 'industries'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function textList(value: unknown, where: string): void {
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string' && s.trim() !== '')) {
    throw new InvalidArgumentError(`${where} must be a list of non-empty strings`);
  }
}

function knownKeys(value: Record<string, unknown>, known: readonly string[], where: string): void {
  const unknown = Object.keys(value).find((k) => !known.includes(k));
  if (unknown !== undefined) throw new InvalidArgumentError(`${where} has unknown field ${JSON.stringify(unknown)}`);
}

/**
 * `--filters`: the camelCase filters of POST /v1/audiences/preview as JSON, checked for the shape
 * the API's schema gives them (members, value types), so a typo is refused rather than ignored.
 */
export function parseFiltersJson(value: string): AudienceFilters {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('expected a JSON object of audience filters');
  }
  if (!isObject(parsed)) throw new InvalidArgumentError('expected a JSON object of audience filters');
  knownKeys(parsed, [...LIST_MEMBERS, 'seniorities', 'companySizes', 'exclude'], 'filters');
  for (const m of LIST_MEMBERS) if (parsed[m] !== undefined) textList(parsed[m], `filters.${m}`);
  if (parsed.seniorities !== undefined) {
    textList(parsed.seniorities, 'filters.seniorities');
    const bad = (parsed.seniorities as string[]).find((s) => !(SENIORITIES as readonly string[]).includes(s));
    if (bad !== undefined) throw new InvalidArgumentError(`filters.seniorities: ${JSON.stringify(bad)} is not one of ${SENIORITIES.join(', ')}`);
  }
  if (parsed.companySizes !== undefined) {
    const sizes = parsed.companySizes;
    const ok = (n: unknown): boolean => n === undefined || (Number.isInteger(n) && (n as number) >= 0);
    if (!Array.isArray(sizes) || !sizes.every((r) => isObject(r) && Object.keys(r).length > 0 && Object.keys(r).every((k) => k === 'min' || k === 'max') && ok(r.min) && ok(r.max))) {
      throw new InvalidArgumentError('filters.companySizes must be a list of {"min", "max"} employee counts');
    }
  }
  if (parsed.exclude !== undefined) {
    const ex = parsed.exclude;
    if (!isObject(ex)) throw new InvalidArgumentError('filters.exclude must be an object');
    knownKeys(ex, EXCLUDE_MEMBERS, 'filters.exclude');
    for (const m of EXCLUDE_MEMBERS) if (ex[m] !== undefined) textList(ex[m], `filters.exclude.${m}`);
  }
  return parsed as AudienceFilters;
}

/** `outreach audience ...`: audiences over an account's leads. */
export function registerAudienceCommands(program: Command): void {
  const audience = program.command('audience').description("Audiences over an account's leads");
  audience
    .command('preview')
    .description(
      'Preview an audience given as text (read by the built-in parser) or as --filters: the filters, how many reachable leads match, the first 10 ' +
        'of them and why none match (see POST /v1/audiences/preview). Prints the preview as JSON.',
    )
    .argument('[text]', 'the audience as written, e.g. "CTOs at fintechs in Germany"')
    .requiredOption('--account <id>', 'account id')
    .option('--filters <json>', 'the audience as filters (camelCase JSON), instead of text', parseFiltersJson)
    .action(async (text: string | undefined, opts: { account: string; filters?: AudienceFilters }) => {
      const input: AudiencePreviewInput = { ...(text === undefined ? {} : { text }), ...(opts.filters === undefined ? {} : { filters: opts.filters }) };
      try {
        const preview = await withDatabase(async (db) => {
          if ((await Account.findByPk(opts.account, { attributes: ['id'] })) === null) throw new CommandFailed(`No account ${opts.account}`);
          return previewAudience(db.sequelize, opts.account, input, { text: 'the text', filters: '--filters' });
        });
        print(preview);
      } catch (err) {
        if (!(err instanceof CommandFailed || err instanceof InvalidInputError)) throw err;
        process.stderr.write(`outreach: ${err.message}\n`);
        process.exitCode = 1;
      }
    });
}
