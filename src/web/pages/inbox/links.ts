/** Where the inbox and the thread link to, and where their forms send the browser back to. */

export const threadHref = (leadId: string, replyId?: string): string =>
  `/dashboard/leads/${encodeURIComponent(leadId)}/thread${replyId === undefined ? '' : `#reply-${encodeURIComponent(replyId)}`}`;

/** Only the inbox or a thread of this dashboard: a form's `back` is never an open redirect. */
const BACK = /^\/dashboard\/(inbox|leads\/[A-Za-z0-9_-]+\/thread)(\?[A-Za-z0-9_\-=&%.]*)?$/;

/** `back` with the notice set (replacing one it had), or the inbox when `back` is not one of ours. */
export function backTo(back: string | undefined, notice: string): string {
  const target = back !== undefined && BACK.test(back) ? back : '/dashboard/inbox';
  const [path, query = ''] = target.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set('notice', notice);
  return `${path}?${params.toString()}`;
}
