import path from 'node:path';
import { Eta } from 'eta';

/**
 * The dashboard's templates (src/web/templates/*.eta), rendered on the server with Eta.
 *
 * `autoEscape` is on: every `<%= %>` is HTML-escaped, so a campaign name, an audience or a reply a
 * user or a lead wrote is text on the page, never markup. The only unescaped output (`<%~ %>`) is
 * markup the service made itself: the chart's SVG, and a reply's HTML after sanitize-html.
 * Templates are compiled once and cached.
 */
const eta = new Eta({ views: path.join(__dirname, 'templates'), autoEscape: true, cache: true, autoTrim: false });

export function renderTemplate(name: string, data: object): string {
  return eta.render(name, data);
}
