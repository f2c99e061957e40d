import { assembleEmail } from '../../campaigns/sequences/assemble-email';
import { urlsIn } from '../../writing/render';

/**
 * The answer as it is sent: the user's plain text, the sender's signature under it (as under
 * campaign emails), and an HTML part made of the same text: escaped paragraphs, the URLs the user
 * and the signature spell out made links. No open pixel, tracked links or unsubscribe footer: it
 * is one person writing to another in a conversation the lead took part in.
 */
export function answerBody(body: string, signature: string | null): { readonly text: string; readonly html: string } {
  const { text, html } = assembleEmail({ subject: '', text: body, links: urlsIn(body) }, signature, null);
  return { text, html };
}
