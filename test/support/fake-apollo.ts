import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server speaking Apollo's people API (the parts the service uses): people search
 * (`POST /api/v1/mixed_people/search`) and people enrichment (`POST /api/v1/people/match`), with
 * the `X-Api-Key` header, Apollo's JSON shapes, and its habit of hiding addresses the account has
 * not revealed behind `email_not_unlocked@domain.com`. Tests script failures (401, 422, 429, 500)
 * with `respondNext`.
 */

export interface FakePerson {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly title: string;
  /** The real work address; shown by search only when `revealed`, always by people/match. */
  readonly email: string | null;
  readonly revealed: boolean;
  readonly city: string;
  readonly state: string;
  readonly country: string;
  readonly linkedinUrl: string;
  readonly phone?: string;
  /** Apollo's seniority value (c_suite, vp, director...); a person without one fails a seniority filter. */
  readonly seniority?: string;
  /** `employees`: the organization's estimated head count (120 when absent). */
  readonly organization: { readonly name: string; readonly domain: string; readonly industry: string; readonly employees?: number };
}

export interface RecordedRequest {
  readonly path: string;
  readonly apiKey: string | undefined;
  readonly body: Record<string, unknown>;
  readonly at: number;
}

export interface ScriptedAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface FakeApollo {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Keys the fake accepts; any other key is a 401. */
  readonly keys: Set<string>;
  people: FakePerson[];
  /** Answers for the next requests, in order, before the normal behaviour resumes. */
  respondNext(...answers: ScriptedAnswer[]): void;
  /** Clears recorded requests and scripted answers. */
  reset(): void;
  close(): Promise<void>;
}

function apolloPerson(p: FakePerson, reveal: boolean) {
  return {
    id: p.id,
    first_name: p.firstName,
    last_name: p.lastName,
    name: `${p.firstName} ${p.lastName}`,
    title: p.title,
    seniority: p.seniority ?? null,
    email: reveal ? p.email : p.email === null ? null : 'email_not_unlocked@domain.com',
    email_status: p.email === null ? 'unavailable' : 'verified',
    linkedin_url: p.linkedinUrl,
    city: p.city,
    state: p.state,
    country: p.country,
    headline: `${p.title} at ${p.organization.name}`,
    organization_id: `org_${p.organization.domain}`,
    organization: {
      id: `org_${p.organization.domain}`,
      name: p.organization.name,
      website_url: `http://www.${p.organization.domain}`,
      primary_domain: p.organization.domain,
      industry: p.organization.industry,
      estimated_num_employees: p.organization.employees ?? 120,
    },
    phone_numbers: p.phone ? [{ raw_number: p.phone, sanitized_number: p.phone.replace(/[^\d+]/g, ''), type: 'work_direct' }] : [],
    employment_history: [],
  };
}

const lower = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : '');
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(lower) : []);

function search(people: readonly FakePerson[], body: Record<string, unknown>): { status: number; body: unknown } {
  const perPage = typeof body.per_page === 'number' ? body.per_page : 10;
  const page = typeof body.page === 'number' ? body.page : 1;
  if (perPage < 1 || perPage > 100) return { status: 422, body: { error: 'per_page must be between 1 and 100' } };
  if (page > 500) return { status: 422, body: { error: 'page must be at most 500' } };
  const titles = list(body.person_titles);
  const locations = list(body.organization_locations);
  const tags = list(body.q_organization_keyword_tags);
  const personLocations = list(body.person_locations);
  const seniorities = list(body.person_seniorities);
  const ranges = list(body.organization_num_employees_ranges).map((r) => r.split(',').map((n) => (n.trim() === '' ? null : Number(n))));
  const keywords = lower(body.q_keywords);
  const matches = people.filter(
    (p) =>
      (titles.length === 0 || titles.some((t) => p.title.toLowerCase().includes(t))) &&
      (locations.length === 0 || locations.some((l) => [p.city, p.state, p.country].some((v) => v.toLowerCase() === l))) &&
      (personLocations.length === 0 || personLocations.some((l) => [p.city, p.state, p.country].some((v) => v.toLowerCase() === l))) &&
      (seniorities.length === 0 || (p.seniority !== undefined && seniorities.includes(p.seniority.toLowerCase()))) &&
      (ranges.length === 0 || ranges.some(([min, max]) => (min ?? 0) <= (p.organization.employees ?? 120) && (p.organization.employees ?? 120) <= (max ?? Infinity))) &&
      (keywords === '' || [p.title, p.organization.name, p.organization.industry].some((v) => v.toLowerCase().includes(keywords))) &&
      (tags.length === 0 || tags.some((t) => p.organization.industry.toLowerCase().includes(t))),
  );
  const slice = matches.slice((page - 1) * perPage, page * perPage);
  return {
    status: 200,
    body: {
      breadcrumbs: [],
      partial_results_only: false,
      people: slice.map((p) => apolloPerson(p, p.revealed)),
      pagination: { page, per_page: perPage, total_entries: matches.length, total_pages: Math.ceil(matches.length / perPage) },
    },
  };
}

function match(people: readonly FakePerson[], body: Record<string, unknown>): { status: number; body: unknown } {
  let found: FakePerson | undefined;
  if (typeof body.id === 'string') found = people.find((p) => p.id === body.id);
  else if (typeof body.email === 'string') found = people.find((p) => p.email !== null && p.email.toLowerCase() === lower(body.email));
  else if (typeof body.linkedin_url === 'string') found = people.find((p) => p.linkedinUrl.toLowerCase() === lower(body.linkedin_url));
  else if (typeof body.first_name === 'string' && typeof body.last_name === 'string' && (typeof body.domain === 'string' || typeof body.organization_name === 'string')) {
    found = people.find(
      (p) =>
        p.firstName.toLowerCase() === lower(body.first_name) &&
        p.lastName.toLowerCase() === lower(body.last_name) &&
        (p.organization.domain === lower(body.domain) || p.organization.name.toLowerCase() === lower(body.organization_name)),
    );
  } else {
    return { status: 422, body: { error: 'Please provide an email, a linkedin_url, an id, or a name with a domain or organization_name' } };
  }
  // Apollo answers a miss with 200 and no person.
  return { status: 200, body: { person: found ? apolloPerson(found, true) : null } };
}

export async function startFakeApollo(opts: { keys?: string[]; people?: FakePerson[] } = {}): Promise<FakeApollo> {
  const requests: RecordedRequest[] = [];
  const script: ScriptedAnswer[] = [];
  const state = { people: opts.people ?? [] };
  const keys = new Set(opts.keys ?? ['apollo-test-key']);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, payload: unknown, headers: Readonly<Record<string, string>> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-minute-requests-left': '42', ...headers });
        res.end(payload === undefined ? '' : JSON.stringify(payload));
      };
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length === 0 ? {} : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      } catch {
        send(400, { error: 'malformed JSON' });
        return;
      }
      const apiKey = req.headers['x-api-key'] as string | undefined;
      requests.push({ path: req.url ?? '', apiKey, body, at: Date.now() });
      const scripted = script.shift();
      if (scripted) {
        send(scripted.status, scripted.body ?? {}, scripted.headers);
        return;
      }
      if (req.method !== 'POST') return send(405, { error: 'method not allowed' });
      if (apiKey === undefined || !keys.has(apiKey)) return send(401, { error: 'Invalid access credentials.' });
      if (req.url === '/api/v1/mixed_people/search') {
        const r = search(state.people, body);
        return send(r.status, r.body);
      }
      if (req.url === '/api/v1/people/match') {
        const r = match(state.people, body);
        return send(r.status, r.body);
      }
      send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    keys,
    get people() {
      return state.people;
    },
    set people(p: FakePerson[]) {
      state.people = p;
    },
    respondNext: (...answers) => void script.push(...answers),
    reset: () => {
      requests.length = 0;
      script.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small population: two revealed sales leaders, one whose address is not revealed, one engineer. */
export function samplePeople(): FakePerson[] {
  return [
    {
      id: 'ap_1',
      firstName: 'Dana',
      lastName: 'Reyes',
      title: 'VP Sales',
      email: 'dana.reyes@northwind.example',
      revealed: true,
      city: 'Austin',
      state: 'Texas',
      country: 'United States',
      linkedinUrl: 'http://www.linkedin.com/in/dana-reyes',
      phone: '+1 (512) 555-0101',
      organization: { name: 'Northwind', domain: 'northwind.example', industry: 'Computer Software' },
    },
    {
      id: 'ap_2',
      firstName: 'Lee',
      lastName: 'Okafor',
      title: 'Head of Sales Operations',
      email: 'lee@contoso.example',
      revealed: true,
      city: 'Dublin',
      state: 'Leinster',
      country: 'Ireland',
      linkedinUrl: 'http://www.linkedin.com/in/lee-okafor',
      organization: { name: 'Contoso', domain: 'contoso.example', industry: 'Information Technology & Services' },
    },
    {
      id: 'ap_3',
      firstName: 'Sam',
      lastName: 'Hidden',
      title: 'VP Sales EMEA',
      email: 'sam.hidden@fabrikam.example',
      revealed: false,
      city: 'Berlin',
      state: 'Berlin',
      country: 'Germany',
      linkedinUrl: 'http://www.linkedin.com/in/sam-hidden',
      organization: { name: 'Fabrikam', domain: 'fabrikam.example', industry: 'Computer Software' },
    },
    {
      id: 'ap_4',
      firstName: 'Ira',
      lastName: 'Engel',
      title: 'Staff Engineer',
      email: 'ira@northwind.example',
      revealed: true,
      city: 'Austin',
      state: 'Texas',
      country: 'United States',
      linkedinUrl: 'http://www.linkedin.com/in/ira-engel',
      organization: { name: 'Northwind', domain: 'northwind.example', industry: 'Computer Software' },
    },
  ];
}
