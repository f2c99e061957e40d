/**
 * Enrolment by hand (POST /campaigns/:id/leads on either surface): the leads named by id or
 * address are put into the campaign through the same enrolment the daily planning uses, so each
 * is queued or skipped with its reason by the same checks. One transaction: the campaign's status
 * is read under a share lock (a campaign that completes meanwhile waits for this enrolment), the
 * addresses are looked up, and the leads enrolled.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { enrolLeads, enrolSettingsOf } from '../enrolment/enrol-leads';
import { ConflictError, NotFoundError } from '../../errors/domain-errors';

/** Most ids and addresses one call may name, together. */
export const MAX_ENROL_PER_CALL = 1000;

/** Statuses a campaign does not leave: it takes no more leads. */
const ENDED = new Set(['completed', 'failed']);

export interface EnrolByHandInput {
  readonly leadIds?: readonly string[];
  readonly emails?: readonly string[];
}

export interface EnrolByHandResult {
  /** Leads queued now (new to the campaign, or removed or skipped before and now allowed). */
  readonly added: number;
  /** Leads skipped now, by reason ("in another campaign (Spring)", "blocklisted", ...). */
  readonly skipped: Record<string, number>;
  /** Leads the campaign already had (in any state but a retaken one), left as they are. */
  readonly alreadyEnrolled: number;
  /** Ids and addresses that name no lead of the account, as given. */
  readonly notFound: string[];
}

export async function enrolByHand(sequelize: Sequelize, accountId: string, campaignId: string, input: EnrolByHandInput): Promise<EnrolByHandResult> {
  const settings = await enrolSettingsOf(sequelize, accountId, campaignId);
  if (settings === null) throw new NotFoundError('campaign');
  // Addresses are stored lower-case; what the caller wrote is what not_found reports.
  const emails = new Map<string, string>();
  for (const e of input.emails ?? []) if (!emails.has(e.trim().toLowerCase())) emails.set(e.trim().toLowerCase(), e);
  const givenIds = [...new Set(input.leadIds ?? [])];
  return sequelize.transaction(async (tx) => {
    const [campaign] = await sequelize.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1 AND account_id = $2 FOR SHARE', {
      bind: [campaignId, accountId],
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    if (campaign === undefined) throw new NotFoundError('campaign');
    if (ENDED.has(campaign.status)) throw new ConflictError(`campaign ${campaignId} is ${campaign.status}: it takes no more leads`);
    const byEmail =
      emails.size === 0
        ? []
        : await sequelize.query<{ id: string; email: string }>('SELECT id, email FROM leads WHERE account_id = $1 AND email = ANY($2::text[])', {
            bind: [accountId, [...emails.keys()]],
            type: QueryTypes.SELECT,
            transaction: tx,
          });
    const ids = [...new Set([...givenIds, ...byEmail.map((l) => l.id)])];
    const result = await enrolLeads(sequelize, settings, ids, { source: 'manual', day: null, retake: true }, tx);
    const unknown = new Set(result.unknown);
    const foundEmails = new Set(byEmail.map((l) => l.email));
    return {
      added: result.queued.length,
      skipped: result.skipped,
      alreadyEnrolled: result.alreadyEnrolled.length,
      notFound: [...givenIds.filter((id) => unknown.has(id)), ...[...emails].filter(([key]) => !foundEmails.has(key)).map(([, given]) => given)],
    };
  });
}
