/**
 * The email as the sender gets it: the body (written by the user's template or by the writer),
 * then the signature of who sends it, as plain text, and the HTML part made from that text so the
 * two parts say the same (src/writing/render.ts textToHtml). Links in the HTML part: the URLs the
 * template's author wrote, the campaign's calendar link and the URLs of the signature; a URL that
 * came from a lead's data or a model's writing stays text.
 */
import { normalizeText, textToHtml, urlsIn } from '../../writing/render';

export interface AssembledEmail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface EmailParts {
  readonly subject: string;
  readonly text: string;
  /** URLs of the body that may become links. */
  readonly links: readonly string[];
}

/**
 * The body without its last line when that line is only a name the signature starts with: a
 * sign-off "Best,\nMaria" above a signature "Maria Costa\n..." reads "Best,\nMaria Costa\n...",
 * not the name twice.
 */
function withoutRepeatedName(body: string, sig: string): string {
  const lines = body.split('\n');
  const last = lines[lines.length - 1]!.trim();
  const firstOfSig = sig.split('\n')[0]!.trim();
  if (last === '' || lines.length < 2 || last.length > 60 || !(firstOfSig === last || firstOfSig.startsWith(`${last} `))) return body;
  return lines.slice(0, -1).join('\n').trimEnd();
}

export function assembleEmail(parts: EmailParts, signature: string | null, calendarLink: string | null): AssembledEmail {
  const sig = signature === null ? '' : normalizeText(signature);
  const body = sig === '' ? normalizeText(parts.text) : withoutRepeatedName(normalizeText(parts.text), sig);
  const text = sig === '' ? body : `${body}\n\n${sig}`;
  const links = [...parts.links, ...(calendarLink === null ? [] : [calendarLink]), ...urlsIn(sig)];
  return { subject: parts.subject, text, html: textToHtml(text, links) };
}
