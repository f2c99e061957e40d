import { expect } from 'chai';
import { parseBlocklistValue } from '../../src/blocklist/blocklist-entry';

const ok = (input: string) => {
  const r = parseBlocklistValue(input);
  if (!r.ok) throw new Error(`expected ${input} to parse: ${r.error}`);
  return r.entry;
};
const error = (input: string) => {
  const r = parseBlocklistValue(input);
  if (r.ok) throw new Error(`expected ${input} to be refused, got ${JSON.stringify(r.entry)}`);
  return r.error;
};

describe('blocklist values (parseBlocklistValue)', () => {
  it('reads addresses, lower-cased, through the RFC 5322 parser when they are not plain', () => {
    expect(ok('Ada@Example.COM')).to.deep.equal({ kind: 'address', value: 'ada@example.com' });
    expect(ok('  bob+news@mail.example.co.uk ')).to.deep.equal({ kind: 'address', value: 'bob+news@mail.example.co.uk' });
    expect(ok('Ada Lovelace <Ada@Example.com>')).to.deep.equal({ kind: 'address', value: 'ada@example.com' });
    expect(ok('"odd local"@example.com')).to.deep.equal({ kind: 'address', value: 'odd local@example.com' });
    expect(ok('jörg@München.de')).to.deep.equal({ kind: 'address', value: 'jörg@xn--mnchen-3ya.de' });
  });

  it('reads domains in every form users paste them', () => {
    for (const input of ['example.com', 'Example.COM', '@example.com', '*.example.com', 'https://example.com/x', 'http://www.example.com', 'www.example.com', 'example.com.']) {
      expect(ok(input), input).to.deep.equal({ kind: 'domain', value: 'example.com' });
    }
    expect(ok('mail.sub.example.co.uk')).to.deep.equal({ kind: 'domain', value: 'mail.sub.example.co.uk' });
    expect(ok('München.de')).to.deep.equal({ kind: 'domain', value: 'xn--mnchen-3ya.de' });
    expect(ok('acme.example')).to.deep.equal({ kind: 'domain', value: 'acme.example' });
    // www. is kept when dropping it would leave a public suffix.
    expect(ok('www.co.uk')).to.deep.equal({ kind: 'domain', value: 'www.co.uk' });
  });

  it('refuses public suffixes, single labels and IP addresses as domains, naming the value', () => {
    expect(error('com')).to.equal('"com" is a single-label name, not a domain; block an address or a domain of one owner');
    expect(error('co.uk')).to.equal('"co.uk" is a public suffix shared by many owners, not one domain; block an address or a domain of one owner');
    expect(error('*.co.uk')).to.match(/^"\*\.co\.uk" is a public suffix/);
    expect(error('localhost')).to.match(/single-label/);
    expect(error('10.0.0.1')).to.match(/an IP address/);
  });

  it('calls anything else neither an address nor a domain', () => {
    expect(error('not a domain')).to.equal('"not a domain" is neither an email address nor a domain');
    expect(error('-bad-.com')).to.equal('"-bad-.com" is neither an email address nor a domain');
    expect(error('a..b.com')).to.equal('"a..b.com" is neither an email address nor a domain');
    expect(error('   ')).to.equal('the value is empty: expected an email address or a domain');
    expect(error('ada@')).to.equal('"ada@" is not a valid email address: RFC 5322 cannot read it');
    expect(error('ada@@example.com')).to.equal('"ada@@example.com" is not a valid email address: RFC 5322 cannot read it');
    expect(error('ada@com')).to.equal('"ada@com" is not a valid email address: its domain "com" is a single-label name, not a domain');
    expect(error(`${'x'.repeat(65)}@example.com`)).to.match(/longer than 64 characters/);
  });
});
