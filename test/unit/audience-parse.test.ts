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

  it('reads a function with a level as separate filters, the level as a range', () => {
    const p = parseAudienceText('HR leaders at logistics companies in France');
    expect(p.filters).to.deep.include({ departments: ['people'], seniorityMin: 'director' });
    const c = resolveAudience(p.filters);
    expect(c.departments).to.deep.equal(['people']);
    expect(c.seniorities).to.have.members(['c_level', 'vp', 'head', 'director']);
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
    expect(criteria('Nurses at hospitals in Japan')).to.deep.include({ titleKeys: ['nurse'], industryIds: ['hospitals'], countryCodes: ['JP'] });
  });

  it('reads role families and level ranges', () => {
    const read = (text: string) => parseAudienceText(text).filters;
    expect(read('finance leaders')).to.deep.equal({ departments: ['finance'], seniorityMin: 'director' });
    expect(read('engineering leadership')).to.deep.equal({ departments: ['engineering'], seniorityMin: 'director' });
    expect(read('people and HR leaders')).to.deep.equal({ departments: ['people'], seniorityMin: 'director' });
    expect(read('IT leaders')).to.deep.equal({ departments: ['it'], seniorityMin: 'director' });
    expect(read('leaders in IT')).to.deep.equal({ departments: ['it'], seniorityMin: 'director' });
    expect(read('VP-level and above')).to.deep.equal({ seniorityMin: 'vp' });
    expect(read('C-suite')).to.deep.equal({ seniorities: ['c_level'] });
    expect(read('executives')).to.deep.equal({ seniorityMin: 'vp' });
    expect(read('senior leadership')).to.deep.equal({ seniorityMin: 'head' });
    expect(read('directors+ in sales')).to.deep.equal({ departments: ['sales'], seniorityMin: 'director' });
    expect(read('heads of sales and marketing')).to.deep.equal({ departments: ['sales', 'marketing'], seniorities: ['head'] });
    expect(read('directors and VPs of engineering')).to.deep.equal({ departments: ['engineering'], seniorities: ['vp', 'director'] });
    // An exact title beside a family: each is a title, read the same way by the resolver.
    expect(read('CTOs and finance leaders')).to.deep.equal({ titles: ['ctos', 'finance leaders'] });
    expect(read('marketing directors and sales managers')).to.deep.equal({ titles: ['marketing directors', 'sales managers'] });
  });

  it('reads places anywhere in the phrase: cities, states and provinces, regions', () => {
    expect(criteria('Munich startups')).to.deep.include({ cities: [{ city: 'munich', countryCode: 'DE' }], companySizes: [{ max: 200 }] });
    expect(criteria('London SaaS CTOs')).to.deep.include({ cities: [{ city: 'london', countryCode: 'GB' }], industryIds: ['saas'], titleKeys: ['cto'] });
    expect(criteria('Toronto-based CFOs')).to.deep.include({ cities: [{ city: 'toronto', countryCode: 'CA' }], titleKeys: ['cfo'] });
    expect(criteria('marketing directors in Texas').subdivisions).to.deep.equal(['US-TX']);
    expect(criteria('CFOs in TX').subdivisions).to.deep.equal(['US-TX']);
    expect(criteria('founders on the West Coast').subdivisions).to.deep.equal(['US-CA', 'US-OR', 'US-WA']);
    // An everyday word that is also a town is not a place outside a place context.
    expect(criteria('mobile developers').cities).to.deep.equal([]);
  });

  it('reads umbrella industries and size words as one range each', () => {
    expect(criteria('VP-level and above at e-commerce companies').industryIds).to.include.members(['online_retail', 'mail_order_retail']);
    expect(criteria('C-suite in healthcare').industryIds).to.include.members(['hospitals', 'medical_devices']);
    expect(criteria('executives at enterprises').companySizes).to.deep.equal([{ min: 1000 }]);
    expect(criteria('CTOs at companies with 5,000+ employees').companySizes).to.deep.equal([{ min: 5000 }]);
    expect(criteria('startups with fewer than 50 employees').companySizes).to.deep.equal([{ max: 49 }]);
  });

  it('says which words became which filter', () => {
    const { readings } = parseAudienceText('finance leaders at Munich e-commerce startups');
    expect(readings).to.deep.include({ text: 'finance leaders', member: 'departments', values: ['finance'] });
    expect(readings).to.deep.include({ text: 'munich', member: 'locations', values: ['munich'] });
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
    expect(p.unrecognised).to.deep.equal(['quantum widget']);
    expect(resolveAudience(p.filters).keywords).to.deep.equal(['quantum widget']);
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
