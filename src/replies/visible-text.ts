import EmailReplyParser from 'email-reply-parser';

/**
 * Only the start of a message is scanned: what the person wrote comes first, and the parser's
 * regular expressions should never see megabytes of quoted history.
 */
const MAX_SCAN_CHARS = 64 * 1024;
export const PREVIEW_CHARS = 200;

// A quote header can wrap over up to three lines ("On Mon, 17 Nov 2025 at 10:00, Sam Sender <\n
// sam@x.test> wrote:"), so each test runs on a window of lines joined back together.
const ATTRIBUTION_START = /^\s*(On|Le|Am|El|Il|Em|Op|Den)\s/i;
const ATTRIBUTION = /^\s*(On|Le|Am|El|Il|Em|Op|Den)\s.{0,300}?\b(wrote|a\s+écrit|schrieb|escribió|ha\s+scritto|escreveu|schreef|skrev).{0,200}:\s*$/i;
const ORIGINAL_MESSAGE =
  /^\s*-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Messaggio originale|Oorspronkelijk bericht)\s*-{2,}\s*$/i;
// Outlook's header block of the quoted message: "From: ..." directly followed by "Sent: ..." (or
// the localised names); mailparser renders the HTML version's bold labels as plain "From:".
const OUTLOOK_FROM = /^\s*\*?(From|De|Von|Da|Van|Från|Fra|Od)\s*:\*?\s*\S/i;
const OUTLOOK_SENT = /^\s*\*?(Sent|Date|Envoyé|Gesendet|Enviado|Fecha|Inviato|Verzonden|Skickat|Sendt|Datum|Data)\s*:\*?\s*\S/i;
const OUTLOOK_RULE = /^\s*_{10,}\s*$/;

/** Index of the first line where quoted history starts, or -1. */
function quoteStart(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (ORIGINAL_MESSAGE.test(line)) return i;
    if (OUTLOOK_FROM.test(line) && lines.slice(i + 1, i + 3).some((l) => OUTLOOK_SENT.test(l))) {
      // Outlook draws a rule above the block; cut there so it does not end up in the preview.
      return i > 0 && OUTLOOK_RULE.test(lines[i - 1] as string) ? i - 1 : i;
    }
    if (ATTRIBUTION_START.test(line)) {
      for (let k = 1; k <= 3 && i + k <= lines.length; k += 1) {
        if (ATTRIBUTION.test(lines.slice(i, i + k).join(' '))) return i;
      }
    }
  }
  return -1;
}

/**
 * The part of a reply its sender wrote: quoted history ("On ... wrote:", "Le ... a écrit :",
 * "Am ... schrieb ...:", "El ... escribió:", "-----Original Message-----", Outlook's "From: /
 * Sent:" block, "> " lines) and signatures removed. email-reply-parser does most of it; the
 * explicit cut first catches the forms it misses (Outlook blocks without angle brackets, headers
 * wrapped over lines). Falls back to the uncut text when everything would be removed.
 */
export function visibleReplyText(text: string): string {
  const lines = text.slice(0, MAX_SCAN_CHARS).replace(/\r\n?/g, '\n').split('\n');
  const start = quoteStart(lines);
  const own = (start >= 0 ? lines.slice(0, start) : lines).join('\n');
  const visible = new EmailReplyParser().read(own).getVisibleText().trim();
  return visible !== '' ? visible : own.trim();
}

/** The first ~200 characters of the visible text, whitespace collapsed, cut at a word boundary. */
export function previewOf(visibleText: string, max = PREVIEW_CHARS): string {
  const flat = visibleText.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
