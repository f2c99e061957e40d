import http from 'node:http';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { ImportTooLarge } from '../../src/leads/import/byte-meter';
import { leadProfile } from '../../src/leads/profile/lead-profile';
import { importLeadsCsv } from '../../src/leads/import/import-csv';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { createAccount, request, surfaceB, useTestApi } from '../support/api';

interface ImportResult {
  total: number;
  imported: number;
  duplicates: number;
  suppressed: number;
  invalid: number;
  errors: Array<{ line: number; error: string }>;
  columns: { used: string[]; custom: Array<{ column: string; field: string }>; ignored: string[] };
}

interface LeadBody {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  title: string | null;
  company: string | null;
  companyDomain: string | null;
  city: string | null;
  country: string | null;
  linkedinUrl: string | null;
  source: string;
  createdAt: string;
}

describe('lead import (POST /v1/leads/import) and the lead list', () => {
  const t = useTestApi();

  const upload = (key: string, csv: string, contentType = 'text/csv') =>
    request<ImportResult & { error?: string }>(`${t.api.baseUrl}/v1/leads/import`, {
      method: 'POST',
      headers: { ...surfaceB(key), 'content-type': contentType },
      body: csv,
    });

  const storedLeads = (accountId: string) =>
    t.db.sequelize.query<{ email: string; first_name: string | null; title: string | null; source: string }>(
      `SELECT email, first_name, title, source FROM leads WHERE account_id = $1 ORDER BY email`,
      { bind: [accountId], type: QueryTypes.SELECT },
    );

  it('imports good rows, reports bad ones by the line they start on, and counts duplicates and suppressed addresses', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    // Already a lead of the account: the import must count it as a duplicate and leave it unchanged.
    await importLeadsCsv(t.db.sequelize, accountId, Readable.from(['email,title\nexisting@example.com,Original Title\n']));
    await suppressAddress(t.db.sequelize, null, accountId, 'Blocked@Example.com', 'unsubscribe');
    const csv = [
      /* 1 */ 'E-mail,First Name,Last Name,Job Title,Company,Website,City,State,Country,LinkedIn,Notes',
      /* 2 */ 'ada@example.com,Ada,Lovelace,CTO,Analytical,https://www.analytical.example/,London,,UK,linkedin.com/in/ada,"likes',
      /* 3 */ 'engines, a lot"',
      /* 4 */ 'not-an-email,Bad,Row,,,,,,,,',
      /* 5 */ '',
      /* 6 */ 'BOB@example.com,Bob,Stone,VP Sales,Stone Co,stone.example,Austin,Texas,United States,,',
      /* 7 */ 'bob@example.com,Bob,Again,,,,,,,,',
      /* 8 */ 'existing@example.com,Ex,Isting,New Title,,,,,,,',
      /* 9 */ 'blocked@example.com,Blo,Cked,,,,,,,,',
      /* 10 */ 'cy@example.com,Cy,,,,not a website,,,,,',
      /* 11 */ '"dee@example.com","Dee","Multi-line","Head of',
      /* 12 */ 'Growth",Dee Co,,,,,,',
      /* 13 */ 'eve@example.com,Eve,,,,,,,,https://example.com/in/eve,',
      /* 14 */ 'fay@example.com,Fay,"unclosed,,,,,,,,',
    ].join('\n');
    const res = await upload(apiKey, csv);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({
      total: 10,
      imported: 3,
      duplicates: 2,
      suppressed: 1,
      invalid: 4,
      // example.com is a reserved test domain: delivered to the local sink outside production (docs/verification.md).
      verification: { valid: 3, risky: 0, invalid: 0, unknown: 0 },
      errors: [
        { line: 4, error: 'E-mail "not-an-email" is not a valid email address' },
        { line: 10, error: 'Website "not a website" is not a domain or website address' },
        { line: 13, error: 'LinkedIn "https://example.com/in/eve" is not a LinkedIn profile URL (https://www.linkedin.com/in/...)' },
        { line: 14, error: 'a quoted field is not closed' },
      ],
      columns: {
        used: ['E-mail', 'First Name', 'Last Name', 'Job Title', 'Company', 'Website', 'City', 'State', 'Country', 'LinkedIn'],
        custom: [{ column: 'Notes', field: 'notes' }],
        ignored: [],
      },
    });
    const stored = await storedLeads(accountId);
    expect(stored.map((l) => l.email)).to.deep.equal(['ada@example.com', 'bob@example.com', 'dee@example.com', 'existing@example.com']);
    expect(stored.find((l) => l.email === 'existing@example.com')).to.include({ title: 'Original Title', first_name: null });
    expect(stored.find((l) => l.email === 'bob@example.com')).to.include({ first_name: 'Bob', title: 'VP Sales', source: 'import' });
    expect(stored.find((l) => l.email === 'dee@example.com')).to.include({ title: 'Head of\nGrowth' });

    const list = await request<{ leads: LeadBody[]; pagination: unknown }>(`${t.api.baseUrl}/v1/leads?perPage=100`, { headers: surfaceB(apiKey) });
    const ada = list.body.leads.find((l) => l.email === 'ada@example.com');
    expect(ada).to.deep.include({
      firstName: 'Ada',
      lastName: 'Lovelace',
      name: 'Ada Lovelace',
      title: 'CTO',
      company: 'Analytical',
      companyDomain: 'analytical.example',
      city: 'London',
      country: 'UK',
      linkedinUrl: 'https://linkedin.com/in/ada',
      source: 'import',
    });
  });

  it("fills each lead's profile from an export's columns and says which columns it used and which it kept as custom fields", async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const csv = [
      'Email,Full Name,Job Title,Company Name,# Employees,Person Location,Company Industry,Seniority,Departments,Lead Status,Profile Views',
      'cto@acme.example,Ada Lovelace,Chief Technology Officer,Acme,51-200,"Berlin, Germany",Computer Software,,,open,3',
      'vp@acme.example,Bo Li,"VP, Marketing",Acme,"1,000","Austin, Texas, United States",,Director,Marketing,,',
      'bare@acme.example,,,,,,,,,,',
    ].join('\n');
    const res = await upload(apiKey, csv);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({ total: 3, imported: 3, invalid: 0 });
    expect(res.body.columns).to.deep.equal({
      used: ['Email', 'Full Name', 'Job Title', 'Company Name', '# Employees', 'Person Location', 'Company Industry', 'Seniority', 'Departments'],
      custom: [
        { column: 'Lead Status', field: 'lead_status' },
        { column: 'Profile Views', field: 'profile_views' },
      ],
      ignored: [],
    });

    const rows = await t.db.sequelize.query<Record<string, unknown>>(
      `SELECT email, title, company, city, country, industry, seniority_raw, department_raw, company_size_raw,
              title_key, title_norm, seniority, department, country_code, city_norm, industry_id, company_size
       FROM leads WHERE account_id = $1 ORDER BY email`,
      { bind: [accountId], type: QueryTypes.SELECT },
    );
    const [bare, cto, vp] = rows;
    // A size band is stored as its middle: '51-200' is 126.
    expect(cto).to.deep.include({ title: 'Chief Technology Officer', company: 'Acme', city: 'Berlin', country: 'Germany', company_size_raw: '51-200' });
    expect(cto).to.deep.include({ title_key: 'cto', seniority: 'c_level', department: 'engineering', country_code: 'DE', city_norm: 'berlin', company_size: 126 });
    expect(vp).to.deep.include({ seniority_raw: 'Director', department_raw: 'Marketing', company_size_raw: '1,000', company_size: 1000, country_code: 'US' });
    // Whatever the vocabularies say, the stored columns are leadProfile's answer for the row.
    for (const [row, input] of [
      [cto, { title: 'Chief Technology Officer', city: 'Berlin', country: 'Germany', industry: 'Computer Software', companySize: '51-200' }],
      [vp, { title: 'VP, Marketing', city: 'Austin', state: 'Texas', country: 'United States', seniority: 'Director', department: 'Marketing', companySize: '1,000' }],
      [bare, {}],
    ] as const) {
      const p = leadProfile(input);
      expect(row).to.deep.include({
        title_key: p.titleKey,
        title_norm: p.titleNorm,
        seniority: p.seniority,
        department: p.department,
        country_code: p.countryCode,
        city_norm: p.cityNorm,
        industry_id: p.industryId,
        company_size: p.companySize,
      });
    }
  });

  it('deduplicates across batches of a larger file and within the file', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const rows = Array.from({ length: 1200 }, (_, i) => `lead${i}@bulk.example,Lead,${i},Engineer`);
    rows.push('LEAD5@bulk.example,Again,5,', 'lead1150@bulk.example,Again,1150,');
    const res = await upload(apiKey, `email,first_name,last_name,title\r\n${rows.join('\r\n')}\r\n`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ total: 1202, imported: 1200, duplicates: 2, suppressed: 0, invalid: 0 });
    const [row] = await t.db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM leads WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT });
    expect(Number(row?.n)).to.equal(1200);
  });

  it('lists at most 100 errors but counts every invalid row', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const rows = Array.from({ length: 150 }, (_, i) => `bad-${i}`);
    const res = await upload(apiKey, `email\n${rows.join('\n')}\nok@example.com\n`);
    expect(res.body).to.include({ total: 151, imported: 1, invalid: 150 });
    expect(res.body.errors).to.have.length(100);
    expect(res.body.errors[0]).to.deep.equal({ line: 2, error: 'email "bad-0" is not a valid email address' });
    expect(res.body.errors[99]?.line).to.equal(101);
  });

  it('refuses a CSV without an email column, an empty body and other content types, importing nothing', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const noEmail = await upload(apiKey, 'name,company\nAda,Analytical\n');
    expect(noEmail.status).to.equal(400);
    expect(noEmail.body.error).to.match(/no email column/);
    const empty = await upload(apiKey, '');
    expect(empty.status).to.equal(400);
    expect(empty.body.error).to.match(/The CSV is empty/);
    const json = await upload(apiKey, JSON.stringify({ email: 'a@b.co' }), 'application/json');
    expect(json.status).to.equal(415);
    expect(json.body.error).to.equal('Content-Type must be text/csv');
    const noKey = await request(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'email\na@b.co\n' });
    expect(noKey.status).to.equal(401);
    expect(await storedLeads(accountId)).to.deep.equal([]);
  });

  it('refuses a declared body over 50 MB before reading it (413)', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const url = new URL(`${t.api.baseUrl}/v1/leads/import`);
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'text/csv', 'content-length': 60 * 1024 * 1024 } },
        (r) => {
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString('utf8')));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('email\n'); // a few bytes of the announced 60 MB: the answer must not wait for the rest
    });
    expect(res.status).to.equal(413);
    expect(JSON.parse(res.body)).to.deep.equal({ error: 'Request body is larger than 50 MB' });
  });

  it('an upload without a declared size is cut off at 50 MB with a 413 the client receives', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const url = new URL(`${t.api.baseUrl}/v1/leads/import`);
    const megabyte = Buffer.alloc(1024 * 1024, '\n');
    const res = await new Promise<{ status: number; body: string; sentMb: number }>((resolve, reject) => {
      let sentMb = 0;
      let answered = false;
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' } },
        (r) => {
          answered = true;
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString('utf8')));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body, sentMb }));
        },
      );
      // Once the answer is in, the server may close while we are still writing: that is expected.
      req.on('error', (err) => (answered ? undefined : reject(err)));
      const pump = (): void => {
        while (!answered && sentMb < 60) {
          sentMb++;
          if (!req.write(megabyte)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      req.write('email\nfirst@example.com\n');
      pump();
    });
    expect(res.status).to.equal(413);
    expect(JSON.parse(res.body)).to.deep.equal({ error: 'Request body is larger than 50 MB' });
    expect(res.sentMb).to.be.at.least(50);
    expect(await storedLeads(accountId)).to.deep.equal([]);
    // The service is still answering.
    expect((await request(`${t.api.baseUrl}/v1/leads`, { headers: surfaceB(apiKey) })).status).to.equal(200);
  });

  it('an import that passes its byte limit while streaming leaves the store as it was', async () => {
    const { accountId } = await createAccount(t.db.sequelize);
    // Enough rows for several batches to have been inserted before the limit is reached.
    function* rows() {
      yield 'email\n';
      for (let i = 0; i < 5000; i += 50) yield Array.from({ length: 50 }, (_, j) => `stream${i + j}@example.com\n`).join('');
    }
    let caught: unknown;
    try {
      await importLeadsCsv(t.db.sequelize, accountId, Readable.from(rows()), { maxBytes: 60_000, batchSize: 100 });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(ImportTooLarge);
    expect(await storedLeads(accountId)).to.deep.equal([]);
  });

  it('GET /v1/leads pages the account\'s leads; GET /v1/leads/:id finds only the account\'s own', async () => {
    const a = await createAccount(t.db.sequelize);
    const b = await createAccount(t.db.sequelize);
    await upload(a.apiKey, 'email,name\na1@example.com,A One\na2@example.com,A Two\na3@example.com,A Three\n');
    await upload(b.apiKey, 'email\nb1@example.com\n');
    const page2 = await request<{ leads: LeadBody[]; pagination: unknown }>(`${t.api.baseUrl}/v1/leads?page=2&perPage=2`, { headers: surfaceB(a.apiKey) });
    expect(page2.status).to.equal(200);
    expect(page2.body.pagination).to.deep.equal({ page: 2, perPage: 2, total: 3 });
    expect(page2.body.leads.map((l) => l.email)).to.deep.equal(['a3@example.com']);
    const alias = await request<{ pagination: unknown }>(`${t.api.baseUrl}/v1/leads?per_page=1`, { headers: surfaceB(a.apiKey) });
    expect(alias.body.pagination).to.deep.equal({ page: 1, perPage: 1, total: 3 });
    expect((await request(`${t.api.baseUrl}/v1/leads?perPage=101`, { headers: surfaceB(a.apiKey) })).status).to.equal(400);

    const own = page2.body.leads[0]!;
    const got = await request<LeadBody>(`${t.api.baseUrl}/v1/leads/${own.id}`, { headers: surfaceB(a.apiKey) });
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(own);
    expect(got.body).to.include({ firstName: 'A', lastName: 'Three', name: 'A Three' });
    const other = await request(`${t.api.baseUrl}/v1/leads/${own.id}`, { headers: surfaceB(b.apiKey) });
    expect(other.status).to.equal(404);
    expect(other.body).to.deep.equal({ error: 'Lead not found' });
    const bList = await request<{ leads: LeadBody[] }>(`${t.api.baseUrl}/v1/leads`, { headers: surfaceB(b.apiKey) });
    expect(bList.body.leads.map((l) => l.email)).to.deep.equal(['b1@example.com']);
  });
});
