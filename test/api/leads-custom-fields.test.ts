import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { QueryTypes, type Sequelize } from 'sequelize';
import { LEAD_EXPORT_FIELDS } from '../../src/leads/lead-export';
import { upsertProviderLeads } from '../../src/leads/lead-repository';
import { createAccount, request, startTestApi, surfaceA, surfaceB, type JsonResponse, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startTestDevServer, type TestDevServer } from '../support/temporal-dev';

/**
 * Custom (personal) fields of leads: the columns of an import that are no lead field, shown by the
 * lead endpoints, exported by GET /v1/leads/export, and matched by an audience's `custom` and
 * `exclude.custom` filters (preview, and campaign create on both surfaces).
 */

interface ImportResult {
  imported: number;
  duplicates: number;
  columns: { used: string[]; custom: Array<{ column: string; field: string }>; ignored: string[] };
}

interface LeadBody {
  id: string;
  email: string;
  title: string | null;
  customFields: Record<string, string>;
}

interface Preview {
  filters: Record<string, unknown>;
  matchedLeads: number;
  leads: LeadBody[];
  reason: string | null;
  error?: string;
}

/** Connections Sequelize's pool has handed out and not taken back. */
function connectionsInUse(sequelize: Sequelize): number {
  return (sequelize as unknown as { connectionManager: { pool: { using: number } } }).connectionManager.pool.using;
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Five CTOs and an engineer with a plan and a territory, as a CRM exports them: "Plan" and "plan"
 * are two columns, "Código Postal" has an accent, "2024 Revenue" starts with a digit, "###" names
 * nothing, and one lead's note would be a formula in a spreadsheet.
 */
const POOL = [
  'Email,First Name,Job Title,Country,Plan,Territory,Código Postal,2024 Revenue,plan,###,Note',
  'anna@kraftwerk.example,Anna,CTO,Germany,Pro,EMEA,10115,1200,Team A,x,',
  'ben@berliner.example,Ben,CTO,Germany, pro ,APAC,,,,,',
  'claire@paris.example,Claire,CTO,France,Enterprise,,75001,,,,=HYPERLINK("http://evil.example")',
  'dan@london.example,Dan,Software Engineer,United Kingdom,,EMEA,,,,,',
  'emma@leeds.example,Emma,CTO,United Kingdom,Free,emea,,,,,',
  'fred@london.example,Fred,CTO,United Kingdom,,,,,,,',
].join('\n');

// A target that never resolves: nothing is planned or sent (no worker runs here anyway).
const TARGET = 'https://custom-fields-target.invalid';

describe('custom fields of leads: import, show, export, audience filters', () => {
  let db: TestDatabase;
  let temporal: TestDevServer;
  let api: TestApi;
  let key = '';
  let accountId = '';
  let otherKey = '';
  let imported: JsonResponse<ImportResult>;

  const upload = (k: string, csv: string) =>
    request<ImportResult>(`${api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(k), 'content-type': 'text/csv' }, body: csv });
  const leadsOf = async (k = key): Promise<LeadBody[]> => {
    const res = await request<{ leads: LeadBody[] }>(`${api.baseUrl}/v1/leads?perPage=100`, { headers: surfaceB(k) });
    expect(res.status, res.text).to.equal(200);
    return res.body.leads;
  };
  const exportLeads = (query = '', k = key) => request(`${api.baseUrl}/v1/leads/export${query}`, { headers: surfaceB(k) });

  before(async function () {
    this.timeout(120_000);
    [db, temporal] = await Promise.all([createTestDatabase(), startTestDevServer()]);
    api = await startTestApi(db.sequelize, { temporalAddress: temporal.address });
    ({ apiKey: key, accountId } = await createAccount(db.sequelize));
    ({ apiKey: otherKey } = await createAccount(db.sequelize));
    imported = await upload(key, POOL);
    expect(imported.status, imported.text).to.equal(200);
    const other = await upload(otherKey, 'Email,Job Title,Country,Plan,Secret\notto@other.example,CTO,Germany,Pro,theirs\n');
    expect(other.status, other.text).to.equal(200);
  });

  after(async function () {
    this.timeout(60_000);
    await api?.close();
    await temporal?.stop();
    await db?.drop();
  });

  describe('import and the lead endpoints', () => {
    it('keeps every other column as a custom field and says which header became which field', () => {
      expect(imported.body.imported).to.equal(6);
      expect(imported.body.columns).to.deep.equal({
        used: ['Email', 'First Name', 'Job Title', 'Country'],
        custom: [
          { column: 'Plan', field: 'plan' },
          { column: 'Territory', field: 'territory' },
          { column: 'Código Postal', field: 'codigo_postal' },
          { column: '2024 Revenue', field: 'col_2024_revenue' },
          { column: 'plan', field: 'plan_2' },
          { column: 'Note', field: 'note' },
        ],
        ignored: ['###'],
      });
    });

    it('shows them on GET /v1/leads/:id and in the list: trimmed text, empty cells absent, {} for none', async () => {
      const leads = await leadsOf();
      const by = new Map(leads.map((l) => [l.email, l] as const));
      expect(by.get('anna@kraftwerk.example')!.customFields).to.deep.equal({ plan: 'Pro', territory: 'EMEA', codigo_postal: '10115', col_2024_revenue: '1200', plan_2: 'Team A' });
      expect(by.get('ben@berliner.example')!.customFields).to.deep.equal({ plan: 'pro', territory: 'APAC' });
      expect(by.get('fred@london.example')!.customFields).to.deep.equal({});
      const one = await request<LeadBody>(`${api.baseUrl}/v1/leads/${by.get('claire@paris.example')!.id}`, { headers: surfaceB(key) });
      expect(one.status, one.text).to.equal(200);
      expect(one.body.customFields).to.deep.equal({ plan: 'Enterprise', codigo_postal: '75001', note: '=HYPERLINK("http://evil.example")' });
      const [row] = await db.sequelize.query<{ custom_fields: unknown }>(`SELECT custom_fields FROM leads WHERE email = 'fred@london.example'`, { type: QueryTypes.SELECT });
      expect(row!.custom_fields).to.equal(null);
    });

    it('adds, never edits: a second import of a known address leaves its custom fields as they were', async () => {
      const again = await upload(key, 'Email,Plan,Colour\nanna@kraftwerk.example,Gold,Blue\n');
      expect(again.body).to.deep.include({ imported: 0, duplicates: 1 });
      const anna = (await leadsOf()).find((l) => l.email === 'anna@kraftwerk.example')!;
      expect(anna.customFields).to.include({ plan: 'Pro' });
      expect(anna.customFields).to.not.have.property('colour');
    });

    it('a provider never touches them: a known lead keeps its custom fields, a new one has none', async () => {
      const person = { firstName: null, lastName: null, title: 'CTO', company: null, companyDomain: null, industry: null, city: null, state: null, country: null, linkedinUrl: null, phone: null };
      const stored = await upsertProviderLeads(db.sequelize, null, accountId, [
        { ...person, email: 'ben@berliner.example', externalId: 'apollo-ben' },
        { ...person, email: 'new@provider.example', externalId: 'apollo-new' },
      ]);
      expect(stored.map((r) => [r.email, r.custom_fields])).to.deep.equal([
        ['ben@berliner.example', { plan: 'pro', territory: 'APAC' }],
        ['new@provider.example', null],
      ]);
      const leads = await leadsOf();
      expect(leads.find((l) => l.email === 'ben@berliner.example')).to.deep.include({ customFields: { plan: 'pro', territory: 'APAC' }, title: 'CTO' });
      expect(leads.find((l) => l.email === 'new@provider.example')!.customFields).to.deep.equal({});
      // Taken out again, so the pool the other tests count is the import's.
      await db.sequelize.query(`DELETE FROM leads WHERE email = 'new@provider.example'`);
    });

    it('keeps at most 200 custom fields per import and reports the columns past the limit as ignored', async () => {
      const { apiKey } = await createAccount(db.sequelize);
      const names = Array.from({ length: 203 }, (_, i) => `Field ${i}`);
      const res = await upload(apiKey, `Email,${names.join(',')}\nwide@example.com,${names.map((_, i) => `v${i}`).join(',')}\n`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.columns.custom).to.have.length(200);
      expect(res.body.columns.ignored).to.deep.equal(['Field 200', 'Field 201', 'Field 202']);
      const [lead] = await leadsOf(apiKey);
      expect(Object.keys(lead!.customFields)).to.have.length(200);
      expect(lead!.customFields).to.include({ field_0: 'v0', field_199: 'v199' });
    });
  });

  describe('GET /v1/leads/export', () => {
    const CUSTOM_COLUMNS = ['custom.codigo_postal', 'custom.col_2024_revenue', 'custom.note', 'custom.plan', 'custom.plan_2', 'custom.territory'];
    const HEADER = [...LEAD_EXPORT_FIELDS, ...CUSTOM_COLUMNS];

    it('streams a CSV attachment of every lead, oldest first, with one custom.<name> column per name; formulas defused', async () => {
      const res = await exportLeads();
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="leads-${accountId}.csv"`);
      const [header, ...lines] = parseCsv(res.text, { relax_column_count: false }) as string[][];
      expect(header).to.deep.equal(HEADER);
      const rows = lines.map((l) => Object.fromEntries(HEADER.map((h, i) => [h, l[i]])));
      const listed = await leadsOf();
      expect(rows.map((r) => r.email)).to.deep.equal(listed.map((l) => l.email));
      const anna = rows.find((r) => r.email === 'anna@kraftwerk.example')!;
      expect(anna).to.include({ firstName: 'Anna', title: 'CTO', country: 'Germany', source: 'import', 'custom.plan': 'Pro', 'custom.plan_2': 'Team A', 'custom.codigo_postal': '10115', 'custom.note': '' });
      expect(anna.createdAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // A stranger's value a spreadsheet would run as a formula gets a leading apostrophe.
      expect(rows.find((r) => r.email === 'claire@paris.example')!['custom.note']).to.equal('\'=HYPERLINK("http://evil.example")');
      // Another account's leads and field names are not in the file.
      expect(res.text).to.not.include('otto@other.example');
      expect(header).to.not.include('custom.secret');
    });

    it('sends the same rows as a JSON array with the same keys: values as stored, null for a field a lead lacks', async () => {
      const res = await exportLeads('?format=json');
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="leads-${accountId}.json"`);
      const rows = res.body as unknown as Array<Record<string, unknown>>;
      expect(rows).to.have.length(6);
      for (const r of rows) expect(Object.keys(r)).to.deep.equal(HEADER);
      const claire = rows.find((r) => r.email === 'claire@paris.example')!;
      expect(claire).to.include({ 'custom.plan': 'Enterprise', 'custom.territory': null, 'custom.note': '=HYPERLINK("http://evil.example")', lastName: null });
      expect(rows.find((r) => r.email === 'fred@london.example')).to.include({ 'custom.plan': null, 'custom.plan_2': null });
    });

    it('writes a header of the lead fields only and an empty array for an account without leads; refuses another format', async () => {
      const { apiKey } = await createAccount(db.sequelize);
      const csv = await exportLeads('', apiKey);
      expect(csv.status).to.equal(200);
      expect(csv.text).to.equal(`${LEAD_EXPORT_FIELDS.join(',')}\n`);
      const json = await exportLeads('?format=json', apiKey);
      expect(JSON.parse(json.text)).to.deep.equal([]);
      const xml = await exportLeads('?format=xml');
      expect(xml.status).to.equal(400);
      expect(xml.body).to.deep.equal({ error: 'query.format must be one of "csv", "json"' });
    });

    it('is Surface B only, and gives its database connection back after a download and after HEAD', async () => {
      const wrong = await request(`${api.baseUrl}/v1/leads/export`, { headers: surfaceA(key) });
      expect(wrong.status).to.equal(401);
      const head = await fetch(`${api.baseUrl}/v1/leads/export?format=json`, { method: 'HEAD', headers: surfaceB(key) });
      expect(head.status).to.equal(200);
      expect(head.headers.get('content-disposition')).to.match(/\.json"$/);
      expect(await head.text()).to.equal('');
      await until('the pool is idle', () => connectionsInUse(db.sequelize) === 0);
      // No transaction of the export is left open on the server.
      const open = await db.sequelize.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`,
        { type: QueryTypes.SELECT },
      );
      expect(open[0]!.n).to.equal(0);
    });
  });

  describe('audience filters on custom fields', () => {
    const preview = (filters: unknown): Promise<JsonResponse<Preview>> =>
      request<Preview>(`${api.baseUrl}/v1/audiences/preview`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'application/json' }, body: JSON.stringify({ filters }) });
    const emails = (p: Preview): string[] => p.leads.map((l) => l.email).sort();

    it('matches a field equal to one of the values, case and surrounding spaces ignored', async () => {
      const res = await preview({ custom: { plan: [' PRO '] } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.filters).to.deep.equal({ custom: { plan: [' PRO '] } });
      expect(res.body.matchedLeads).to.equal(2);
      expect(emails(res.body)).to.deep.equal(['anna@kraftwerk.example', 'ben@berliner.example']);
      expect(res.body.leads.find((l) => l.email === 'anna@kraftwerk.example')!.customFields).to.include({ plan: 'Pro' });
    });

    it('combines names with AND, and with the other filters; a lead without the field does not match', async () => {
      const res = await preview({ custom: { plan: ['pro', 'enterprise'], territory: ['emea'] } });
      expect(res.body.matchedLeads).to.equal(1);
      expect(emails(res.body)).to.deep.equal(['anna@kraftwerk.example']);
      const withTitle = await preview({ titles: ['CTO'], custom: { territory: ['EMEA'] } });
      expect(emails(withTitle.body)).to.deep.equal(['anna@kraftwerk.example', 'emma@leeds.example']);
    });

    it('exclude.custom leaves out a lead with one of the values, never one without the field', async () => {
      const res = await preview({ titles: ['CTO'], exclude: { custom: { territory: [' apac'], plan: ['FREE'] } } });
      expect(res.status, res.text).to.equal(200);
      expect(emails(res.body)).to.deep.equal(['anna@kraftwerk.example', 'claire@paris.example', 'fred@london.example']);
    });

    it('takes a field named as templates name it, "custom.<name>", and shows it as custom', async () => {
      const res = await preview({ 'custom.plan': ['pro', 'enterprise'], 'custom.territory': ['EMEA'] });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.filters).to.deep.equal({ custom: { plan: ['pro', 'enterprise'], territory: ['EMEA'] } });
      expect(emails(res.body)).to.deep.equal(['anna@kraftwerk.example']);
      const excluded = await preview({ titles: ['CTO'], exclude: { 'custom.territory': ['apac'], custom: { plan: ['free'] } } });
      expect(excluded.body.filters).to.deep.equal({ titles: ['CTO'], exclude: { custom: { territory: ['apac'], plan: ['free'] } } });
      const bad = await preview({ 'custom.Plan': ['x'] });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.match(/unknown field "custom\.Plan"/);
    });

    it('says why nothing matches, naming the custom field', async () => {
      const res = await preview({ custom: { plan: ['Gold'] } });
      expect(res.body).to.deep.include({ matchedLeads: 0, reason: 'No lead of the account matches: custom.plan Gold' });
    });

    it('counts the matched leads of a campaign created with them on both surfaces, and shows the filters on GET', async () => {
      const a = await request<{ id: string; audience: { filters: unknown; matched_leads: number } }>(`${api.baseUrl}/campaigns`, {
        method: 'POST',
        headers: { ...surfaceA(key), 'content-type': 'application/json' },
        body: JSON.stringify({ mcp: 'sales_outreach', target_url: TARGET, audience: { custom: { plan: ['PRO', 'enterprise'] }, exclude: { custom: { territory: ['apac'] } } } }),
      });
      expect(a.status, a.text).to.equal(201);
      expect(a.body.audience).to.deep.include({ matched_leads: 2, filters: { custom: { plan: ['PRO', 'enterprise'] }, exclude: { custom: { territory: ['apac'] } } } });
      const b = await request<{ id: string; audience: { filters: unknown; matchedLeads: number } }>(`${api.baseUrl}/v1/campaigns`, {
        method: 'POST',
        headers: { ...surfaceB(key), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Custom', brandUrl: TARGET, audience: { titles: ['CTO'], custom: { territory: ['emea'] } } }),
      });
      expect(b.status, b.text).to.equal(201);
      expect(b.body.audience).to.deep.include({ matchedLeads: 2 });
      const gotA = await request<{ audience: unknown }>(`${api.baseUrl}/v1/campaigns/${a.body.id}`, { headers: surfaceB(key) });
      expect(gotA.body.audience).to.deep.include({ matchedLeads: 2, filters: { custom: { plan: ['PRO', 'enterprise'] }, exclude: { custom: { territory: ['apac'] } } } });
      const gotB = await request<{ audience: unknown }>(`${api.baseUrl}/campaigns/${b.body.id}`, { headers: surfaceA(key) });
      expect(gotB.body.audience).to.deep.include({ matched_leads: 2, filters: { titles: ['CTO'], custom: { territory: ['emea'] } } });
    });

    it('refuses a bad custom filter with a 400 naming the field, on the preview and both creates', async () => {
      const tooManyNames = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`field_${i}`, ['x']]));
      const cases: Array<[unknown, string]> = [
        [{ custom: { Plan: ['Pro'] } }, 'custom has unknown field "Plan"'],
        [{ custom: { '2024_revenue': ['1'] } }, 'custom has unknown field "2024_revenue"'],
        [{ custom: { ['x'.repeat(41)]: ['1'] } }, `custom has unknown field "${'x'.repeat(41)}"`],
        [{ custom: tooManyNames }, 'custom must NOT have more than 20 properties'],
        [{ custom: { plan: Array.from({ length: 51 }, (_, i) => `v${i}`) } }, 'custom.plan must NOT have more than 50 items'],
        [{ custom: { plan: [] } }, 'custom.plan must NOT have fewer than 1 items'],
        [{ custom: { plan: ['  '] } }, 'custom.plan.0 must not be blank'],
        [{ custom: { plan: ['x'.repeat(201)] } }, 'custom.plan.0 must NOT have more than 200 characters'],
        [{ custom: { plan: 'Pro' } }, 'custom.plan must be array'],
        [{ exclude: { custom: { plan: [''] } } }, 'exclude.custom.plan.0 must NOT have fewer than 1 characters'],
      ];
      for (const [filters, message] of cases) {
        const p = await preview(filters);
        expect(p.status, JSON.stringify(filters).slice(0, 80)).to.equal(400);
        expect(p.body.error).to.equal(`body.filters.${message}`);
        const a = await request<{ error: string }>(`${api.baseUrl}/campaigns`, {
          method: 'POST',
          headers: { ...surfaceA(otherKey), 'content-type': 'application/json' },
          body: JSON.stringify({ mcp: 'sales_outreach', target_url: TARGET, audience: filters }),
        });
        expect(a.status, JSON.stringify(filters).slice(0, 80)).to.equal(400);
        expect(a.body.error).to.equal(`body.audience.${message}`);
        const b = await request<{ error: string }>(`${api.baseUrl}/v1/campaigns`, {
          method: 'POST',
          headers: { ...surfaceB(otherKey), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'X', brandUrl: TARGET, audience: filters }),
        });
        expect(b.status, JSON.stringify(filters).slice(0, 80)).to.equal(400);
        expect(b.body.error).to.equal(`body.audience.${message}`);
      }
      const [row] = await db.sequelize.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM campaigns c JOIN accounts a ON a.id = c.account_id WHERE c.account_id <> $1`,
        { bind: [accountId], type: QueryTypes.SELECT },
      );
      expect(row!.n).to.equal(0);
    });
  });
});
