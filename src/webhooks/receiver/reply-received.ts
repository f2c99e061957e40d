import type { ReplyReceivedData } from './event-types';
import { WebhookPayloadError } from './errors';

/** The integration form's names for `sentiment` and `preview`. */
const ALIASES = ['reply_sentiment', 'reply_preview'] as const;

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * `reply.received` data in its one shape (ReplyReceivedData), from either form the spec lists:
 * the full form as it is, the integration form with `reply_sentiment`/`reply_preview` renamed
 * and its missing members null. Where a payload has both names, the full form's wins. Members
 * neither form knows are kept (a later version may add some); the aliases themselves are not.
 */
export function normalizeReplyData(data: Readonly<Record<string, unknown>>): ReplyReceivedData {
  const email = text(data.email);
  if (email === null) throw new WebhookPayloadError('reply.received: data.email is missing');
  const rest: Record<string, unknown> = { ...data };
  for (const alias of ALIASES) delete rest[alias];
  return {
    ...rest,
    reply_id: text(data.reply_id),
    email,
    name: text(data.name),
    company: text(data.company),
    title: text(data.title),
    sentiment: text(data.sentiment) ?? text(data.reply_sentiment),
    preview: text(data.preview) ?? text(data.reply_preview),
    received_at: text(data.received_at),
  };
}
