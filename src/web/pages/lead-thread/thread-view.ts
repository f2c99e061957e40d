import { ANSWER_REFUSAL_TEXT } from '../../../conversations/answerability';
import type { LeadThread, ThreadEvent, ThreadMessage } from '../../../conversations/thread/thread-types';
import { dateTime } from '../../view/format';
import { safeHtml } from '../../view/safe-html';
import { labelView, type LabelView } from '../inbox/label-view';

/** One message of the thread as the page shows it. */
export interface MessageView {
  readonly id: string;
  /** `in`: the lead (or their server) wrote it; `out`: a campaign email or an answer of yours. */
  readonly direction: 'in' | 'out';
  readonly anchor: string;
  /** "Campaign email · Spring launch, step 2 (variant B)", "Your answer", "Reply", ... */
  readonly heading: string;
  readonly from: string;
  readonly to: string | null;
  readonly cc: string | null;
  readonly subject: string;
  readonly at: string;
  readonly text: string;
  /** Sanitised again with the dashboard's own rules (no images: the page loads nothing from elsewhere). */
  readonly html: string | null;
  readonly status: string | null;
  readonly events: readonly string[];
  /** Inbound only: its labels, whether it was unread before this view, and whether it may be labelled. */
  readonly label: LabelView | null;
  readonly unread: boolean;
  readonly labellable: boolean;
}

const EVENT_WORDS: Readonly<Record<ThreadEvent['type'], string>> = {
  delivered: 'Delivered',
  bounced: 'Bounced',
  opened: 'Opened',
  clicked: 'Clicked',
  replied: 'Replied to',
  unsubscribed: 'Unsubscribed',
  complained: 'Marked as spam',
  meeting_booked: 'Meeting booked',
};

const STATUS_WORDS: Readonly<Record<string, string>> = {
  sending: 'Being sent',
  deferred: 'Deferred: will be retried',
  sent: 'Sent',
  bounced: 'Bounced',
  failed: 'Not sent',
};

const INBOUND_HEADING: Readonly<Record<string, string>> = { reply: 'Reply', auto_reply: 'Automatic answer', bounce: 'Bounce (delivery report)' };

function eventText(e: ThreadEvent): string {
  return `${EVENT_WORDS[e.type]} ${dateTime(new Date(e.occurredAt))}${e.url === null ? '' : ` (${e.url})`}`;
}

export function messageView(m: ThreadMessage): MessageView {
  const base = {
    id: m.id,
    direction: m.direction,
    anchor: `${m.direction === 'in' ? 'reply' : 'message'}-${m.id}`,
    from: m.from,
    subject: m.subject ?? '(no subject)',
    at: dateTime(new Date(m.at)),
    text: m.text ?? '',
    html: m.html === null ? null : safeHtml(m.html),
  };
  if (m.type === 'campaign_email') {
    return {
      ...base,
      heading: `Campaign email · ${m.campaignName}, step ${m.step}${m.variant === null ? '' : ` (variant ${m.variant})`}`,
      to: m.to,
      cc: null,
      status: STATUS_WORDS[m.status] ?? m.status,
      events: m.events.map(eventText),
      label: null,
      unread: false,
      labellable: false,
    };
  }
  if (m.type === 'answer') {
    return {
      ...base,
      heading: `Your answer${m.campaignName === null ? '' : ` · ${m.campaignName}`}`,
      to: m.to,
      cc: m.cc.length === 0 ? null : m.cc.join(', '),
      status: `${STATUS_WORDS[m.status] ?? m.status}${m.status !== 'sent' && m.error !== null ? `: ${m.error}` : ''}`,
      events: [],
      label: null,
      unread: false,
      labellable: false,
    };
  }
  return {
    ...base,
    heading: `${INBOUND_HEADING[m.type] ?? 'Message'}${m.campaignName === null ? '' : ` · ${m.campaignName}`}`,
    from: m.fromName === null ? m.from : `${m.fromName} <${m.from}>`,
    to: m.to,
    cc: null,
    status: null,
    events: [],
    label: m.type === 'bounce' ? null : labelView(m),
    unread: !m.read,
    labellable: m.type !== 'bounce',
  };
}

export function threadView(t: LeadThread) {
  const l = t.lead;
  return {
    lead: { ...l, display: l.name === null ? l.email : `${l.name} <${l.email}>`, about: [l.title, l.company].filter((p) => p !== null && p !== '').join(', ') },
    messages: t.messages.map(messageView),
    hasMore: t.hasMore,
    answerAllowed: l.answer.allowed,
    refusal: l.answer.reason === null ? null : ANSWER_REFUSAL_TEXT[l.answer.reason],
  };
}
