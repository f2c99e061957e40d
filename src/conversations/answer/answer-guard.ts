import type { Sequelize } from 'sequelize';
import { REPLY_ANSWER_KIND } from '../../service-mail/kinds';
import type { StoredMailGuard } from '../../service-mail/send-stored';
import { ANSWER_REFUSAL_TEXT, answerRefusal } from '../answerability';

/**
 * Checked before every attempt at sending an answer: the lead may have unsubscribed, bounced or
 * been blocklisted (or erased) while its answer waited for an SMTP server that was down. Then the
 * answer is not sent: its row becomes 'failed' with the reason. Other kinds pass.
 */
export function answerGuard(sequelize: Sequelize): StoredMailGuard {
  return async (row) => {
    if (row.kind !== REPLY_ANSWER_KIND || row.leadId === null) return null;
    const refusal = await answerRefusal(sequelize, row.accountId, { id: row.leadId, email: row.toEmail });
    return refusal === null ? null : `not sent: ${ANSWER_REFUSAL_TEXT[refusal]} (${refusal})`;
  };
}
