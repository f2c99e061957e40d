import { expect } from 'chai';
import { leadProfile } from '../../src/leads/profile/lead-profile';
import { companySizeOf } from '../../src/leads/profile/company-size';
import { countryCode } from '../../src/leads/profile/countries';
import { findCity } from '../../src/leads/profile/cities';

describe('leadProfile', () => {
  it('finds the canonical key of a title whatever its spelling', () => {
    for (const title of ['CTO', 'Chief Technology Officer', 'chief technical officer', 'C.T.O.', 'Acting CTO', 'CTO, Acme GmbH']) {
      expect(leadProfile({ title }).titleKey, title).to.equal('cto');
    }
    for (const title of ['VP Engineering', 'Vice President of Engineering', 'VP of Engineering', 'VP Eng', 'SVP, Engineering']) {
      const p = leadProfile({ title });
      expect(p.titleKey, title).to.equal('vp_engineering');
      expect([p.seniority, p.department]).to.deep.equal(['vp', 'engineering']);
    }
    expect(leadProfile({ title: 'Chief Revenue Officer' })).to.include({ titleKey: 'cro', seniority: 'c_level', department: 'sales' });
    expect(leadProfile({ title: 'Founder & CEO' }).titleKey).to.equal('founder_ceo');
  });

  it('reads seniority and department from the words of a title no spelling names', () => {
    expect(leadProfile({ title: 'Senior Backend Engineer' })).to.include({ seniority: 'senior', department: 'engineering' });
    expect(leadProfile({ title: 'Director, Demand Generation' })).to.include({ seniority: 'director', department: 'marketing' });
    expect(leadProfile({ title: 'Mechanical Engineer' })).to.include({ titleKey: null, department: 'engineering' });
    expect(leadProfile({ title: 'Senior Account Executive' })).to.include({ titleKey: 'account_executive', seniority: 'senior', department: 'sales' });
    // A generic word inside a longer title does not make it that title.
    expect(leadProfile({ title: 'Process Owner' }).titleKey).to.equal(null);
  });

  it('keeps the folded title for keywords', () => {
    expect(leadProfile({ title: 'Sr. Product Manager – Payments & Risk' }).titleNorm).to.equal('sr product manager payments and risk');
    expect(leadProfile({ title: 'Geschäftsführer' })).to.include({ titleNorm: 'geschaftsfuhrer', titleKey: 'ceo' });
  });

  it('reads countries by name, alias, native name or code', () => {
    for (const c of ['UK', 'United Kingdom', 'Britain', 'Great Britain', 'GB', 'England']) expect(countryCode(c), c).to.equal('GB');
    for (const c of ['USA', 'US', 'United States', 'America', 'U.S.']) expect(countryCode(c), c).to.equal('US');
    for (const c of ['Deutschland', 'Germany', 'DE', 'DEU', 'German']) expect(countryCode(c), c).to.equal('DE');
    expect(countryCode('Österreich')).to.equal('AT');
    expect(countryCode('Narnia')).to.equal(null);
  });

  it('takes the country from the city when the country is missing', () => {
    expect(leadProfile({ city: 'Berlin' })).to.include({ countryCode: 'DE', cityNorm: 'berlin' });
    expect(leadProfile({ city: 'München' }).countryCode).to.equal('DE');
    // Ambiguous names are the most populous place; a given country always wins.
    expect(findCity('Paris')?.countryCode).to.equal('FR');
    expect(leadProfile({ city: 'Paris', country: 'United States' }).countryCode).to.equal('US');
  });

  it('maps industries to the taxonomy', () => {
    expect(leadProfile({ industry: 'Financial Services' }).industryId).to.equal('financial_services');
    expect(leadProfile({ industry: 'Property & Casualty Insurance' }).industryId).to.equal('insurance');
    expect(leadProfile({ industry: 'Computer Software' }).industryId).to.equal('saas');
    expect(leadProfile({ industry: 'Hospital & Health Care' }).industryId).to.equal('hospitals');
    // The most specific reading, a member before its umbrella.
    expect(leadProfile({ industry: 'Retail - Online' }).industryId).to.equal('online_retail');
    expect(leadProfile({ industry: 'Mail Order & Catalog' }).industryId).to.equal('mail_order_retail');
    expect(leadProfile({ industry: 'Medical Equipment Manufacturing' }).industryId).to.equal('medical_devices');
    expect(leadProfile({ industry: 'Logistics and Supply Chain' }).industryId).to.equal('logistics');
    expect(leadProfile({ industry: 'Underwater basket weaving' }).industryId).to.equal(null);
  });

  it("reads a company size as its band's middle, an open band's lower end, or the count", () => {
    expect(companySizeOf('51-200')).to.equal(126);
    expect(companySizeOf('1,000')).to.equal(1000);
    expect(companySizeOf('10001+')).to.equal(10001);
    expect(companySizeOf('1,001-5,000')).to.equal(3001);
    expect(companySizeOf('1k-5k')).to.equal(3000);
    expect(companySizeOf('201-500 employees')).to.equal(351);
    expect(companySizeOf(250)).to.equal(250);
    expect(companySizeOf('unknown')).to.equal(null);
  });

  it('gives all nulls (and no title keys) for an empty lead', () => {
    const { titleKeys, ...rest } = leadProfile({});
    expect(titleKeys).to.deep.equal([]);
    expect(Object.values(rest).every((v) => v === null)).to.equal(true);
  });

  it('reads titles as people write them: inverted, abbreviated, with modifiers, two roles', () => {
    const cases: [string, string | null, string | null][] = [
      ['Manager, Human Resources', 'manager', 'people'],
      ['SVP, Sales', 'vp', 'sales'],
      ['Dir. Finance', 'director', 'finance'],
      ['VP Eng', 'vp', 'engineering'],
      ['EVP Sales', 'vp', 'sales'],
      ['Senior HR Manager', 'manager', 'people'],
      ['Sr. Mgr, Marketing', 'manager', 'marketing'],
      ['Hd of Ops', 'head', 'operations'],
      ['Deputy Head of Finance', 'head', 'finance'],
      ['Global Head of Sales - EMEA', 'head', 'sales'],
      ['Co-Founder & Head of Product', 'c_level', 'product'],
      ['Head of Customer Service (Remote)', 'head', 'customer_success'],
    ];
    for (const [title, seniority, department] of cases) expect(leadProfile({ title }), title).to.include({ seniority, department });
    expect(leadProfile({ title: 'Senior Software Engineer' })).to.include({ department: 'engineering', seniority: 'senior' });
    expect(leadProfile({ title: 'CRO' })).to.include({ titleKey: 'cro', seniority: 'c_level', department: 'sales' });
  });

  it('keeps every key a title with two roles names', () => {
    expect(leadProfile({ title: 'CTO / Co-Founder' }).titleKeys).to.include.members(['cto', 'founder']);
    expect(leadProfile({ title: 'CTO & Co-Founder' }).titleKeys).to.include.members(['founder_cto', 'cto', 'founder']);
    expect(leadProfile({ title: 'Head of Product | Co-founder' }).titleKeys).to.include.members(['founder', 'head_product']);
    expect(leadProfile({ title: 'Founder & CEO' }).titleKeys).to.include.members(['founder_ceo', 'founder', 'ceo']);
  });

  it('reads states and provinces, and fills country and state from the city', () => {
    expect(leadProfile({ city: 'Austin', state: 'TX', country: 'US' })).to.include({ stateCode: 'US-TX', countryCode: 'US', cityNorm: 'austin' });
    expect(leadProfile({ state: 'Ontario' })).to.include({ stateCode: 'CA-ON', countryCode: 'CA' });
    expect(leadProfile({ city: 'Toronto', state: 'ON', country: 'Canada' })).to.include({ stateCode: 'CA-ON' });
    expect(leadProfile({ city: 'München' })).to.include({ countryCode: 'DE', stateCode: 'DE-BY', cityNorm: 'munich' });
    expect(leadProfile({ city: 'Munich', country: 'Deutschland' })).to.include({ cityNorm: 'munich' });
    // A city of another country keeps its name as written, and gives no state.
    expect(leadProfile({ city: 'Munich', country: 'US' })).to.include({ countryCode: 'US', stateCode: null });
  });
});
