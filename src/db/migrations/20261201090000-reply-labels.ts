import type { QueryInterface } from 'sequelize';

const CATEGORIES = `('interested', 'meeting_booked', 'closed', 'neutral', 'not_interested', 'out_of_office', 'unsubscribe')`;
const SENTIMENTS = `('positive', 'neutral', 'negative')`;

/**
 * The reply inbox and the user's corrections of a reply's label.
 *
 * - `category` and `sentiment` stay the EFFECTIVE label: every statistic reads them. Beside them,
 *   `model_category` / `model_sentiment` keep what the qualifier said (existing rows: their current
 *   label, which nobody could correct before) and `user_category` the user's correction (null:
 *   none); `labelled_at` / `labelled_by` (an API key id) say when and by whom the label was last
 *   set or dropped, so a label without its time cannot exist.
 * - `read_at`: when the reply was first marked read; existing rows stay unread (nothing says
 *   anyone read them).
 * - `body_html`: the message's HTML part as received, bounded by the ingest; sanitised only when shown.
 * - The inbox lists an account's replies newest first, and counts the unread ones: one index each.
 * - A correction that takes a per-email fact (replied, unsubscribed) back from one reply looks for
 *   another reply to the same email that still holds it: replies by email.
 * - A correction that turns an automatic answer into a reply emits `reply.received` only when the
 *   reply never had one: a partial index finds that event by its reply id.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
    ALTER TABLE replies
      ADD COLUMN model_category TEXT CONSTRAINT replies_model_category_check CHECK (model_category IS NULL OR model_category IN ${CATEGORIES}),
      ADD COLUMN model_sentiment TEXT CONSTRAINT replies_model_sentiment_check CHECK (model_sentiment IS NULL OR model_sentiment IN ${SENTIMENTS}),
      ADD COLUMN user_category TEXT CONSTRAINT replies_user_category_check CHECK (user_category IS NULL OR user_category IN ${CATEGORIES}),
      ADD COLUMN labelled_at TIMESTAMPTZ,
      ADD COLUMN labelled_by TEXT,
      ADD COLUMN read_at TIMESTAMPTZ,
      ADD COLUMN body_html TEXT,
      ADD CONSTRAINT replies_user_label_dated CHECK (user_category IS NULL OR labelled_at IS NOT NULL);
    UPDATE replies SET model_category = category, model_sentiment = sentiment;
    CREATE INDEX replies_inbox ON replies (account_id, received_at DESC, id DESC);
    CREATE INDEX replies_inbox_unread ON replies (account_id, received_at DESC, id DESC) WHERE read_at IS NULL;
    CREATE INDEX replies_email ON replies (email_id) WHERE email_id IS NOT NULL;
    CREATE INDEX outbox_reply_received ON outbox ((data->>'reply_id')) WHERE event = 'reply.received';`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS outbox_reply_received;
    DROP INDEX IF EXISTS replies_email;
    DROP INDEX IF EXISTS replies_inbox_unread;
    DROP INDEX IF EXISTS replies_inbox;
    ALTER TABLE replies
      DROP CONSTRAINT IF EXISTS replies_user_label_dated,
      DROP COLUMN IF EXISTS body_html,
      DROP COLUMN IF EXISTS read_at,
      DROP COLUMN IF EXISTS labelled_by,
      DROP COLUMN IF EXISTS labelled_at,
      DROP COLUMN IF EXISTS user_category,
      DROP COLUMN IF EXISTS model_sentiment,
      DROP COLUMN IF EXISTS model_category;`);
}
