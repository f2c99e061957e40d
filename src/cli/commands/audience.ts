import { InvalidArgumentError, type Command } from 'commander';
import { previewAudience, type AudiencePreviewInput } from '../../campaigns/audience/preview';
import { filtersProblem } from '../../campaigns/audience/filters-schema';
import type { AudienceFilters } from '../../campaigns/audience/types';
import { Account } from '../../db/models';
import { InvalidInputError, NotFoundError } from '../../errors/domain-errors';
import { print, withDatabase } from '../support';

/** An operator error: the message is printed as is and the command exits with status 1. */
class CommandFailed extends Error {}

/**
 * `--filters`: the camelCase filters of POST /v1/audiences/preview as JSON, checked against the
 * domain's schema of them (AUDIENCE_FILTERS_SCHEMA: members, value types, bounds, custom field
 * names), so a typo is refused rather than ignored, by the same rules as the API.
 */
export function parseFiltersJson(value: string): AudienceFilters {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('expected a JSON object of audience filters');
  }
  const problem = filtersProblem(parsed);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return parsed as AudienceFilters;
}

/** `outreach audience ...`: audiences over an account's leads. */
export function registerAudienceCommands(program: Command): void {
  const audience = program.command('audience').description("Audiences over an account's leads");
  audience
    .command('preview')
    .description(
      'Preview an audience given as text (read by the built-in parser), as --filters or as --campaign (its stored audience): the filters, how ' +
        'many reachable leads match, the first 10 of them and why none match; with --lead, why that lead is in or out, filter by filter ' +
        '(see POST /v1/audiences/preview). Prints the preview as JSON.',
    )
    .argument('[text]', 'the audience as written, e.g. "CTOs at fintechs in Germany"')
    .requiredOption('--account <id>', 'account id')
    .option('--filters <json>', 'the audience as filters (camelCase JSON), instead of text', parseFiltersJson)
    .option('--campaign <id>', "a campaign's stored audience, instead of text")
    .option('--lead <id>', 'a lead to explain: why it is in or out of the audience')
    .action(async (text: string | undefined, opts: { account: string; filters?: AudienceFilters; campaign?: string; lead?: string }) => {
      const input: AudiencePreviewInput = {
        ...(text === undefined ? {} : { text }),
        ...(opts.filters === undefined ? {} : { filters: opts.filters }),
        ...(opts.campaign === undefined ? {} : { campaignId: opts.campaign }),
        ...(opts.lead === undefined ? {} : { leadId: opts.lead }),
      };
      try {
        const preview = await withDatabase(async (db) => {
          if ((await Account.findByPk(opts.account, { attributes: ['id'] })) === null) throw new CommandFailed(`No account ${opts.account}`);
          return previewAudience(db.sequelize, opts.account, input, { text: 'the text', filters: '--filters', campaignId: '--campaign' });
        });
        print(preview);
      } catch (err) {
        if (!(err instanceof CommandFailed || err instanceof InvalidInputError || err instanceof NotFoundError)) throw err;
        process.stderr.write(`outreach: ${err.message}\n`);
        process.exitCode = 1;
      }
    });
}
