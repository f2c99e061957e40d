import { expect } from 'chai';
import { parseAudienceText } from '../../src/campaigns/audience/parse-text';
import { resolveAudience } from '../../src/campaigns/audience/resolve';
import type { AudienceFilters } from '../../src/campaigns/audience/types';
import { apolloAudienceParams, apolloSeniorities, audienceSearchQuery, countryName, employeesRange, industryTags } from '../../src/leads/apollo/audience-params';

const paramsOf = (filters: AudienceFilters) => apolloAudienceParams(resolveAudience(filters));

describe("an audience as Apollo's people-search parameters", () => {
  it('CTOs and VPs of Engineering at fintech companies in Germany (the parser, then the mapping)', () => {
    const parsed = parseAudienceText('CTOs and VPs of Engineering at fintech companies in Germany');
    expect(paramsOf(parsed.filters)).to.deep.equal({
      person_titles: ['CTO', 'Chief Technology Officer', 'VP of Engineering', 'Vice President of Engineering'],
      person_locations: ['Germany'],
      q_organization_keyword_tags: ['fintech'],
    });
  });

  it('explicit filters: sizes as "min,max" ranges, one keyword as q_keywords, seniorities in Apollo values', () => {
    expect(
      paramsOf({
        titles: ['Head of Sales'],
        seniorities: ['c_level', 'vp', 'entry'],
        companySizes: [{ min: 51, max: 200 }, { min: 1001 }, { max: 50 }],
        keywords: ['payments'],
        industries: ['SaaS'],
        locations: ['France', 'Berlin'],
      }),
    ).to.deep.equal({
      person_seniorities: ['owner', 'founder', 'c_suite', 'partner', 'vp', 'entry', 'intern'],
      person_titles: ['Head of Sales'],
      person_locations: ['France', 'Berlin'],
      q_organization_keyword_tags: ['software', 'saas'],
      organization_num_employees_ranges: ['51,200', '1001,1000000', '1,50'],
      q_keywords: 'payments',
    });
  });

  it('a region is sent as its countries by name', () => {
    expect(paramsOf({ titles: ['marketing directors'], locations: ['DACH'] })).to.deep.equal({
      person_titles: ['Director of Marketing', 'Marketing Director'],
      person_locations: ['Germany', 'Austria', 'Switzerland'],
    });
    expect(paramsOf({ locations: ['North America'] })!.person_locations).to.deep.equal(['United States', 'Canada']);
  });

  it('titles that name a seniority only go as person_seniorities; founders leave out the combined titles', () => {
    expect(paramsOf({ titles: ['executives'] })).to.deep.equal({ person_seniorities: ['owner', 'founder', 'c_suite', 'partner', 'vp'] });
    // With seniorities given as well, both hold: only the common ones.
    expect(paramsOf({ titles: ['executives'], seniorities: ['vp', 'director'] })).to.deep.equal({ person_seniorities: ['vp'] });
    expect(paramsOf({ titles: ['founders'] })!.person_titles).to.deep.equal(['Founder', 'Co-Founder']);
  });

  it('never narrower than the audience: several keywords, departments and exclusions are matched locally only', () => {
    const p = paramsOf({ titles: ['CTO'], keywords: ['payments', 'lending'], departments: ['engineering'], exclude: { companies: ['Acme'], titles: ['Intern'], industries: ['agencies'] } });
    expect(p).to.deep.equal({ person_titles: ['CTO', 'Chief Technology Officer'] });
    // A title with a seniority and a department-only title: no title parameter at all (an OR Apollo's titles cannot say).
    expect(paramsOf({ titles: ['directors', 'CTO'] })).to.not.have.property('person_titles');
  });

  it('a role family goes as its levels, a level range as its levels, states as "State, US", an umbrella as its members', () => {
    expect(paramsOf(parseAudienceText('finance leaders in Texas').filters)).to.deep.equal({
      person_seniorities: ['owner', 'founder', 'c_suite', 'partner', 'vp', 'head', 'director'],
      person_locations: ['Texas, US'],
    });
    expect(paramsOf({ seniorityMin: 'vp', locations: ['Ontario', 'West Coast'] })).to.deep.equal({
      person_seniorities: ['owner', 'founder', 'c_suite', 'partner', 'vp'],
      person_locations: ['Ontario, CA', 'California, US', 'Oregon, US', 'Washington, US'],
    });
    expect(paramsOf({ industries: ['e-commerce'] })!.q_organization_keyword_tags).to.include.members(['e-commerce', 'online retail', 'mail-order retail']);
  });

  it('an audience that names nobody asks the provider nothing', () => {
    expect(paramsOf({})).to.equal(null);
  });

  it('the pieces: seniorities, country names, industry tags, ranges, and the client query', () => {
    expect(apolloSeniorities(['director', 'c_level', 'manager'])).to.deep.equal(['owner', 'founder', 'c_suite', 'partner', 'director', 'manager']);
    expect(['US', 'GB', 'DE', 'ch'].map(countryName)).to.deep.equal(['United States', 'United Kingdom', 'Germany', 'Switzerland']);
    expect(countryName('ZZ')).to.equal(null);
    expect(industryTags('marketing_advertising')).to.deep.equal(['marketing', 'advertising']);
    expect(industryTags('no_such_industry')).to.deep.equal([]);
    expect(employeesRange({ min: 51, max: 200 })).to.equal('51,200');
    expect(
      audienceSearchQuery({ person_titles: ['CTO'], person_seniorities: ['vp'], person_locations: ['Germany'], q_organization_keyword_tags: ['fintech'], organization_num_employees_ranges: ['1,50'], q_keywords: 'payments' }),
    ).to.deep.equal({
      personTitles: ['CTO'],
      personSeniorities: ['vp'],
      personLocations: ['Germany'],
      organizationIndustries: ['fintech'],
      organizationNumEmployeesRanges: ['1,50'],
      keywords: 'payments',
    });
  });
});
