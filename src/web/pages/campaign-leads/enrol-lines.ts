/**
 * The enrol box of the campaign's leads page: one address per line, as a user pastes them from a
 * spreadsheet column. Pure, so the page's rules (empty, too many) are stated once and tested.
 */

import { MAX_ENROL_PER_CALL } from '../../../campaigns/control/enrol-by-hand';

/** Most addresses one enrolment takes: the API's limit for POST /campaigns/:id/leads. */
export const MAX_ENROL_LINES = MAX_ENROL_PER_CALL;

export type EnrolLines = { readonly ok: true; readonly emails: string[] } | { readonly ok: false; readonly error: string };

/**
 * The distinct addresses of the box, lower-cased (leads are stored so), blank lines dropped.
 * A line may be "Ada <ada@example.com>" as copied from a mail client: its address is taken.
 */
export function enrolLines(text: string): EnrolLines {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) return { ok: false, error: 'Enter at least one email address, one per line.' };
  if (lines.length > MAX_ENROL_LINES) {
    return { ok: false, error: `${lines.length.toLocaleString('en-US')} lines: at most ${MAX_ENROL_LINES.toLocaleString('en-US')} addresses can be enrolled at once. Split the list and enrol the rest after.` };
  }
  const emails = lines.map((l) => (/<([^<>]+)>$/.exec(l)?.[1] ?? l).trim().toLowerCase());
  return { ok: true, emails: [...new Set(emails)] };
}
