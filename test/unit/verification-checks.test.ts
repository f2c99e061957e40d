import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/config';
import { checkDisposable } from '../../src/leads/verification/disposable-check';
import { isReservedDomain } from '../../src/leads/verification/reserved-domains';
import { checkRole } from '../../src/leads/verification/role-check';
import { checkSyntax } from '../../src/leads/verification/syntax-check';
import { TtlCache } from '../../src/leads/verification/ttl-cache';
import { verdictOf } from '../../src/leads/verification/verdict';
import type { CheckResult, VerificationChecks } from '../../src/leads/verification/types';

describe('address verification: the checks without DNS', () => {
  describe('syntax (email-addresses, RFC 5322)', () => {
    const accepted = ['ann@acme.com', 'ann.lee+q3@mail.acme.co.uk', '"ann"@acme.com', 'o\'brien@acme.ie', 'jörg@bücher.de', 'a@b.io'];
    for (const email of accepted) {
      it(`passes ${email}`, () => {
        expect(checkSyntax(email).check).to.deep.equal({ result: 'pass', detail: 'RFC 5322 address' });
      });
    }

    const refused: Array<[string, string]> = [
      ['', 'empty address'],
      ['ann', 'not an RFC 5322 address'],
      ['ann@@acme.com', 'not an RFC 5322 address'],
      ['a@b@acme.com', 'not an RFC 5322 address'],
      ['ann..lee@acme.com', 'not an RFC 5322 address'],
      ['ann@acme..com', 'not an RFC 5322 address'],
      ['ann lee@acme.com', 'not an RFC 5322 address'],
      ['ann@acme.com, bob@acme.com', 'not an RFC 5322 address'],
      ['Ann Lee <ann@acme.com>', 'a display name around the address'],
      ['ann(work)@acme.com', 'a comment in the address'],
      ['"ann lee"@acme.com', 'a quoted local part with spaces'],
      ['ann@localhost', 'a domain without a dot'],
      ['ann@[192.0.2.1]', 'an IP literal instead of a domain name'],
      ['team: ann@acme.com;', 'a group, not one mailbox'],
    ];
    for (const [email, detail] of refused) {
      it(`fails ${JSON.stringify(email)}: ${detail}`, () => {
        const outcome = checkSyntax(email);
        expect(outcome.check).to.deep.equal({ result: 'fail', detail });
        expect(outcome.address).to.equal(null);
      });
    }

    it('gives the local part as written and the domain in lower case', () => {
      expect(checkSyntax('Ann.Lee@ACME.Com').address).to.deep.equal({ local: 'Ann.Lee', domain: 'acme.com' });
    });
  });

  describe('role addresses', () => {
    for (const local of ['info', 'sales', 'Support', 'admin', 'contact', 'hello', 'office', 'noreply', 'no-reply', 'postmaster', 'abuse', 'billing', 'hr', 'jobs', 'marketing', 'team']) {
      it(`warns for ${local}@`, () => {
        expect(checkRole(local)).to.deep.equal({ result: 'warn', detail: `role address (${local.toLowerCase()})` });
      });
    }
    it('reads the part before a +tag', () => {
      expect(checkRole('sales+emea')).to.deep.equal({ result: 'warn', detail: 'role address (sales)' });
    });
    it('passes personal addresses, including ones that start like a role', () => {
      for (const local of ['ann', 'information.officer.jane', 'salesforce-admin-bob', 'ann+info']) expect(checkRole(local).result, local).to.equal('pass');
    });
  });

  describe('disposable domains (mailchecker, registrable domain by tldts)', () => {
    it('warns for a listed domain, a subdomain of one, and names the listed domain', () => {
      expect(checkDisposable('mailinator.com')).to.deep.equal({ result: 'warn', detail: 'disposable domain (mailinator.com)' });
      expect(checkDisposable('eu.mailinator.com')).to.deep.equal({ result: 'warn', detail: 'disposable domain (mailinator.com)' });
      expect(checkDisposable('guerrillamail.com').result).to.equal('warn');
      expect(checkDisposable('10minutemail.com').result).to.equal('warn');
    });
    it('passes ordinary company and mailbox-provider domains', () => {
      for (const d of ['acme.com', 'gmail.com', 'outlook.com', 'bbc.co.uk', 'mail.acme.co.uk']) expect(checkDisposable(d).result, d).to.equal('pass');
    });
  });

  describe('reserved test domains (RFC 2606 / 6761)', () => {
    it('knows example.com/.net/.org and their subdomains, and .example, .test, .invalid, .localhost', () => {
      for (const d of ['example.com', 'mail.example.com', 'example.net', 'example.org', 'acme.example', 'kraftwerk.test', 'x.invalid', 'app.localhost']) {
        expect(isReservedDomain(d), d).to.equal(true);
      }
      for (const d of ['example.co.uk', 'myexample.com', 'test.com', 'acme.com', 'invalid.org']) expect(isReservedDomain(d), d).to.equal(false);
    });
  });

  describe('the verdict', () => {
    const pass: CheckResult = { result: 'pass', detail: '' };
    const checks = (over: Partial<Record<keyof VerificationChecks, CheckResult['result']>>): VerificationChecks => ({
      syntax: { ...pass, result: over.syntax ?? 'pass' },
      role: { ...pass, result: over.role ?? 'pass' },
      disposable: { ...pass, result: over.disposable ?? 'pass' },
      mailDomain: { ...pass, result: over.mailDomain ?? 'pass' },
    });
    it('invalid for bad syntax or a domain without mail, whatever else; risky for a role or disposable address; unknown when DNS could not tell', () => {
      expect(verdictOf(checks({}))).to.equal('valid');
      expect(verdictOf(checks({ syntax: 'fail', role: 'unknown', disposable: 'unknown', mailDomain: 'unknown' }))).to.equal('invalid');
      expect(verdictOf(checks({ mailDomain: 'fail', role: 'warn' }))).to.equal('invalid');
      expect(verdictOf(checks({ role: 'warn' }))).to.equal('risky');
      expect(verdictOf(checks({ disposable: 'warn', mailDomain: 'unknown' }))).to.equal('risky');
      expect(verdictOf(checks({ mailDomain: 'unknown' }))).to.equal('unknown');
    });
  });

  describe('the DNS cache', () => {
    it('forgets an entry after its time to live and the least recently used one when full', () => {
      let now = 0;
      const cache = new TtlCache<string>(2, () => now);
      cache.set('a', 'A', 100);
      cache.set('b', 'B', 1000);
      expect(cache.get('a')).to.equal('A');
      cache.set('c', 'C', 1000);
      expect(cache.get('b')).to.equal(undefined);
      expect(cache.get('a')).to.equal('A');
      now = 100;
      expect(cache.get('a')).to.equal(undefined);
      expect(cache.get('c')).to.equal('C');
      expect(cache.size).to.equal(1);
    });
  });

  describe('settings', () => {
    it('reads EMAIL_DNS_SERVERS, EMAIL_DNS_TIMEOUT_MS and the reserved-domain mode (invalid by default in production only)', () => {
      expect(loadConfig({}).emailVerification).to.deep.equal({ servers: [], timeoutMs: 3000, reservedDomains: 'deliver' });
      expect(loadConfig({ NODE_ENV: 'production' }).emailVerification.reservedDomains).to.equal('invalid');
      expect(loadConfig({ NODE_ENV: 'production', EMAIL_VERIFY_RESERVED_DOMAINS: 'deliver' }).emailVerification.reservedDomains).to.equal('deliver');
      const c = loadConfig({ EMAIL_DNS_SERVERS: '127.0.0.1:5353, 192.0.2.53,[::1]:53,::1', EMAIL_DNS_TIMEOUT_MS: '250' });
      expect(c.emailVerification).to.include({ timeoutMs: 250 });
      expect(c.emailVerification.servers).to.deep.equal(['127.0.0.1:5353', '192.0.2.53', '[::1]:53', '::1']);
    });
    it('refuses a server that is not an address, and an unknown mode, naming the variable', () => {
      expect(() => loadConfig({ EMAIL_DNS_SERVERS: 'dns.example.com' })).to.throw(ConfigError, 'EMAIL_DNS_SERVERS');
      expect(() => loadConfig({ EMAIL_DNS_SERVERS: '127.0.0.1:99999' })).to.throw(ConfigError, 'EMAIL_DNS_SERVERS');
      expect(() => loadConfig({ EMAIL_VERIFY_RESERVED_DOMAINS: 'maybe' })).to.throw(ConfigError, 'EMAIL_VERIFY_RESERVED_DOMAINS');
      expect(() => loadConfig({ EMAIL_DNS_TIMEOUT_MS: 'soon' })).to.throw(ConfigError, 'EMAIL_DNS_TIMEOUT_MS');
    });
  });
});
