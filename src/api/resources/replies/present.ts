import type { InboxReply, InboxReplyDetail } from '../../../replies/inbox/inbox-item';

/** Surface B's item: camelCase, instants as ISO strings. */
export function inboxReplyView(r: InboxReply): Record<string, unknown> {
  return {
    id: r.id,
    kind: r.kind,
    campaignId: r.campaignId,
    campaignName: r.campaignName,
    leadId: r.leadId,
    email: r.email,
    name: r.name,
    company: r.company,
    title: r.title,
    subject: r.subject,
    preview: r.preview,
    category: r.category,
    sentiment: r.sentiment,
    modelCategory: r.modelCategory,
    modelSentiment: r.modelSentiment,
    userCategory: r.userCategory,
    labelledAt: r.labelledAt?.toISOString() ?? null,
    read: r.read,
    readAt: r.readAt?.toISOString() ?? null,
    receivedAt: r.receivedAt.toISOString(),
    mailbox: r.mailbox,
  };
}

export function inboxReplyDetailView(r: InboxReplyDetail): Record<string, unknown> {
  return { ...inboxReplyView(r), bodyText: r.bodyText };
}
