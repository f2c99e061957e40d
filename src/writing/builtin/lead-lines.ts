/**
 * How the built-in writer names a lead's work: the department its title was read as (the lead's
 * profile), and the company as a sentence needs it.
 */

/** A department id of the title vocabulary as a sentence says it ("you lead engineering"). */
const AREAS: Readonly<Record<string, string>> = {
  engineering: 'engineering',
  product: 'product',
  design: 'design',
  marketing: 'marketing',
  sales: 'sales',
  customer_success: 'customer success',
  people: 'people and HR',
  finance: 'finance',
  operations: 'operations',
  legal: 'legal',
  it: 'IT',
  data: 'data',
  security: 'security',
};

/** The department as words, or null for one that is not an area of work (executive, or unknown). */
export function area(department: string | null): string | null {
  return department === null ? null : (AREAS[department] ?? null);
}

/** "Finlytics'" and "Acme's". */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** The lead's company, or "your team" without one. */
export function companyLabel(f: { readonly leadCompany: string | null }): string {
  return f.leadCompany ?? 'your team';
}
