import { expect } from 'chai';
import { retryDelayMs } from '../../src/leads/apollo/retry-after';
import { personToLead, usableEmail } from '../../src/leads/apollo/map-person';
import { InvalidEnrichRequest, parseEnrichIdentity } from '../../src/leads/enrich-identity';
import { isValidEmail, isValidPhone, normalizeDomain, normalizeLinkedinUrl, splitFullName, splitLocation } from '../../src/leads/fields';
import { ImportHeaderError, mapHeader } from '../../src/leads/import/columns';
import { RecordLines } from '../../src/leads/import/line-numbers';
import { rowToLead } from '../../src/leads/import/row';
import { containsPattern, wordsPattern } from '../../src/leads/lead-repository';

describe('lead fields and CSV rows', () => {
  it('accepts ordinary addresses and refuses broken ones', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org', "o'neil@example.ie"]) expect(isValidEmail(ok), ok).to.equal(true);
    for (const bad of ['', 'plain', 'a@b', '@b.co', 'a@@b.co', 'a b@c.co', '.a@b.co', 'a..b@c.co', 'a@-b.co', `${'x'.repeat(65)}@b.co`]) {
      expect(isValidEmail(bad), bad).to.equal(false);
    }
  });

  it('reduces websites to bare domains and refuses what is not one', () => {
    expect(normalizeDomain('https://www.Acme.com/about?x=1')).to.equal('acme.com');
    expect(normalizeDomain('acme.co.uk')).to.equal('acme.co.uk');
    expect(normalizeDomain('WWW.ACME.COM')).to.equal('acme.com');
    for (const bad of ['acme', 'ftp://acme.com', 'not a domain', 'https://user:pw@acme.com', '']) expect(normalizeDomain(bad), bad).to.equal(null);
  });

  it('takes LinkedIn profile URLs (adding a scheme) and nothing else', () => {
    expect(normalizeLinkedinUrl('linkedin.com/in/ada')).to.equal('https://linkedin.com/in/ada');
    expect(normalizeLinkedinUrl('https://uk.linkedin.com/in/ada-l/')).to.equal('https://uk.linkedin.com/in/ada-l/');
    expect(normalizeLinkedinUrl('http://www.linkedin.com/pub/ada/1/2/3')).to.not.equal(null);
    for (const bad of ['https://linkedin.com/company/acme', 'https://evil.com/in/ada', 'https://linkedin.com.evil.com/in/ada', 'ada']) {
      expect(normalizeLinkedinUrl(bad), bad).to.equal(null);
    }
  });

  it('knows phone numbers, full names and locations', () => {
    expect(isValidPhone('+1 (512) 555-0101')).to.equal(true);
    expect(isValidPhone('555 0101 ext. 12')).to.equal(true);
    expect(isValidPhone('call me')).to.equal(false);
    expect(isValidPhone('12')).to.equal(false);
    expect(splitFullName('  Ada  King Lovelace ')).to.deep.equal({ firstName: 'Ada', lastName: 'King Lovelace' });
    expect(splitFullName('Cher')).to.deep.equal({ firstName: 'Cher', lastName: null });
    expect(splitLocation('Austin, Texas, United States')).to.deep.equal({ city: 'Austin', state: 'Texas', country: 'United States' });
    expect(splitLocation('Paris, France')).to.deep.equal({ city: 'Paris', state: null, country: 'France' });
    expect(splitLocation('Germany')).to.deep.equal({ city: null, state: null, country: 'Germany' });
  });

  it('maps header names flexibly and insists on an email column', () => {
    const map = mapHeader(['E-mail', 'First Name', 'last_name', 'Job Title', 'Organization', 'Website', 'Location', 'LinkedIn', 'Phone Number', 'Favourite colour']);
    expect([...map.columns.keys()]).to.deep.equal(['email', 'firstName', 'lastName', 'title', 'company', 'companyDomain', 'location', 'linkedinUrl', 'phone']);
    expect(map.custom).to.deep.equal([{ index: 9, column: 'Favourite colour', field: 'favourite_colour' }]);
    expect(map.ignored).to.deep.equal([]);
    expect(() => mapHeader(['name', 'company'])).to.throw(ImportHeaderError, /no email column/);
  });

  it('turns a row into a lead: lower-cased address, split name and location, bare domain', () => {
    const map = mapHeader(['Email', 'Full Name', 'Title', 'Company', 'Website', 'Location', 'linkedin_url', 'phone']);
    const out = rowToLead(['  Ada@Example.COM ', 'Ada King Lovelace', 'CTO', 'Analytical', 'https://www.analytical.example/', 'London, England, UK', 'linkedin.com/in/ada', ''], map);
    expect(out).to.deep.equal({
      ok: true,
      lead: {
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'King Lovelace',
        title: 'CTO',
        company: 'Analytical',
        companyDomain: 'analytical.example',
        industry: null,
        city: 'London',
        state: 'England',
        country: 'UK',
        linkedinUrl: 'https://linkedin.com/in/ada',
        phone: null,
      },
    });
  });

  it('uses the first non-empty of two columns that feed one field, and explicit fields over composites', () => {
    const map = mapHeader(['email', 'work email', 'first_name', 'name', 'country', 'location']);
    const out = rowToLead(['', 'b@example.com', 'Bea', 'Someone Else', '', 'Lyon, France'], map);
    expect(out.ok && out.lead).to.include({ email: 'b@example.com', firstName: 'Bea', lastName: null, city: 'Lyon', country: 'France' });
  });

  it('says why a row is refused', () => {
    const map = mapHeader(['email', 'title', 'website', 'linkedin', 'phone']);
    const reason = (row: string[]) => {
      const out = rowToLead(row, map);
      return out.ok ? null : out.error;
    };
    expect(reason(['', 'CTO'])).to.equal('email is missing');
    expect(reason(['nope', 'CTO'])).to.equal('email "nope" is not a valid email address');
    expect(reason(['a@b.co', 'x'.repeat(201)])).to.equal('title is longer than 200 characters');
    expect(reason(['a@b.co', '', 'not a site'])).to.match(/^website "not a site" is not a domain/);
    expect(reason(['a@b.co', '', '', 'https://example.com/ada'])).to.match(/^linkedin ".*" is not a LinkedIn profile URL/);
    expect(reason(['a@b.co', '', '', '', 'call me'])).to.equal('phone "call me" is not a phone number');
    expect(reason(['a@b.co', 'CTO', 'a.co', '', '', 'extra'])).to.match(/^row has 6 fields, the header has 5/);
    expect(reason(['a@b.co'])).to.equal(null); // short rows are fine: missing cells are empty
  });

  it('finds the first line of each record from where records end and how many empty lines were skipped', () => {
    const lines = new RecordLines();
    // header on 1; empty lines 2-3; a record on 4-6 (a quoted field spans lines); empty 7; records on 8 and 9.
    expect([lines.startOf(1, 0), lines.startOf(6, 2), lines.startOf(8, 3), lines.startOf(9, 3)]).to.deep.equal([1, 4, 8, 9]);
  });
});

describe('lead search patterns', () => {
  it('escape LIKE and regex characters so a term is matched literally', () => {
    expect(containsPattern('50%_off\\')).to.equal('%50\\%\\_off\\\\%');
    expect(wordsPattern('C++ (dev)')).to.equal('(^|[^[:alnum:]])C\\+\\+ \\(dev\\)($|[^[:alnum:]])');
  });
});

describe('enrich request forms', () => {
  it('reads each of the three forms', () => {
    expect(parseEnrichIdentity({ email: ' Ada@Example.com ' })).to.deep.equal({ kind: 'email', email: 'ada@example.com' });
    expect(parseEnrichIdentity({ firstName: 'Ada', lastName: 'Lovelace', domain: 'https://www.analytical.example' })).to.deep.equal({
      kind: 'name',
      firstName: 'Ada',
      lastName: 'Lovelace',
      domain: 'analytical.example',
    });
    expect(parseEnrichIdentity({ linkedinUrl: 'linkedin.com/in/ada' })).to.deep.equal({ kind: 'linkedin', linkedinUrl: 'https://linkedin.com/in/ada' });
  });

  it('explains a request that names nobody, several ways, or half a name', () => {
    const message = (b: object) => {
      try {
        parseEnrichIdentity(b);
        return null;
      } catch (err) {
        expect(err).to.be.instanceOf(InvalidEnrichRequest);
        return (err as Error).message;
      }
    };
    expect(message({})).to.match(/^Nothing to enrich: send exactly one of/);
    expect(message({ email: 'a@b.co', linkedinUrl: 'linkedin.com/in/a' })).to.match(/not several \(email and linkedinUrl\)/);
    expect(message({ firstName: 'Ada' })).to.equal('Enriching by name needs firstName, lastName and domain; missing lastName, domain');
    expect(message({ email: 'nope' })).to.equal('email is not a valid email address');
    expect(message({ firstName: 'A', lastName: 'B', domain: 'nodot' })).to.equal('domain is not a domain name or website address');
  });
});

describe('Apollo answers', () => {
  const header = (h: Record<string, string>) => ({ status: 429, body: '', header: (n: string) => h[n] ?? null });

  it('wait as long as Retry-After asks (seconds or a date), else by the usage headers, else 1 s, 2 s, 4 s', () => {
    expect(retryDelayMs(header({ 'retry-after': '3' }), 0)).to.equal(3000);
    expect(retryDelayMs(header({ 'retry-after': new Date(10_000).toUTCString() }), 0, () => 4_000)).to.equal(6000);
    expect(retryDelayMs(header({ 'x-daily-requests-left': '0' }), 0)).to.equal(86_400_000);
    expect(retryDelayMs(header({ 'x-minute-requests-left': '0' }), 0)).to.equal(60_000);
    expect([0, 1, 2].map((a) => retryDelayMs(header({}), a))).to.deep.equal([1000, 2000, 4000]);
  });

  it('map a person to a lead, dropping placeholder addresses', () => {
    expect(usableEmail('email_not_unlocked@domain.com')).to.equal(null);
    expect(usableEmail(' Dana@Northwind.example ')).to.equal('dana@northwind.example');
    const person = {
      id: 'ap_9',
      first_name: 'Dana',
      last_name: 'Reyes',
      title: 'VP Sales',
      email: 'email_not_unlocked@domain.com',
      city: 'Austin',
      state: 'Texas',
      country: 'United States',
      linkedin_url: 'http://www.linkedin.com/in/dana',
      organization: { name: 'Northwind', website_url: 'http://www.northwind.example', primary_domain: null, industry: 'Software' },
      phone_numbers: [{ raw_number: '+1 512 555 0101', sanitized_number: '+15125550101' }],
    };
    expect(personToLead(person)).to.equal(null);
    expect(personToLead(person, 'dana@northwind.example')).to.deep.equal({
      email: 'dana@northwind.example',
      externalId: 'ap_9',
      firstName: 'Dana',
      lastName: 'Reyes',
      title: 'VP Sales',
      company: 'Northwind',
      companyDomain: 'northwind.example',
      industry: 'Software',
      city: 'Austin',
      state: 'Texas',
      country: 'United States',
      linkedinUrl: 'http://www.linkedin.com/in/dana',
      phone: '+15125550101',
    });
  });
});
