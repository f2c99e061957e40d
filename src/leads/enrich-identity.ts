import { isValidEmail, normalizeDomain, normalizeLinkedinUrl } from './fields';

/** Who to enrich: an address, a name at a company domain, or a LinkedIn profile. */
export type EnrichIdentity =
  | { readonly kind: 'email'; readonly email: string }
  | { readonly kind: 'name'; readonly firstName: string; readonly lastName: string; readonly domain: string }
  | { readonly kind: 'linkedin'; readonly linkedinUrl: string };

export interface EnrichRequest {
  readonly email?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly domain?: string;
  readonly linkedinUrl?: string;
}

/** The request names no person, or more than one way of naming one. Its message says which. */
export class InvalidEnrichRequest extends Error {
  override readonly name = 'InvalidEnrichRequest';
}

const FORMS = 'send exactly one of: {email}, {firstName, lastName, domain} or {linkedinUrl}';

/**
 * Reads which of the three forms a request uses. The body schema has already checked each field's
 * type and length; what is left is the combination, whose errors a schema union reports poorly
 * ("missing email" for a request that meant the name form), so it is decided here, with messages
 * that name the form the caller was using.
 */
export function parseEnrichIdentity(body: EnrichRequest): EnrichIdentity {
  const nameFields = (['firstName', 'lastName', 'domain'] as const).filter((k) => body[k] !== undefined);
  const forms = [body.email !== undefined ? 'email' : null, nameFields.length > 0 ? 'name' : null, body.linkedinUrl !== undefined ? 'linkedinUrl' : null].filter(
    (f) => f !== null,
  );
  if (forms.length === 0) throw new InvalidEnrichRequest(`Nothing to enrich: ${FORMS}`);
  if (forms.length > 1) throw new InvalidEnrichRequest(`Give one way of naming the person, not several (${forms.join(' and ')}): ${FORMS}`);
  if (body.email !== undefined) {
    const email = body.email.trim().toLowerCase();
    if (!isValidEmail(email)) throw new InvalidEnrichRequest('email is not a valid email address');
    return { kind: 'email', email };
  }
  if (body.linkedinUrl !== undefined) {
    const linkedinUrl = normalizeLinkedinUrl(body.linkedinUrl);
    if (linkedinUrl === null) throw new InvalidEnrichRequest('linkedinUrl is not a LinkedIn profile address (https://www.linkedin.com/in/...)');
    return { kind: 'linkedin', linkedinUrl };
  }
  const missing = (['firstName', 'lastName', 'domain'] as const).filter((k) => (body[k] ?? '').trim() === '');
  if (missing.length > 0) throw new InvalidEnrichRequest(`Enriching by name needs firstName, lastName and domain; missing ${missing.join(', ')}`);
  const domain = normalizeDomain(body.domain ?? '');
  if (domain === null) throw new InvalidEnrichRequest('domain is not a domain name or website address');
  return { kind: 'name', firstName: (body.firstName ?? '').trim(), lastName: (body.lastName ?? '').trim(), domain };
}
