/**
 * Writes an edit of a campaign: its row's columns, a new version of its sequence when the steps
 * change, the recount of its audience when who it reaches changes, and the change's history row,
 * in one transaction. The campaign's workflow runs it as an activity (the Update's handler), so
 * the row changes in the order the workflow applies edits; a draft, which has no workflow, is
 * edited by the API calling it directly.
 *
 * Idempotent: a retried call finds its history row and returns what the first call did.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { ApplyEditInput, ApplyEditResult } from '../../../workflows/campaign/contract';
import { planOf, type CampaignSequence } from '../model/sequence';
import { countAudience, storedAudience } from '../planning/audience-match';
import { insertSequence } from '../sequences/sequence-repository';
import { insertChange } from './change-repository';
import { AUDIENCE_COLUMNS, setClauses } from './editable-columns';

export async function applyEdit(sequelize: Sequelize, input: ApplyEditInput): Promise<ApplyEditResult> {
  const { campaignId, accountId, edit, at } = input;
  return sequelize.transaction(async (tx) => {
    const [row] = await sequelize.query<{ sequence_version: number | null }>(`SELECT sequence_version FROM campaigns WHERE id = $1 AND account_id = $2 FOR UPDATE`, {
      bind: [campaignId, accountId],
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    if (row === undefined) throw new Error(`campaign ${campaignId} not found`);
    const fresh = await insertChange(sequelize, tx, campaignId, accountId, edit.change, at);
    if (!fresh) return { sequence: edit.sequence === undefined ? null : await currentPlan(sequelize, tx, campaignId, row.sequence_version) };

    const columns = edit.columns;
    if (Object.keys(columns).length > 0) {
      const { sql, values } = setClauses(columns, 2);
      await sequelize.query(`UPDATE campaigns SET ${sql.join(', ')}, updated_at = now() WHERE id = $1`, { bind: [campaignId, ...values], transaction: tx });
    }
    if (AUDIENCE_COLUMNS.some((c) => Object.hasOwn(columns, c))) await recount(sequelize, tx, campaignId, accountId);
    if (edit.sequence === undefined) return { sequence: null };
    const version = (row.sequence_version ?? 0) + 1;
    await insertSequence(sequelize, tx, campaignId, version, edit.sequence);
    return { sequence: planOf(edit.sequence, version) };
  });
}

/** The plan of the version in use (a retried edit returns the version its first call made). */
async function currentPlan(sequelize: Sequelize, tx: Transaction, campaignId: string, version: number | null): Promise<ApplyEditResult['sequence']> {
  if (version === null) return null;
  const [stored] = await sequelize.query<{ sequence: CampaignSequence }>(`SELECT sequence FROM campaign_sequences WHERE campaign_id = $1 AND version = $2`, {
    bind: [campaignId, version],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return stored === undefined ? null : planOf(stored.sequence, version);
}

/** The audience's matching reachable leads, counted again on the row's new audience and lists. */
async function recount(sequelize: Sequelize, tx: Transaction, campaignId: string, accountId: string): Promise<void> {
  const [c] = await sequelize.query<{ audience_filters: never; audience_source: string; lead_list_ids: string[] }>(
    `SELECT audience_filters, audience_source, lead_list_ids FROM campaigns WHERE id = $1`,
    { bind: [campaignId], type: QueryTypes.SELECT, transaction: tx },
  );
  if (c === undefined) return;
  const counted = await countAudience(sequelize, accountId, storedAudience(c.audience_filters, c.audience_source), c.lead_list_ids);
  await sequelize.query(`UPDATE campaigns SET audience_matched_leads = $2, audience_reason = $3 WHERE id = $1`, { bind: [campaignId, counted.matchedLeads, counted.reason], transaction: tx });
}
