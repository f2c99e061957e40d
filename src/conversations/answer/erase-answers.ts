import type { Sequelize, Transaction } from 'sequelize';
import { REPLY_ANSWER_KIND } from '../../service-mail/kinds';

/**
 * Erasing a lead (src/leads/erase-lead.ts) erases what its answers hold of the person, in the
 * erasure's transaction: the address becomes `placeholder`, and the subject, bodies, Cc and the
 * server's replies are emptied, as erasure empties the campaign emails. An answer still being sent
 * is `failed` (its send would be refused anyway: the erased lead is unsubscribed). The rows stay,
 * so the costs and the mailbox's counts they stand for stay explained.
 */
export async function eraseLeadAnswers(sequelize: Sequelize, tx: Transaction, accountId: string, leadId: string, placeholder: string): Promise<void> {
  await sequelize.query(
    `UPDATE service_emails SET to_email = $4, subject = '', cc = '[]', body_text = NULL, body_html = NULL, smtp_response = NULL,
            error = CASE WHEN status = 'sending' THEN 'not sent: the lead was erased' ELSE NULL END,
            status = CASE WHEN status = 'sending' THEN 'failed' ELSE status END, updated_at = now()
      WHERE account_id = $1 AND lead_id = $2 AND kind = $3`,
    { bind: [accountId, leadId, REPLY_ANSWER_KIND, placeholder], transaction: tx },
  );
}
