import { visibleReplyText } from '../replies/visible-text';

/**
 * Classifiers judge what the person wrote, not the pitch quoted below it ("Interested in a quick
 * call?" in the quote must not make a decline look interested). Callers usually pass text that is
 * already stripped; this strips again defensively, since a classifier must never trust that.
 */

// Cut at a forwarded message: the note above it is the reply, the forwarded pitch is not.
const FORWARD_MARKER =
  /^\s*(-{2,}\s*(forwarded message|weitergeleitete nachricht|message transf[ée]r[ée]|mensaje reenviado|mensagem encaminhada|messaggio inoltrato|doorgestuurd bericht)\s*-{0,}|begin forwarded message:|d[ée]but du message r[ée]exp[ée]di[ée]\s*:|anfang der weitergeleiteten nachricht:)/im;
const QUOTED_LINE = /^\s*>/;

/** The reply's own text: quoted history, forwarded messages and signatures removed. */
export function replyOwnText(bodyText: string): string {
  let text = bodyText.replace(/\r\n?/g, '\n');
  const forward = FORWARD_MARKER.exec(text);
  if (forward) text = text.slice(0, forward.index);
  text = text
    .split('\n')
    .filter((line) => !QUOTED_LINE.test(line))
    .join('\n');
  return visibleReplyText(text).trim();
}
