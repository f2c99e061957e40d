import { ApplicationFailure } from '@temporalio/common';
import { expect } from 'chai';
import { activityFailure } from '../../activities/failures';
import { companyDomain, companyRecord, saveCompany, scrapeCompany, ScrapeError, siteUrl } from '../../src/companies';
import { egressFor } from '../../src/egress';
import { nameFromTitle } from '../../src/companies/extract/name';
import { createAccount, request, surfaceB, testConfig, useTestApi } from '../support/api';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

const html = { 'content-type': 'text/html; charset=utf-8' };

/** A SaaS home page as such sites are built: og tags, a tag manager, a chat widget, share buttons and profiles. */
function saasHome(o: { siteName?: string; description?: string } = {}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Acmely | Sales pipeline software for B2B teams</title>
  <meta name="description" content="${o.description ?? 'Acmely is the CRM and outreach platform that helps B2B sales teams build pipeline faster.'}">
  <meta name="keywords" content="crm, sales software, saas, lead generation">
  <meta property="og:site_name" content="${o.siteName ?? 'Acmely'}">
  <meta property="og:title" content="Acmely — close more deals">
  <meta property="og:description" content="Prospecting, sequences and pipeline analytics in one place.">
  <meta property="og:image" content="https://cdn.acmely.io/og/home.png">
  <link rel="icon" type="image/png" sizes="32x32" href="/favicon-32x32.png">
  <link rel="apple-touch-icon" sizes="180x180" href="/apple-touch-icon.png">
  <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/css/bootstrap.min.css">
  <script async src="https://www.googletagmanager.com/gtag/js?id=G-8XK2M4Q1ZP"></script>
  <script>
    window.dataLayer = window.dataLayer || [];
    function gtag(){dataLayer.push(arguments);}
    gtag('js', new Date());
    gtag('config', 'G-8XK2M4Q1ZP');
  </script>
  <script type="text/javascript" id="hs-script-loader" async defer src="//js.hs-scripts.com/7412345.js"></script>
  <script src="https://js.stripe.com/v3/"></script>
  <script>window.intercomSettings = { api_base: "https://api-iam.intercom.io", app_id: "ab12cd34" };</script>
  <script src="/_next/static/chunks/framework-2c79e2a64abdb08b.js" defer></script>
  <script src="/_next/static/chunks/main-app-8f5b2f1d3c0a.js" defer></script>
</head>
<body>
  <header class="site-header">
    <nav>
      <a href="/"><img src="/assets/acmely-logo.svg" alt="Acmely" class="navbar-logo" width="120"></a>
      <a href="/product">Product</a> <a href="/pricing">Pricing</a> <a href="/contact">Contact</a>
    </nav>
  </header>
  <main>
    <h1>Build pipeline faster with AI-powered outreach</h1>
    <p>Start free.</p>
    <section class="customers">
      <h2>Trusted by 2,000 sales teams</h2>
      <img src="/customers/globex-logo.png" alt="Globex logo">
      <img src="/customers/initech-logo.png" alt="Initech logo">
    </section>
    <h2>Your CRM, sequences and analytics together</h2>
    <p>Questions? Write to <a href="mailto:Hello@Acmely.io?subject=Demo%20request">Hello@Acmely.io</a>
      or reach our team at sales@acmely.io. Retina assets such as logo@2x.png and hero@3x.webp live in our press kit.</p>
    <h3>Share this page</h3>
    <a href="https://twitter.com/intent/tweet?url=https%3A%2F%2Facmely.io&text=Acmely">Tweet</a>
    <a href="https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Facmely.io">Share</a>
    <a href="https://www.linkedin.com/shareArticle?mini=true&url=https%3A%2F%2Facmely.io">Post</a>
    <a href="https://twitter.com/acmely/status/1790000000000000000">Our launch tweet</a>
  </main>
  <footer>
    <p>Support: support@acmely.io · Press: press@acmely.io · Support again: SUPPORT@acmely.io</p>
    <a href="https://www.linkedin.com/company/acmely/">LinkedIn</a>
    <a href="https://x.com/acmely?ref_src=footer">X</a>
    <a href="https://www.facebook.com/acmelyhq/">Facebook</a>
    <a href="https://www.instagram.com/acmely.hq/">Instagram</a>
    <a href="https://www.youtube.com/@acmely">YouTube</a>
    <a href="https://github.com/acmely">GitHub</a>
    <a href="https://www.tiktok.com/@acmely">TikTok</a>
    <p>© 2026 Acmely Inc. All rights reserved.</p>
  </footer>
</body>
</html>`;
}

/** A WordPress site whose root redirects to a language folder; no meta description, no og tags. */
const globexHome = `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8">
<title>Home - Globex Corporation</title>
<meta name="generator" content="WordPress 6.5.3">
<link rel="apple-touch-icon" href="/wp-content/uploads/2024/01/globex-180.png">
<link rel="stylesheet" id="theme-css" href="/wp-content/themes/globex/style.css?ver=6.5.3" media="all">
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>
</head>
<body class="home page-template-default">
<div id="page">
  <h1>Freight and warehousing across Europe</h1>
  <p>We use cookies to improve your experience on our website and for analytics.</p>
  <p>Globex Corporation moves freight for manufacturers and retailers, with 40 warehouses and a fleet of 900 trucks across the supply chain.</p>
  <h2>Logistics that keep your shelves full</h2>
  <p>Talk to us: info@globex-logistics.eu</p>
  <a href="/en/contact/">Contact</a>
</div>
</body>
</html>`;

/** A home page without any address; its contact page has them. */
const initechHome = `<!doctype html>
<html><head><title>Initech — Payroll and HR for small businesses</title>
<meta name="description" content="Run payroll, benefits and hiring in one place.">
<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script>
</head>
<body>
  <nav><a href="/about">About</a> <a href="/contact">Contact us</a> <a href="/careers">Careers</a></nav>
  <h1>Payroll that runs itself</h1>
  <a href="https://www.linkedin.com/company/initech">LinkedIn</a>
</body></html>`;

const initechContact = `<!doctype html>
<html><head><title>Contact - Initech</title></head>
<body>
  <h1>Contact</h1>
  <p>Sales: <a href="mailto:sales@initech.com">sales@initech.com</a></p>
  <p>Everything else: hello@initech.com</p>
  <a href="https://twitter.com/initech">Twitter</a>
  <a href="https://www.linkedin.com/company/initech-other">LinkedIn</a>
</body></html>`;

interface Company {
  id: string;
  url: string;
  domain: string;
  name: string | null;
  description: string | null;
  logoUrl: string | null;
  socialLinks: Record<string, string>;
  contactEmails: string[];
  technologies: string[];
  industryKeywords: string[];
  scrapedAt: string;
}

describe('company scrape (POST /v1/company/scrape, GET /v1/company/:id)', () => {
  const t = useTestApi({ env: { EGRESS_TIMEOUT_MS: '2000' } });
  const sites: FakeSite[] = [];
  let saasPage = saasHome();

  let saas: FakeSite;
  let globex: FakeSite;
  let initech: FakeSite;

  before(async () => {
    saas = await startFakeSite((_req, res) => {
      res.writeHead(200, { ...html, server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6a7b-AMS', 'set-cookie': '__cf_bm=abc123; Path=/; HttpOnly' }).end(saasPage);
    });
    globex = await startFakeSite(
      pages({
        '/': [301, { location: '/en/' }, ''],
        '/en/': [200, { ...html, 'x-powered-by': 'PHP/8.2.18' }, globexHome],
      }),
    );
    initech = await startFakeSite(
      pages({
        '/': [200, html, initechHome],
        '/about': [200, html, '<html><body><p>About: no addresses here either.</p></body></html>'],
        '/contact': [200, html, initechContact],
      }),
    );
    sites.push(saas, globex, initech);
  });
  after(async () => {
    await Promise.all(sites.map((s) => s.close()));
  });

  const scrape = (apiKey: string, body: unknown) =>
    request<Company & { error?: string }>(`${t.api.baseUrl}/v1/company/scrape`, {
      method: 'POST',
      headers: { ...surfaceB(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('extracts name, description, logo, profiles, emails, technologies and industries of a SaaS site', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const before = saas.requests.length;
    const res = await scrape(apiKey, { url: `${saas.origin}/` });
    expect(res.status, res.text).to.equal(200);
    const { id, scrapedAt, ...facts } = res.body;
    expect(id).to.match(/^co_/);
    expect(Date.parse(scrapedAt)).to.be.closeTo(Date.now(), 60_000);
    expect(facts).to.deep.equal({
      url: `${saas.origin}/`,
      domain: '127.0.0.1',
      name: 'Acmely',
      description: 'Acmely is the CRM and outreach platform that helps B2B sales teams build pipeline faster.',
      logoUrl: `${saas.origin}/assets/acmely-logo.svg`,
      socialLinks: {
        linkedin: 'https://www.linkedin.com/company/acmely',
        twitter: 'https://x.com/acmely',
        facebook: 'https://www.facebook.com/acmelyhq',
        instagram: 'https://www.instagram.com/acmely.hq',
        youtube: 'https://www.youtube.com/@acmely',
        github: 'https://github.com/acmely',
        tiktok: 'https://www.tiktok.com/@acmely',
      },
      contactEmails: ['hello@acmely.io', 'sales@acmely.io', 'support@acmely.io', 'press@acmely.io'],
      technologies: ['Next.js', 'React', 'Bootstrap', 'Google Analytics', 'HubSpot', 'Intercom', 'Stripe', 'Cloudflare'],
      // Ranked by mentions: crm/sales/pipeline/outreach; "pipeline analytics" and "analytics"; then one each, in lexicon order.
      industryKeywords: ['sales', 'data & analytics', 'saas', 'ai', 'marketing'],
    });
    // One page was enough: it has addresses, so no contact page was fetched.
    expect(saas.requests.slice(before).map((r) => r.path)).to.deep.equal(['/']);
    expect(saas.requests.at(-1)?.headers['user-agent']).to.equal('CampaignOutreachBot/1.0');
  });

  it('follows a redirect, names the company from its title and describes it from its first real paragraph', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const before = globex.requests.length;
    const res = await scrape(apiKey, { url: globex.origin });
    expect(res.status, res.text).to.equal(200);
    const { id: _id, scrapedAt: _at, ...facts } = res.body;
    expect(facts).to.deep.equal({
      url: `${globex.origin}/en/`,
      domain: '127.0.0.1',
      name: 'Globex Corporation',
      description: 'Globex Corporation moves freight for manufacturers and retailers, with 40 warehouses and a fleet of 900 trucks across the supply chain.',
      logoUrl: `${globex.origin}/wp-content/uploads/2024/01/globex-180.png`,
      socialLinks: {},
      contactEmails: ['info@globex-logistics.eu'],
      technologies: ['WordPress', 'jQuery', 'PHP'],
      industryKeywords: ['logistics'],
    });
    expect(globex.requests.slice(before).map((r) => r.path)).to.deep.equal(['/', '/en/']);
  });

  it('reads the contact page when the home page shows no address', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const before = initech.requests.length;
    const res = await scrape(apiKey, { url: `${initech.origin}/` });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({
      name: 'Initech',
      description: 'Run payroll, benefits and hiring in one place.',
      logoUrl: null,
      contactEmails: ['sales@initech.com', 'hello@initech.com'],
      // The home page's own LinkedIn link wins; the contact page adds Twitter.
      socialLinks: { linkedin: 'https://www.linkedin.com/company/initech', twitter: 'https://twitter.com/initech' },
      technologies: ['jQuery'],
      industryKeywords: ['hr & recruiting'],
    });
    expect(initech.requests.slice(before).map((r) => r.path)).to.deep.equal(['/', '/contact']);
  });

  it('a second scrape of the same domain updates the same company; GET returns it', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    saasPage = saasHome();
    const first = await scrape(apiKey, { url: `${saas.origin}/` });
    expect(first.status).to.equal(200);
    saasPage = saasHome({ siteName: 'Acmely Cloud', description: 'Acmely, now with a new description.' });
    try {
      const second = await scrape(apiKey, { url: `http://127.0.0.1:${saas.port}/?utm_source=x` });
      expect(second.status, second.text).to.equal(200);
      expect(second.body.id).to.equal(first.body.id);
      expect(second.body).to.include({ name: 'Acmely Cloud', description: 'Acmely, now with a new description.', url: `${saas.origin}/?utm_source=x` });
      expect(Date.parse(second.body.scrapedAt)).to.be.at.least(Date.parse(first.body.scrapedAt));
      const got = await request<Company>(`${t.api.baseUrl}/v1/company/${first.body.id}`, { headers: surfaceB(apiKey) });
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(second.body);
      const [rows] = await t.db.sequelize.query(`SELECT count(*)::int AS n FROM companies WHERE id = $1`, { bind: [first.body.id] });
      expect(rows).to.deep.equal([{ n: 1 }]);
    } finally {
      saasPage = saasHome();
    }
  });

  it("another account's company, or an unknown id, is 404", async () => {
    const owner = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    const made = await scrape(owner.apiKey, { url: `${saas.origin}/` });
    expect(made.status).to.equal(200);
    for (const [key, id] of [[other.apiKey, made.body.id], [owner.apiKey, 'co_doesnotexist00']] as const) {
      const res = await request(`${t.api.baseUrl}/v1/company/${id}`, { headers: surfaceB(key) });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Company not found' });
    }
    // The other account scraping the same site gets a company of its own.
    const theirs = await scrape(other.apiKey, { url: `${saas.origin}/` });
    expect(theirs.body.id).to.not.equal(made.body.id);
  });

  it('refuses URLs that point at private, link-local or metadata addresses, also through a redirect', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const sneaky = await startFakeSite(pages({ '/': [302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }, ''] }));
    sites.push(sneaky);
    for (const url of ['http://10.0.0.1/', 'http://192.168.1.20/admin', 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:10.0.0.1]/', `${sneaky.origin}/`]) {
      const res = await scrape(apiKey, { url });
      expect(res.status, url).to.equal(400);
      expect(res.body, url).to.deep.equal({ error: 'url points to a private or reserved address' });
    }
    const [rows] = await t.db.sequelize.query(`SELECT count(*)::int AS n FROM companies WHERE account_id = $1`, { bind: [accountId] });
    expect(rows).to.deep.equal([{ n: 0 }]);
  });

  it('a site that cannot be scraped is a 400 naming the cause', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const odd = await startFakeSite((req, res) => {
      if (req.url === '/json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      else if (req.url === '/gone') res.writeHead(404, html).end('<html><body>Not here</body></html>');
      else if (req.url === '/down') res.writeHead(503, html).end('<html><body>Maintenance</body></html>');
      // '/silent' never answers.
    });
    sites.push(odd);
    const closed = await startFakeSite(() => undefined);
    await closed.close();
    const cases: Array<[string, RegExp]> = [
      [`${odd.origin}/gone`, /^The site answered HTTP 404$/],
      [`${odd.origin}/down`, /^The site answered HTTP 503$/],
      [`${odd.origin}/json`, /^The site answered with application\/json, not an HTML page$/],
      [`${odd.origin}/silent`, new RegExp(`^The site did not answer in time: No complete answer from 127\\.0\\.0\\.1:${odd.port} within 2000 ms$`)],
      [`http://127.0.0.1:${closed.port}/`, /^The site is unreachable: Could not reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/],
      ['ftp://files.acme.com/', /^url must be an http or https URL$/],
      ['acme', /^url has no domain: "acme"$/],
      ['http://exa mple.com/', /^url is not a valid URL or domain/],
    ];
    for (const [url, message] of cases) {
      const res = await scrape(apiKey, { url });
      expect(res.status, url).to.equal(400);
      expect(res.body.error, url).to.match(message);
    }
  });

  it('validates the body', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const cases: Array<[unknown, string]> = [
      [{}, 'body is missing required field "url"'],
      [{ url: '' }, 'body.url must NOT have fewer than 1 characters'],
      [{ url: 42 }, 'body.url must be string'],
      [{ url: `https://acme.com/${'a'.repeat(2040)}` }, 'body.url must NOT have more than 2048 characters'],
      [{ url: 'https://acme.com', extra: true }, 'body has unknown field "extra"'],
    ];
    for (const [body, error] of cases) {
      const res = await scrape(apiKey, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body).to.deep.equal({ error });
    }
    const anonymous = await request(`${t.api.baseUrl}/v1/company/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"acme.com"}' });
    expect(anonymous.status).to.equal(401);
  });

  describe('scrape and store (the service behind the endpoint), failures as an activity reports them', () => {
    const scrapeAndSave = async (input: { accountId: string; url: string }) =>
      companyRecord(await saveCompany(t.db.sequelize, input.accountId, await scrapeCompany(egressFor(testConfig()), input.url)));

    async function failure(p: Promise<unknown>): Promise<ApplicationFailure> {
      try {
        await p;
      } catch (err) {
        expect(err).to.be.instanceOf(ScrapeError);
        const f = activityFailure(err);
        expect(f).to.be.instanceOf(ApplicationFailure);
        return f as ApplicationFailure;
      }
      expect.fail('expected a ScrapeError');
    }

    it('stores and returns the company as plain JSON, upserting by domain', async () => {
      const { accountId } = await createAccount(t.db.sequelize);
      const first = await scrapeAndSave({ accountId, url: `${saas.origin}/` });
      const second = await scrapeAndSave({ accountId, url: `${saas.origin}/pricing` });
      expect(second.id).to.equal(first.id);
      expect(JSON.parse(JSON.stringify(second))).to.deep.equal(second);
      expect(second).to.include({ name: 'Acmely', domain: '127.0.0.1' });
    });

    it('a blocked or invalid URL is a non-retryable TargetUnreachable; a down site is retryable', async () => {
      const { accountId } = await createAccount(t.db.sequelize);
      for (const url of ['http://169.254.169.254/', 'gopher://acme.com/']) {
        const f = await failure(scrapeAndSave({ accountId, url }));
        expect([f.type, f.nonRetryable], url).to.deep.equal(['TargetUnreachable', true]);
      }
      const closed = await startFakeSite(() => undefined);
      await closed.close();
      const down = await failure(scrapeAndSave({ accountId, url: `http://127.0.0.1:${closed.port}/` }));
      expect([down.type, down.nonRetryable]).to.deep.equal(['TargetUnavailable', false]);
      const gone = await failure(scrapeAndSave({ accountId, url: `${initech.origin}/missing` }));
      expect([gone.type, gone.nonRetryable, gone.message]).to.deep.equal(['TargetRejected', true, 'The site answered HTTP 404']);
    });
  });

  describe('URL handling', () => {
    it('a bare domain means https; the domain key drops www., case and port', () => {
      expect(siteUrl('acme.com').href).to.equal('https://acme.com/');
      expect(siteUrl('  Acme.com/en#team ').href).to.equal('https://acme.com/en');
      expect(siteUrl('http://acme.com').href).to.equal('http://acme.com/');
      expect(companyDomain(new URL('https://WWW.Acme.com:8443/en'))).to.equal('acme.com');
    });

    it('cleans a title to the company name', () => {
      expect(nameFromTitle('Home - Globex Corporation', 'globex.com')).to.equal('Globex Corporation');
      expect(nameFromTitle('The CRM for small teams | Acme', 'acme.com')).to.equal('Acme');
      expect(nameFromTitle('Acme | The CRM for small teams', 'example.org')).to.equal('Acme');
      expect(nameFromTitle('Welcome to Initech', 'initech.com')).to.equal('Initech');
      expect(nameFromTitle('Home', 'acme.com')).to.equal(null);
    });
  });
});
