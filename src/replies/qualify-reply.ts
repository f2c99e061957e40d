import type { Sequelize } from 'sequelize';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import { qualifyReply } from '../qualification';
import type { Qualifier } from './qualifier';

/**
 * The account's classifier as a Qualifier: its own LLM key when set (the cost charged to the
 * reply's campaign, once per reply id), the built-in classifier otherwise or when the LLM fails.
 */
export function replyQualifier(deps: { readonly sequelize: Sequelize; readonly config: Config; readonly log: Logger }): Qualifier {
  return (accountId, input, ctx) =>
    qualifyReply(deps, accountId, input, { campaignId: ctx.campaignId ?? undefined, idempotencyKey: ctx.replyId, now: ctx.receivedAt });
}
