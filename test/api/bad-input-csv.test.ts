import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { QueryTypes } from 'sequelize';
import { MAX_COLUMNS } from '../../src/leads/import/columns';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';
import { seedCampaign, seedEmail, seedFact, seedLead, seedReply } from '../support/campaign-seed';
import { cliEnv, runOutreach } from '../support/cli';

/**
 * CSV in and out over HTTP: the campaign export defuses every cell a spreadsheet would run as a
 * formula, and the lead import reports one over-long row as one bad row and refuses a header of
 * thousands of columns with a 400 naming the limit (the CLI says the same).
 */

interface ImportResult {
  total: number;
  imported: number;
  invalid: number;
  errors: Array<{ line: number; error: string }>;
  error?: string;
}

const TOO_LONG = 'row is longer than 64 KB (an unclosed quote?)';
const TOO_MANY_COLUMNS = (n: number): string => `The CSV header has ${n} columns; at most ${MAX_COLUMNS} are allowed`;

describe('bad input: CSV export cells and CSV import rows', function () {
  this.timeout(120_000);
  const t = useTestApi();

  describe('GET /campaigns/:id/export', () => {
    // Each would run as a formula in a spreadsheet: the ASCII signs, their full-width forms, a leading tab or carriage return.
    const FORMULAS = ['=1+2', '+1+2', '-1+2', '@SUM(A1:A9)', '＝1+2', '＋1+2', '－1+2', '＠SUM(A1:A9)', '\t=1+2', '\r=1+2'];
    const HARMLESS = ['Ada', '1+2=3', 'a=b', ' =1+2 (a space first)'];

    it('prefixes every such cell with an apostrophe and leaves the others as stored; the JSON export is as stored', async () => {
      const { accountId, apiKey } = await createAccount(t.db.sequelize);
      const c = await seedCampaign(accountId, { name: 'Formulas' });
      const values = [...FORMULAS, ...HARMLESS];
      for (const [i, v] of values.entries()) {
        const lead = await seedLead(accountId, { email: `lead${i}@formula.example`, firstName: v, lastName: null, company: v });
        const email = await seedEmail(c, lead, { subject: v });
        await seedFact(email, 'sent', { at: new Date(Date.UTC(2026, 3, 1, 10, 0, i)) });
        if (i === 0) await seedReply(email, lead, { receivedAt: new Date(Date.UTC(2026, 3, 1, 11)), preview: '＝HYPERLINK("http://evil.example")' });
      }

      const res = await request(`${t.api.baseUrl}/campaigns/${c.id}/export?format=csv`, { headers: surfaceA(apiKey) });
      expect(res.status, res.text).to.equal(200);
      const [header, ...lines] = parseCsv(res.text) as string[][];
      const rows = lines.map((l) => Object.fromEntries(header!.map((h, i) => [h, l[i]])));
      const sent = rows.filter((r) => r.event === 'sent');
      expect(sent).to.have.length(values.length);
      sent.forEach((row, i) => {
        const v = values[i]!;
        const shown = FORMULAS.includes(v) ? `'${v}` : v;
        expect(row.company, JSON.stringify(v)).to.equal(shown);
        expect(row.subject, JSON.stringify(v)).to.equal(shown);
        expect(row.step, 'a number is not a formula').to.equal('1');
      });
      // The name is stored trimmed in the export (first and last name joined), so only the ones without leading white space.
      expect(sent.slice(0, 8).map((r) => r.lead_name)).to.deep.equal(FORMULAS.slice(0, 8).map((v) => `'${v}`));
      expect(rows.find((r) => r.event === 'replied')?.reply_preview).to.equal('\'＝HYPERLINK("http://evil.example")');

      const json = await request<Array<Record<string, unknown>>>(`${t.api.baseUrl}/campaigns/${c.id}/export?format=json`, { headers: surfaceA(apiKey) });
      expect(json.body.filter((r) => r.event === 'sent').map((r) => r.company)).to.deep.equal(values);
    });
  });

  describe('POST /v1/leads/import', () => {
    const upload = (key: string, csv: string | Buffer) =>
      request<ImportResult>(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'text/csv' }, body: csv });

    const storedEmails = async (accountId: string): Promise<string[]> =>
      (
        await t.db.sequelize.query<{ email: string }>(`SELECT email FROM leads WHERE account_id = $1 ORDER BY email`, { bind: [accountId], type: QueryTypes.SELECT })
      ).map((r) => r.email);

    const HEADER = 'email,first_name,company';
    const AFTER = ['bob@after.example,Bob,"After, Inc."', '"cy@after.example","Cy","Multi', 'line Co"', 'dee@after.example,Dee,After'];

    it('a 10 MB row is one bad row with the line it starts on; the rows after it are imported', async () => {
      const { accountId, apiKey } = await createAccount(t.db.sequelize);
      const csv = [HEADER, 'ada@before.example,Ada,Before', `junk@x.example,${'A'.repeat(10 * 1024 * 1024)},Junk`, ...AFTER].join('\n') + '\n';
      const res = await upload(apiKey, csv);
      expect(res.status, res.text.slice(0, 300)).to.equal(200);
      expect(res.body).to.include({ total: 5, imported: 4, invalid: 1 });
      expect(res.body.errors).to.deep.equal([{ line: 3, error: TOO_LONG }]);
      expect(await storedEmails(accountId)).to.deep.equal(['ada@before.example', 'bob@after.example', 'cy@after.example', 'dee@after.example']);
    });

    it('a 10 MB quoted field over many lines is one bad row, and the line numbers after it stay those of the file', async () => {
      const { apiKey } = await createAccount(t.db.sequelize);
      const field = `"${'quoted text\n'.repeat(900_000)}"`; // about 10 MB on 900,000 lines
      const csv = [HEADER, `long@x.example,Long,${field}`, 'not-an-address,Bad,Row', ...AFTER].join('\n') + '\n';
      const res = await upload(apiKey, csv);
      expect(res.status, res.text.slice(0, 300)).to.equal(200);
      expect(res.body).to.include({ total: 5, imported: 3, invalid: 2 });
      expect(res.body.errors).to.deep.equal([
        { line: 2, error: TOO_LONG },
        { line: 900_003, error: 'email "not-an-address" is not a valid email address' },
      ]);
    });

    it('an unclosed quote that swallows 10 MB to the end of the file is one bad row', async () => {
      const { apiKey } = await createAccount(t.db.sequelize);
      const csv = [HEADER, 'ada@before.example,Ada,Before', `eve@x.example,Eve,"unclosed ${'x'.repeat(1024)}`, ...Array.from({ length: 10_000 }, (_, i) => `p${i}@after.example,${'y'.repeat(1000)},Co`)].join('\n');
      const res = await upload(apiKey, csv);
      expect(res.status, res.text.slice(0, 300)).to.equal(200);
      expect(res.body).to.include({ total: 2, imported: 1, invalid: 1 });
      expect(res.body.errors).to.deep.equal([{ line: 3, error: TOO_LONG }]);
    });

    it(`a header of 20,000 columns is a 400 naming the limit of ${MAX_COLUMNS}, not "CSV is empty", and imports nothing`, async () => {
      const { accountId, apiKey } = await createAccount(t.db.sequelize);
      const wide = (n: number, name: (i: number) => string) => ['email', ...Array.from({ length: n - 1 }, (_, i) => name(i))].join(',');
      // About 190 KB, past the row limit, and 20,000 one-letter columns (40 KB) within it: both are counted.
      for (const header of [wide(20_000, (i) => `column_${i}`), wide(20_000, () => 'x')]) {
        const res = await upload(apiKey, `${header}\nada@wide.example\n`);
        expect(res.status, res.text).to.equal(400);
        expect(res.body).to.deep.equal({ error: TOO_MANY_COLUMNS(20_000) });
      }
      const atLimit = await upload(apiKey, `${wide(MAX_COLUMNS, () => 'x')}\nada@wide.example\n`);
      expect(atLimit.status, atLimit.text).to.equal(200);
      expect(atLimit.body).to.include({ imported: 1 });
      const over = await upload(apiKey, `${wide(MAX_COLUMNS + 1, () => 'x')}\nbob@wide.example\n`);
      expect(over.body).to.deep.equal({ error: TOO_MANY_COLUMNS(MAX_COLUMNS + 1) });
      const long = await upload(apiKey, `email,${'n'.repeat(70_000)}\nbob@wide.example\n`);
      expect(long.status, long.text).to.equal(400);
      expect(long.body).to.deep.equal({ error: 'The CSV header is longer than 64 KB' });
      expect(await storedEmails(accountId)).to.deep.equal(['ada@wide.example']);
    });

    it('the CLI reads the same file the same way: the column limit as its message, exit 1', async () => {
      const { accountId } = await createAccount(t.db.sequelize);
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bad-input-csv-'));
      try {
        const file = path.join(dir, 'wide.csv');
        await fs.writeFile(file, `${['email', ...Array.from({ length: 19_999 }, (_, i) => `column_${i}`)].join(',')}\nada@wide.example\n`);
        const out = await runOutreach(['leads', 'import', file, '--account', accountId], cliEnv(t.db.url));
        expect(out.code, out.stderr).to.equal(1);
        expect(out.stderr).to.include(TOO_MANY_COLUMNS(20_000));
        expect(out.stdout).to.equal('');
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    });
  });
});
