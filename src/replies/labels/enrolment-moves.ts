import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { EnrolmentState } from '../../campaigns/enrolment/states';

/** Where a corrected label moves a lead's row from, to what. */
export interface EnrolmentMove {
  readonly from: readonly EnrolmentState[];
  readonly to: EnrolmentState;
}

/** A person answered: the sequence still under way ends, as a reply signal would end it. */
export const TO_REPLIED: EnrolmentMove = { from: ['queued', 'in_sequence'], to: 'replied' };
/** An unsubscribe outranks a reply (the reply that asked for it is one). */
export const TO_UNSUBSCRIBED: EnrolmentMove = { from: ['queued', 'in_sequence', 'replied'], to: 'unsubscribed' };
/** A meeting outranks a reply. */
export const TO_MEETING: EnrolmentMove = { from: ['queued', 'in_sequence', 'replied'], to: 'meeting_booked' };
/** A label taken back: the lead is still someone who replied (the sequence does not restart). */
export const BACK_FROM_UNSUBSCRIBED: EnrolmentMove = { from: ['unsubscribed'], to: 'replied' };
export const BACK_FROM_MEETING: EnrolmentMove = { from: ['meeting_booked'], to: 'replied' };

/**
 * Moves the lead's row in the campaign when its state is one of `move.from`, in the caller's
 * transaction. Written here rather than through the workflow's `endLeadSequence`: a correction
 * also moves rows that are no longer active (replied -> unsubscribed and back), and the lead's
 * state must agree with the facts as soon as the correction commits. True when the row moved; a
 * campaign without the enrolment table (or without the lead) has no row to move.
 */
export async function moveEnrolment(sequelize: Sequelize, tx: Transaction, campaignId: string, leadId: string, move: EnrolmentMove): Promise<boolean> {
  const rows = await sequelize.query<{ lead_id: string }>(
    `UPDATE campaign_enrolments SET state = $3, updated_at = now()
      WHERE campaign_id = $1 AND lead_id = $2 AND state = ANY($4::text[]) RETURNING lead_id`,
    { bind: [campaignId, leadId, move.to, move.from], type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.length > 0;
}
