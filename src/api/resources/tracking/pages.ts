/**
 * The few HTML pages a recipient's browser shows (unsubscribe confirmation, done, invalid link).
 * They are the API's one exception to "errors are JSON": a person reads them, not a client.
 * Self-contained: inline CSS, no script, no external asset, so nothing is fetched or tracked.
 */
const STYLE = `
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: #f5f5f4; color: #1c1917; }
  main { max-width: 28rem; margin: 12vh auto; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
  h1 { font-size: 1.25rem; margin: 0 0 .75rem; }
  p { margin: 0 0 1rem; color: #44403c; }
  button { font: inherit; padding: .6rem 1.2rem; border: 0; border-radius: 8px; background: #1c1917; color: #fff; cursor: pointer; }
  button:focus-visible { outline: 3px solid #a8a29e; outline-offset: 2px; }
`;

/** Headers of every page: no caching, no indexing, and nothing but the inline style may load. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'no-referrer',
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body>
</html>
`;
}

/** `jane.doe@example.com` -> `j•••@example.com`: enough to recognise one's address if the link was forwarded. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${address[0]}•••${address.slice(at)}`;
}

/**
 * The GET page. It changes nothing: mail scanners fetch links, so only the button (a POST to the
 * same URL, without an action attribute) unsubscribes.
 */
export function confirmPage(address: string, alreadyUnsubscribed: boolean): string {
  const who = `<strong>${escapeHtml(maskAddress(address))}</strong>`;
  if (alreadyUnsubscribed) {
    return page('Unsubscribed', `<h1>You are unsubscribed</h1><p>${who} will not receive further emails from this sender.</p>`);
  }
  return page(
    'Unsubscribe',
    `<h1>Unsubscribe?</h1><p>${who} will stop receiving emails from this sender.</p>` +
      `<form method="post"><input type="hidden" name="confirm" value="yes"><button type="submit">Unsubscribe</button></form>`,
  );
}

export function donePage(): string {
  return page('Unsubscribed', '<h1>You are unsubscribed</h1><p>You will not receive further emails from this sender. You can close this page.</p>');
}

export function invalidLinkPage(): string {
  return page('Link not valid', '<h1>This link is not valid</h1><p>It may have been copied incompletely. Use the unsubscribe link of the email itself.</p>');
}
