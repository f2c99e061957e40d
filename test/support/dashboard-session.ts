/**
 * A signed-in dashboard session over plain HTTP, as a browser without script would hold one: the
 * sign-in form's double-submit cookie and token, then the httpOnly session cookie. Every request
 * is sent with `redirect: 'manual'`, so a test sees the 303 and where it points.
 *
 *   const s = await signIn(baseUrl, apiKey);
 *   const page = await s.get('/dashboard/keys');                   // { status, text, location, headers }
 *   const token = await s.csrf('/dashboard/keys');                 // the _csrf of that page's forms
 *   await s.post('/dashboard/keys', { _csrf: token, label: 'CI' }); // sends exactly these fields
 *   await s.submit('/dashboard/keys', { label: 'CI' }, '/dashboard/keys'); // the same, token taken from the page
 */

export interface PageResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The Location of a redirect, else null. */
  readonly location: string | null;
}

export type FormFields = Readonly<Record<string, string | undefined>>;

export interface DashboardSession {
  /** `outreach_session=<token>`: the session cookie as sent (empty once the server cleared it). */
  readonly cookie: string;
  /** The CSRF token in the forms of the page at `pagePath` (a GET that must answer 200). */
  csrf(pagePath: string): Promise<string>;
  get(path: string): Promise<PageResponse>;
  /** A url-encoded form post with exactly `fields`, undefined ones left out (add `_csrf` yourself, or use submit). */
  post(path: string, fields: FormFields): Promise<PageResponse>;
  /** post() with the `_csrf` of the page at `pagePath` added. */
  submit(path: string, fields: FormFields, pagePath: string): Promise<PageResponse>;
}

const SESSION = 'outreach_session';
const SIGN_IN = 'outreach_signin';

/** The value of the hidden `_csrf` input of the first form of a page. */
export function csrfFromHtml(html: string): string {
  const input = /<input[^>]*name="_csrf"[^>]*>/.exec(html)?.[0];
  const value = input === undefined ? undefined : /value="([^"]*)"/.exec(input)?.[1];
  if (value === undefined || value === '') throw new Error(`no _csrf field in the page:\n${html.slice(0, 500)}`);
  return value;
}

/** name=value of a Set-Cookie header for `name`, or undefined when the answer does not set it. */
function cookieSet(headers: Headers, name: string): string | undefined {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    if (pair?.startsWith(`${name}=`)) return pair;
  }
  return undefined;
}

async function fetchPage(url: string, init: RequestInit): Promise<PageResponse> {
  const res = await fetch(url, { ...init, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
}

const formBody = (fields: FormFields): string =>
  new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined)).toString();

/** Signs in through the form with `apiKey`; throws, with the page's answer, when sign-in fails. */
export async function signIn(baseUrl: string, apiKey: string): Promise<DashboardSession> {
  const form = await fetchPage(`${baseUrl}/dashboard`, {});
  const signInCookie = cookieSet(form.headers, SIGN_IN);
  if (form.status !== 200 || signInCookie === undefined) throw new Error(`GET /dashboard: ${form.status} without the sign-in cookie`);
  const answer = await fetchPage(`${baseUrl}/dashboard/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: signInCookie },
    body: formBody({ _csrf: csrfFromHtml(form.text), key: apiKey, next: '/dashboard/campaigns' }),
  });
  let cookie = cookieSet(answer.headers, SESSION);
  if (answer.status !== 303 || cookie === undefined) throw new Error(`sign-in refused: ${answer.status}\n${answer.text.slice(0, 500)}`);

  /** Keeps the jar current: a cleared cookie (sign-out, own key revoked) is no longer sent. */
  const remember = (res: PageResponse): PageResponse => {
    const set = cookieSet(res.headers, SESSION);
    if (set !== undefined) cookie = set === `${SESSION}=` ? '' : set;
    return res;
  };
  const headers = (): Record<string, string> => (cookie === '' ? {} : { cookie: cookie! });

  const session: DashboardSession = {
    get cookie() {
      return cookie!;
    },
    get: async (path) => remember(await fetchPage(`${baseUrl}${path}`, { headers: headers() })),
    post: async (path, fields) =>
      remember(await fetchPage(`${baseUrl}${path}`, { method: 'POST', headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) })),
    csrf: async (pagePath) => {
      const page = await session.get(pagePath);
      if (page.status !== 200) throw new Error(`GET ${pagePath}: ${page.status} (${page.location ?? 'no redirect'})`);
      return csrfFromHtml(page.text);
    },
    submit: async (path, fields, pagePath) => session.post(path, { ...fields, _csrf: await session.csrf(pagePath) }),
  };
  return session;
}
