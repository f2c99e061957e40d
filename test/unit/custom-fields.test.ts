import { expect } from 'chai';
import Ajv from 'ajv';
import { AUDIENCE_FILTERS_SCHEMA } from '../../src/campaigns/audience/filters-schema';
import { resolveAudience, resolveCustom } from '../../src/campaigns/audience/resolve';
import { CUSTOM_FIELD_NAME, customColumnsOf, customFieldValues, MAX_CUSTOM_FIELDS_PER_IMPORT, normalizeCustomFieldName } from '../../src/leads/custom-fields';
import { ALL_LEADS, criteriaWhere } from '../../src/leads/criteria-sql';
import { apolloAudienceParams } from '../../src/leads/apollo/audience-params';
import { mapHeader } from '../../src/leads/import/columns';
import { rowToLead } from '../../src/leads/import/row';

const headers = (names: readonly string[]) => names.map((header, index) => ({ index, header }));

describe('custom field names', () => {
  it('folds accents, lower-cases and turns every other run of characters into one underscore', () => {
    expect(normalizeCustomFieldName('Favourite Colour')).to.equal('favourite_colour');
    expect(normalizeCustomFieldName('Código Postal')).to.equal('codigo_postal');
    expect(normalizeCustomFieldName('Straße & Größe')).to.equal('strasse_and_grosse');
    expect(normalizeCustomFieldName('  Lead -- Status!! ')).to.equal('lead_status');
    expect(normalizeCustomFieldName('__plan__')).to.equal('plan');
    expect(normalizeCustomFieldName("Owner's e-mail (CRM)")).to.equal('owners_e_mail_crm');
  });

  it('puts col_ before a leading digit', () => {
    expect(normalizeCustomFieldName('2024 Revenue ($)')).to.equal('col_2024_revenue');
    expect(normalizeCustomFieldName('#1 Priority')).to.equal('col_1_priority');
  });

  it('cuts a long name to 40 characters and never leaves a trailing underscore', () => {
    const long = normalizeCustomFieldName('The quarterly revenue of the company in US dollars');
    expect(long).to.equal('the_quarterly_revenue_of_the_company_in');
    expect(long!.length).to.be.at.most(40);
    expect(normalizeCustomFieldName('a'.repeat(39) + ' b')).to.equal('a'.repeat(39));
    expect(normalizeCustomFieldName('9'.repeat(60))).to.equal(`col_${'9'.repeat(36)}`);
  });

  it('gives nothing for a header with no letter or digit left', () => {
    for (const h of ['', '   ', '###', '---', 'Город', '名前']) expect(normalizeCustomFieldName(h), h).to.equal(null);
  });

  it('always yields a name the pattern accepts', () => {
    const samples = ['Favourite Colour', '2024', 'Ünïcödé', 'x'.repeat(100), '1'.repeat(100), 'a_b', 'ÆØÅ', 'Ça va?', 'é9'];
    for (const s of samples) {
      const n = normalizeCustomFieldName(s);
      expect(n !== null && CUSTOM_FIELD_NAME.test(n), `${s} -> ${n}`).to.equal(true);
    }
  });

  it('numbers a repeated name _2, _3 in header order, within 40 characters', () => {
    const long = 'x'.repeat(45);
    const { columns, ignored } = customColumnsOf(headers(['Plan', 'plan', 'PLAN!', 'plan_2', long, long]));
    expect(columns.map((c) => c.field)).to.deep.equal(['plan', 'plan_2', 'plan_3', 'plan_2_2', 'x'.repeat(40), `${'x'.repeat(38)}_2`]);
    expect(columns.map((c) => c.column)).to.deep.equal(['Plan', 'plan', 'PLAN!', 'plan_2', long, long]);
    expect(ignored).to.deep.equal([]);
  });

  it('skips blank headers, reports those that name nothing, and keeps at most 200 per import', () => {
    const many = Array.from({ length: MAX_CUSTOM_FIELDS_PER_IMPORT + 3 }, (_, i) => `Field ${i}`);
    const { columns, ignored } = customColumnsOf(headers(['', '  ', '???', ...many]));
    expect(columns).to.have.length(MAX_CUSTOM_FIELDS_PER_IMPORT);
    expect(columns[0]).to.deep.equal({ index: 3, column: 'Field 0', field: 'field_0' });
    expect(ignored).to.deep.equal(['???', 'Field 200', 'Field 201', 'Field 202']);
  });

  it('keeps trimmed values and leaves an empty cell out', () => {
    const { columns } = customColumnsOf(headers(['email', 'Plan', 'Notes', 'Owner']).slice(1));
    expect(customFieldValues(['a@b.example', '  Pro ', '', 'Sam'], columns)).to.deep.equal({ plan: 'Pro', owner: 'Sam' });
    expect(customFieldValues(['a@b.example', ' ', '', ''], columns)).to.equal(undefined);
  });
});

describe('custom fields in the CSV header and rows', () => {
  it('keeps every column that feeds no lead field as a custom field, and reports the rest as ignored', () => {
    const map = mapHeader(['Email', 'First Name', 'Plan', 'Favourite colour', '', '***', 'plan']);
    expect(map.used).to.deep.equal(['Email', 'First Name']);
    expect(map.custom.map((c) => ({ column: c.column, field: c.field }))).to.deep.equal([
      { column: 'Plan', field: 'plan' },
      { column: 'Favourite colour', field: 'favourite_colour' },
      { column: 'plan', field: 'plan_2' },
    ]);
    expect(map.ignored).to.deep.equal(['***']);
    const out = rowToLead(['ada@example.com', 'Ada', ' Pro ', '', 'x', 'y', 'Team'], map);
    expect(out).to.deep.include({ ok: true });
    expect(out.ok && out.lead.customFields).to.deep.equal({ plan: 'Pro', plan_2: 'Team' });
    const none = rowToLead(['bo@example.com', 'Bo', '', '', '', '', ''], map);
    expect(none.ok && 'customFields' in none.lead).to.equal(false);
  });
});

describe('custom field audience filters', () => {
  const validate = new Ajv({ strict: false }).compile(AUDIENCE_FILTERS_SCHEMA);

  it('are checked by the domain schema: pattern, at most 20 names, 1 to 50 non-blank values of at most 200 characters', () => {
    expect(validate({ custom: { plan: ['Pro'] }, exclude: { custom: { status: ['churned'] } } })).to.equal(true);
    const bad: unknown[] = [
      { custom: { Plan: ['Pro'] } },
      { custom: { '1plan': ['Pro'] } },
      { custom: { ['p'.repeat(41)]: ['Pro'] } },
      { custom: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, ['x']])) },
      { custom: { plan: [] } },
      { custom: { plan: Array.from({ length: 51 }, (_, i) => `v${i}`) } },
      { custom: { plan: ['   '] } },
      { custom: { plan: ['x'.repeat(201)] } },
      { custom: { plan: 'Pro' } },
      { exclude: { custom: { plan: [''] } } },
    ];
    for (const f of bad) expect(validate(f), JSON.stringify(f).slice(0, 80)).to.equal(false);
  });

  it('resolve to conditions: names in normal form, values trimmed without repeats; they name someone on their own', () => {
    expect(resolveCustom({ plan: [' Pro ', 'Pro', 'pro'], region: ['  '] })).to.deep.equal([{ field: 'plan', values: ['Pro', 'pro'] }]);
    const c = resolveAudience({ custom: { plan: ['Pro'] }, exclude: { custom: { status: ['Churned'] } } });
    expect(c.custom).to.deep.equal([{ field: 'plan', values: ['Pro'] }]);
    expect(c.exclude.custom).to.deep.equal([{ field: 'status', values: ['Churned'] }]);
    expect(c.keywords).to.deep.equal([]);
    expect(c.unrecognised).to.deep.equal([]);
    // Only an exclusion still names nobody.
    expect(resolveAudience({ exclude: { custom: { status: ['Churned'] } } }).unrecognised).to.include('(no filter names anyone)');
  });

  it('become SQL over l.custom_fields with every name and value bound', () => {
    const hostile = "x'); DROP TABLE leads; --";
    const w = criteriaWhere({ ...ALL_LEADS, custom: [{ field: 'plan', values: [hostile, 'Pro'] }], exclude: { ...ALL_LEADS.exclude, custom: [{ field: 'status', values: ['churned'] }] } }, 2);
    expect(w.sql).to.include('l.custom_fields ->> $2');
    expect(w.sql).to.not.include('DROP');
    expect(w.sql).to.not.include('plan');
    expect(w.bind).to.deep.equal(['plan', [hostile, 'Pro'], 'status', ['churned']]);
  });

  it('send nothing to Apollo: they are matched locally after the search', () => {
    const params = apolloAudienceParams(resolveAudience({ titles: ['CTO'], custom: { plan: ['Pro'] }, exclude: { custom: { status: ['x'] } } }));
    expect(params).to.deep.equal(apolloAudienceParams(resolveAudience({ titles: ['CTO'] })));
    expect(apolloAudienceParams(resolveAudience({ custom: { plan: ['Pro'] } }))).to.deep.equal({});
  });
});
