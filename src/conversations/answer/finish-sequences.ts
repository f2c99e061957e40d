import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { ACTIVE_STATES_SQL, SKIP_REASONS } from '../../campaigns/enrolment/states';

/**
 * Ends every sequence of the lead still under way, in any campaign of the account: `finished`,
 * reason "answered by the user". The user took the conversation over; an automatic follow-up
 * after their answer would talk over them. Run in the transaction that stores the answer, so
 * there is no moment with the answer written and a step still due. The campaigns' batches send
 * only to active rows (queued, in_sequence), so nothing more goes to the lead automatically.
 * Returns the campaigns whose sequence ended.
 */
export async function finishSequencesForAnswer(sequelize: Sequelize, tx: Transaction, accountId: string, leadId: string): Promise<string[]> {
  const rows = await sequelize.query<{ campaign_id: string }>(
    `UPDATE campaign_enrolments SET state = 'finished', reason = $3, detail = NULL, updated_at = now()
      WHERE account_id = $1 AND lead_id = $2 AND state IN ${ACTIVE_STATES_SQL}
      RETURNING campaign_id`,
    { bind: [accountId, leadId, SKIP_REASONS.answeredByUser], type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.map((r) => r.campaign_id);
}
