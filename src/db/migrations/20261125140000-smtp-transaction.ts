import type { QueryInterface } from 'sequelize';

/**
 * Where each email's SMTP transaction got to, so that a send cut short by a crash can be told
 * apart from one the server may have accepted (see docs/reliability.md):
 *
 * - `smtp_phase`: 'reserved' (the row is ours, nothing accepted yet), 'data_sent' (the whole
 *   message went out and only the terminating dot, or the server's answer to it, was missing when
 *   this was written: the server MAY have accepted it), 'accepted' (250 to the data) or 'refused'
 *   (a permanent 5xx). NULL on rows from before this migration.
 * - `smtp_started_at`: when the transaction of the last attempt began (MAIL FROM); written with
 *   the end of data, because a crash between the two recovers exactly like one before the start.
 * - `data_sent_at`: when the end of data was recorded (before the terminating dot was released).
 * - `send_token`: the attempt that owns the row. A retry that takes a row over writes its own
 *   token; the earlier attempt, if it still runs, can then no longer record its end of data and
 *   aborts before the dot, so two attempts never both complete a transaction unrecorded.
 * - `possible_duplicate`: a resend happened after an attempt had reached the end of its data
 *   without a recorded answer. The recipient may hold two copies with the same Message-ID.
 *
 * Rows left 'sending' by the code before this migration (which counted them as sent without
 * sending them) are marked 'reserved': the next batch of their campaign sends them.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE emails
  ADD COLUMN smtp_phase TEXT CHECK (smtp_phase IN ('reserved', 'data_sent', 'accepted', 'refused')),
  ADD COLUMN smtp_started_at TIMESTAMPTZ,
  ADD COLUMN data_sent_at TIMESTAMPTZ,
  ADD COLUMN send_token TEXT,
  ADD COLUMN possible_duplicate BOOLEAN NOT NULL DEFAULT false;
UPDATE emails SET smtp_phase = 'reserved' WHERE status = 'sending';
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE emails
  DROP COLUMN IF EXISTS possible_duplicate,
  DROP COLUMN IF EXISTS send_token,
  DROP COLUMN IF EXISTS data_sent_at,
  DROP COLUMN IF EXISTS smtp_started_at,
  DROP COLUMN IF EXISTS smtp_phase;
`);
}
