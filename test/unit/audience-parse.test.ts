import { expect } from 'chai';
import { MAX_AUDIENCE_TEXT_LENGTH, parseAudienceText } from '../../src/campaigns/audience/parse-text';
import { resolveAudience } from '../../src/campaigns/audience/resolve';
import { MATCH_NOBODY_KEYWORD } from '../../src/leads/profile/types';

const criteria = (text: string) => resolveAudience(parseAudienceText(text).filters);

describe('parseAudienceText', () => {
  it('reads titles, industry and country', () => {
    const c = criteria('CTOs and VPs of Engineering at fintech companies in Germany');
    expect(c.titleKeys).to.include.members(['cto', 'vp_engineering']);
    expect(c.industryIds).to.deep.equal(['fintech']);
    expect(c.countryCodes).to.deep.equal(['DE']);
    expect(c.keywords).to.deep.equal([]);
  });

  it('reads department and seniority together as one title', () => {
    const c = criteria('HR leaders at logistics companies in France');
    expect(c.titleRoles).to.deep.include({ seniority: 'director', department: 'people' });
    expect(c.industryIds).to.deep.equal(['logistics']);
    expect(c.countryCodes).to.deep.equal(['FR']);
    expect(criteria('Marketing directors at SaaS companies in the United Kingdom')).to.deep.include({ industryIds: ['saas'], countryCodes: ['GB'] });
  });

  it('reads cities, regions, company sizes and size words', () => {
    const founders = criteria('founders of seed-stage startups in Berlin, not agencies');
    expect(founders.titleKeys).to.include('founder');
    expect(founders.cities).to.deep.equal([{ city: 'berlin', countryCode: 'DE' }]);
    expect(founders.companySizes).to.deep.equal([{ max: 50 }]);
    expect(founders.exclude.industryIds).to.deep.equal(['marketing_advertising']);
    const heads = criteria('heads of sales at 50-200 employee B2B software companies in DACH');
    expect(heads.companySizes).to.deep.equal([{ min: 50, max: 200 }]);
    expect(heads.countryCodes).to.deep.equal(['DE', 'AT', 'CH']);
    expect(heads.industryIds).to.deep.equal(['saas']);
    expect(criteria('CTOs at companies with more than 1,000 employees').companySizes).to.deep.equal([{ min: 1001 }]);
  });

  it('reads nurses at hospitals as a title and an industry', () => {
    expect(criteria('Nurses at hospitals in Japan')).to.deep.include({ titleKeys: ['nurse'], industryIds: ['healthcare'], countryCodes: ['JP'] });
  });

  it('reads exclusions', () => {
    const c = criteria('anyone in finance except CFOs at Acme');
    expect(c.departments).to.deep.equal(['finance']);
    expect(c.exclude.titleKeys).to.include('cfo');
    expect(c.exclude.companies).to.deep.equal(['acme']);
    for (const word of ['not', 'except', 'excluding', 'no']) {
      expect(criteria(`CTOs in Germany, ${word} agencies`).exclude.industryIds, word).to.deep.equal(['marketing_advertising']);
    }
  });

  it('keeps unknown words as keywords', () => {
    const p = parseAudienceText('CTOs at quantum widget makers');
    expect(p.unrecognised).to.deep.equal(['quantum widget makers']);
    expect(resolveAudience(p.filters).keywords).to.deep.equal(['quantum widget makers']);
  });

  it('matches nobody for stop words only', () => {
    for (const text of ['', 'the of and', 'people at companies in the']) {
      expect(criteria(text).keywords, JSON.stringify(text)).to.deep.equal([MATCH_NOBODY_KEYWORD]);
    }
  });

  it('bounds long texts: over the limit names nobody, and is quick', () => {
    const long = 'CTOs in Germany and '.repeat(500);
    expect(long.length).to.be.above(MAX_AUDIENCE_TEXT_LENGTH);
    const start = Date.now();
    expect(criteria(long).keywords).to.deep.equal([MATCH_NOBODY_KEYWORD]);
    const atLimit = 'CTOs in Germany, heads of marketing in Lyon and '.repeat(60).slice(0, MAX_AUDIENCE_TEXT_LENGTH);
    criteria(atLimit);
    expect(Date.now() - start).to.be.below(1500);
  });
});
