import { Readable } from 'node:stream';
import { expect } from 'chai';
import { importLeadsCsv } from '../../src/leads/import/import-csv';
import { createAccount, request, surfaceB, useTestApi } from '../support/api';

interface SearchBody {
  leads: Array<{ email: string; title: string | null; source: string }>;
  pagination: { page: number; perPage: number; total: number };
  source: string;
  error?: string;
}

describe('lead search over the stored leads (POST /v1/leads/search, no provider key)', () => {
  const t = useTestApi();
  let keyA: string;
  let keyB: string;

  before(async () => {
    const a = await createAccount(t.db.sequelize, 'free', 'A');
    const b = await createAccount(t.db.sequelize, 'free', 'B');
    keyA = a.apiKey;
    keyB = b.apiKey;
    // Addresses are chosen so the order within the one import (by address) is l1, l2, ...
    const csv = [
      'email,title,city,state,country,industry,company',
      'l1@a.example,Chief Technology Officer,Berlin,,Germany,Computer Software,Acme',
      'l2@a.example,CTO,Austin,Texas,United States,Software Development,Bolt',
      'l3@a.example,VP Sales,Vienna,,Austria,Financial Services,Coin',
      'l4@a.example,Head of Sales,Dublin,Leinster,Ireland,Retail,Dress',
      'l5@a.example,Director of 50% Growth,Moscow,,Russia,Retail,Eat',
      'l6@a.example,Staff Engineer,Austin,Texas,US,Computer Software,Fab',
    ].join('\n');
    await importLeadsCsv(t.db.sequelize, a.accountId, Readable.from([csv]));
    await importLeadsCsv(t.db.sequelize, b.accountId, Readable.from(['email,title,city,country,industry\nother@b.example,CTO,Austin,US,Computer Software\n']));
  });

  const search = (body: unknown, key = keyA) =>
    request<SearchBody>(`${t.api.baseUrl}/v1/leads/search`, {
      method: 'POST',
      headers: { ...surfaceB(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const emails = async (body: unknown, key = keyA): Promise<string[]> => {
    const res = await search(body, key);
    expect(res.status, res.text).to.equal(200);
    return res.body.leads.map((l) => l.email.split('@')[0]!);
  };

  it('answers with camelCase leads, the pagination and the source', async () => {
    const res = await search({});
    expect(res.status).to.equal(200);
    expect(res.body.source).to.equal('leads_store');
    expect(res.body.pagination).to.deep.equal({ page: 1, perPage: 20, total: 6 });
    expect(res.body.leads[0]).to.include({ email: 'l1@a.example', title: 'Chief Technology Officer', source: 'import' });
    expect(Object.keys(res.body.leads[0]!)).to.include.members(['firstName', 'companyDomain', 'linkedinUrl', 'createdAt']);
  });

  it('matches titles with their synonyms: "CTO" finds a Chief Technology Officer', async () => {
    expect(await emails({ person_titles: ['CTO'] })).to.deep.equal(['l1', 'l2']);
    expect(await emails({ person_titles: ['chief technology officer'] })).to.deep.equal(['l1', 'l2']);
    expect(await emails({ person_titles: ['CTO', 'VP Sales'] })).to.deep.equal(['l1', 'l2', 'l3']);
  });

  it('matches locations as countries, regions and cities', async () => {
    expect(await emails({ organization_locations: ['Germany'] })).to.deep.equal(['l1']);
    expect(await emails({ organization_locations: ['DACH'] })).to.deep.equal(['l1', 'l3']);
    expect(await emails({ organization_locations: ['US'] })).to.deep.equal(['l2', 'l6']); // not Russia
    expect(await emails({ organization_locations: ['united states', 'Ireland'] })).to.deep.equal(['l2', 'l4', 'l6']);
  });

  it('matches industries by the taxonomy', async () => {
    // A 'Financial Services' company is of the financial services umbrella, not a fintech.
    expect(await emails({ organization_industries: ['fintech'] })).to.deep.equal([]);
    expect(await emails({ organization_industries: ['financial services'] })).to.deep.equal(['l3']);
    expect(await emails({ organization_industries: ['technology'] })).to.deep.equal(['l1', 'l2', 'l6']);
    expect(await emails({ organization_industries: ['retail'] })).to.deep.equal(['l4', 'l5']);
  });

  it('requires every filter given (all-of across filters)', async () => {
    expect(await emails({ person_titles: ['CTO'], organization_locations: ['US'] })).to.deep.equal(['l2']);
    expect(await emails({ person_titles: ['CTO'], organization_industries: ['retail'] })).to.deep.equal([]);
  });

  it('takes a title no vocabulary knows as words that must appear, literally: % and _ are not wildcards', async () => {
    expect(await emails({ person_titles: ['50%'] })).to.deep.equal(['l5']);
    expect(await emails({ person_titles: ['_'] })).to.deep.equal([]);
    expect(await emails({ organization_locations: ['.*'] })).to.deep.equal([]);
  });

  it('pages with per_page and page', async () => {
    const res = await search({ organization_locations: ['US', 'Germany'], per_page: 2, page: 2 });
    expect(res.body.pagination).to.deep.equal({ page: 2, perPage: 2, total: 3 });
    expect(res.body.leads.map((l) => l.email)).to.deep.equal(['l6@a.example']);
  });

  it("never shows another account's leads", async () => {
    expect(await emails({ person_titles: ['CTO'], organization_locations: ['US'] })).to.not.include('other');
    expect(await emails({ person_titles: ['CTO'] }, keyB)).to.deep.equal(['other']);
  });

  it('refuses invalid bodies with a 400 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ per_page: 101 }, /^body\.per_page must be <= 100/],
      [{ per_page: 0 }, /^body\.per_page must be >= 1/],
      [{ person_titles: 'VP Sales' }, /^body\.person_titles must be array/],
      [{ person_titles: [''] }, /^body\.person_titles\.0 must NOT have fewer than 1 characters/],
      [{ personTitles: ['VP'] }, /^body has unknown field "personTitles"/],
    ];
    for (const [body, message] of cases) {
      const res = await search(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error).to.match(message);
    }
  });
});
