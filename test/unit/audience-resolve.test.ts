import { expect } from 'chai';
import { resolveAudience } from '../../src/campaigns/audience/resolve';
import { MATCH_NOBODY_KEYWORD } from '../../src/leads/profile/types';

describe('resolveAudience', () => {
  it('resolves titles to keys, and titles no key names to roles', () => {
    const c = resolveAudience({ titles: ['CTO', 'VPs of Engineering', 'marketing directors', 'HR leaders'] });
    expect(c.titleKeys).to.include.members(['cto', 'founder_cto', 'vp_engineering', 'director_marketing']);
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

  it('accepts industry names and synonyms', () => {
    expect(resolveAudience({ industries: ['Financial Services', 'fintech'] }).industryIds).to.deep.equal(['fintech']);
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
