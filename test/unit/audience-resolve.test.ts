import { expect } from 'chai';
import { resolveAudience } from '../../src/campaigns/audience/resolve';
import { MATCH_NOBODY_KEYWORD } from '../../src/leads/profile/types';

describe('resolveAudience', () => {
  it('resolves titles to keys, and titles no key names to roles', () => {
    const c = resolveAudience({ titles: ['CTO', 'VPs of Engineering', 'marketing directors', 'HR leaders'] });
    // A combined title ('CTO & Co-Founder') is found through the lead's keys, which name both: the criteria need only 'cto'.
    expect(c.titleKeys).to.include.members(['cto', 'vp_engineering', 'director_marketing']);
    expect(c.titleRoles).to.deep.include({ seniority: 'vp', department: 'engineering' });
    expect(c.titleRoles).to.deep.include({ seniority: 'director', department: 'marketing' });
    expect(c.titleRoles).to.deep.include({ seniority: 'head', department: 'people' });
    expect(c.unrecognised).to.deep.equal([]);
  });

  it('expands regions and reads countries and cities', () => {
    expect(resolveAudience({ locations: ['DACH'] }).countryCodes).to.deep.equal(['DE', 'AT', 'CH']);
    expect(resolveAudience({ locations: ['UK', 'Britain', 'GB', 'United Kingdom'] }).countryCodes).to.deep.equal(['GB']);
    expect(resolveAudience({ locations: ['EU'] }).countryCodes).to.have.length(27);
    expect(resolveAudience({ locations: ['Berlin'] }).cities).to.deep.equal([{ city: 'berlin', countryCode: 'DE' }]);
    expect(resolveAudience({ locations: ['Paris, United States'] }).cities).to.deep.equal([{ city: 'paris', countryCode: 'US' }]);
  });

  it('reads states and provinces, regions of them, and city-states as the city', () => {
    expect(resolveAudience({ locations: ['Texas', 'ON', 'US-CA', 'Québec'] }).subdivisions).to.deep.equal(['US-TX', 'CA-ON', 'US-CA', 'CA-QC']);
    expect(resolveAudience({ locations: ['West Coast'] }).subdivisions).to.deep.equal(['US-CA', 'US-OR', 'US-WA']);
    expect(resolveAudience({ locations: ['Austin, TX'] }).cities).to.deep.equal([{ city: 'austin', countryCode: 'US' }]);
    expect(resolveAudience({ locations: ['Hamburg'] }).cities).to.deep.equal([{ city: 'hamburg', countryCode: 'DE' }]);
    expect(resolveAudience({ locations: ['München'] }).cities).to.deep.equal([{ city: 'munich', countryCode: 'DE' }]);
  });

  it('takes a level range, one filter with the listed levels', () => {
    expect(resolveAudience({ seniorityMin: 'vp' }).seniorities).to.deep.equal(['c_level', 'vp']);
    expect(resolveAudience({ seniorityMin: 'manager', seniorityMax: 'head' }).seniorities).to.deep.equal(['head', 'director', 'manager']);
    expect(resolveAudience({ seniorityMax: 'senior' }).seniorities).to.deep.equal(['senior', 'entry']);
    expect(resolveAudience({ seniorities: ['entry'], seniorityMin: 'director' }).seniorities).to.have.members(['entry', 'c_level', 'vp', 'head', 'director']);
  });

  it('reads a list of functions and levels together: every function at every level', () => {
    const c = resolveAudience({ titles: ['finance and HR leaders', 'directors and VPs of Engineering'] });
    for (const department of ['finance', 'people']) for (const seniority of ['c_level', 'vp', 'head', 'director']) expect(c.titleRoles).to.deep.include({ seniority, department });
    expect(c.titleRoles).to.deep.include({ seniority: 'director', department: 'engineering' });
    expect(c.titleRoles).to.not.deep.include({ seniority: null, department: 'finance' });
  });

  it('takes what an umbrella industry covers', () => {
    expect(resolveAudience({ industries: ['e-commerce'] }).industryIds).to.have.members(['ecommerce', 'online_retail', 'mail_order_retail', 'marketplaces']);
    expect(resolveAudience({ industries: ['healthcare'] }).industryIds).to.include.members(['healthcare', 'hospitals', 'medical_devices']);
    expect(resolveAudience({ industries: ['retail'] }).industryIds).to.include.members(['retail', 'grocery', 'online_retail', 'mail_order_retail']);
    expect(resolveAudience({ exclude: { industries: ['life sciences'] } }).exclude.industryIds).to.have.members(['biotech_pharma', 'pharma', 'biotech', 'medical_devices']);
  });

  it('accepts industry names and synonyms', () => {
    expect(resolveAudience({ industries: ['fintech'] }).industryIds).to.deep.equal(['fintech']);
    expect(resolveAudience({ industries: ['Financial Services'] }).industryIds).to.have.members(['financial_services', 'fintech', 'banking', 'insurance', 'investment']);
    expect(resolveAudience({ industries: ['Computer Software', 'SaaS'] }).industryIds).to.deep.equal(['saas']);
  });

  it('keeps what no vocabulary knows as a keyword, so it narrows', () => {
    const c = resolveAudience({ titles: ['CTO'], industries: ['zorblax'] });
    expect(c.unrecognised).to.deep.equal(['zorblax']);
    expect(c.keywords).to.deep.equal(['zorblax']);
  });

  it('names nobody when the filters name nothing', () => {
    for (const f of [{}, { titles: [] }, { exclude: { companies: ['Acme'] } }]) {
      expect(resolveAudience(f).keywords).to.deep.equal([MATCH_NOBODY_KEYWORD]);
    }
  });

  it('resolves exclusions like the filters', () => {
    const c = resolveAudience({ departments: ['finance'], exclude: { titles: ['CFOs'], industries: ['agencies'], companies: [' Acme  Inc '] } });
    expect(c.exclude.titleKeys).to.include('cfo');
    expect(c.exclude.industryIds).to.deep.equal(['marketing_advertising']);
    expect(c.exclude.companies).to.deep.equal(['acme inc']);
  });

  it('keeps valid company size ranges only', () => {
    const c = resolveAudience({ titles: ['CTO'], companySizes: [{ min: 50, max: 200 }, { min: 500, max: 10 }, {}] });
    expect(c.companySizes).to.deep.equal([{ min: 50, max: 200 }]);
  });
});
