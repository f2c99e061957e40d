import sanitizeHtml from 'sanitize-html';

/**
 * HTML that someone else wrote (an email step's HTML part, a reply's HTML), made safe to show
 * inside a dashboard page: sanitize-html keeps text formatting and links, and drops scripts, event
 * handlers, styles, forms, frames and images (an image would load from elsewhere, which the page's
 * CSP refuses anyway, and a tracking pixel must not be fired by looking at a preview).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 'a', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'h1', 'h2', 'h3', 'h4', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'hr'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }) },
  allowedSchemesAppliedToAttributes: ['href'],
};

export function safeHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
