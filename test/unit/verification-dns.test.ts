import { expect } from 'chai';
import { MailDomainChecker } from '../../src/leads/verification/mail-domain-check';
import { verifyAddresses } from '../../src/leads/verification/verify-address';
import { startLocalDns, type LocalDns } from '../support/local-dns';

describe('address verification: the mail-domain check against a local DNS server', () => {
  let dns: LocalDns;
  const checker = (timeoutMs = 2000, reservedDomains: 'deliver' | 'invalid' = 'deliver') => new MailDomainChecker({ servers: [dns.server], timeoutMs, reservedDomains });

  before(async () => {
    // Unlisted names do not exist (NXDOMAIN).
    dns = await startLocalDns();
    dns.set('acme.com', { mx: ['primary.acme.com', 'backup.acme.com'] });
    dns.set('a-only.com', { a: ['192.0.2.10'] });
    dns.set('aaaa-only.com', { aaaa: ['2001:db8::10'] });
    dns.set('parked.com', 'nodata');
    dns.set('nomail.com', 'null-mx');
    dns.set('slow.com', 'timeout');
    dns.set('broken.com', 'servfail');
  });
  after(() => dns.close());

  it('passes a domain with MX records, naming the preferred host', async () => {
    expect(await checker().check('acme.com')).to.deep.equal({ result: 'pass', detail: 'MX primary.acme.com' });
  });

  it('passes a domain without MX but with an A or AAAA record (the implicit MX)', async () => {
    const c = checker();
    expect(await c.check('a-only.com')).to.deep.equal({ result: 'pass', detail: 'no MX; A record (implicit MX)' });
    expect(await c.check('aaaa-only.com')).to.deep.equal({ result: 'pass', detail: 'no MX; AAAA record (implicit MX)' });
  });

  it('fails a domain with neither MX nor A/AAAA records, one that does not exist, and a null MX', async () => {
    const c = checker();
    expect(await c.check('parked.com')).to.deep.equal({ result: 'fail', detail: 'no MX or A record' });
    expect(await c.check('gone.com')).to.deep.equal({ result: 'fail', detail: 'no MX or A record (the domain does not exist)' });
    expect(await c.check('nomail.com')).to.deep.equal({ result: 'fail', detail: 'null MX: the domain accepts no mail' });
  });

  it('is unknown, quickly, when the server does not answer in time or fails', async () => {
    const c = checker(200);
    const started = Date.now();
    expect(await c.check('slow.com')).to.deep.equal({ result: 'unknown', detail: 'DNS did not answer in time' });
    expect(Date.now() - started).to.be.below(1500);
    expect(await c.check('broken.com')).to.deep.equal({ result: 'unknown', detail: 'the DNS server failed (SERVFAIL)' });
  });

  it('is unknown when no DNS server can be reached (nothing listens on the port)', async () => {
    const closed = await startLocalDns();
    const server = closed.server;
    await closed.close();
    const c = new MailDomainChecker({ servers: [server], timeoutMs: 300, reservedDomains: 'deliver' });
    const result = await c.check('acme.com');
    expect(result.result).to.equal('unknown');
  });

  it('answers reserved test domains without DNS: delivered in development, invalid when so configured', async () => {
    const before = dns.totalQueries;
    expect(await checker().check('kraftwerk.example.com')).to.deep.equal({ result: 'pass', detail: 'reserved test domain, delivered to the local SMTP sink in development' });
    expect(await checker(2000, 'invalid').check('acme.test')).to.deep.equal({ result: 'fail', detail: 'reserved test domain (RFC 2606), never delivered' });
    expect(dns.totalQueries).to.equal(before);
  });

  it('asks DNS once per domain: many leads at once share one query, later ones the cached answer, a fresh check asks again', async () => {
    dns.set('cached.com', { mx: ['mx.cached.com'] });
    const c = checker();
    const emails = Array.from({ length: 50 }, (_, i) => `person${i}@cached.com`);
    const results = await verifyAddresses(c, emails);
    expect(new Set(results.map((r) => r.status))).to.deep.equal(new Set(['valid']));
    expect(dns.queriesFor('cached.com')).to.equal(1);
    await c.check('CACHED.com');
    expect(dns.queriesFor('cached.com')).to.equal(1);
    await c.check('cached.com', true);
    expect(dns.queriesFor('cached.com')).to.equal(2);
  });

  it('gives each address its verdict with every check shown', async () => {
    const [ok, role, throwaway, dead, slowOne, malformed] = await verifyAddresses(checker(200), [
      'ann@acme.com',
      'info@acme.com',
      'ann@mailinator.com',
      'ann@parked.com',
      'ann@slow.com',
      'Ann <ann@acme.com>',
    ]);
    expect(ok!.status).to.equal('valid');
    expect(role!.status).to.equal('risky');
    expect(role!.checks.role).to.deep.equal({ result: 'warn', detail: 'role address (info)' });
    // mailinator.com is not in the local zone: it fails DNS, so the disposable address is invalid here, its warning still shown.
    expect(throwaway!.checks.disposable).to.deep.equal({ result: 'warn', detail: 'disposable domain (mailinator.com)' });
    expect(dead).to.deep.equal({
      status: 'invalid',
      checks: {
        syntax: { result: 'pass', detail: 'RFC 5322 address' },
        role: { result: 'pass', detail: 'a personal address' },
        disposable: { result: 'pass', detail: 'not a disposable domain' },
        mailDomain: { result: 'fail', detail: 'no MX or A record' },
      },
    });
    expect(slowOne!.status).to.equal('unknown');
    expect(malformed!.status).to.equal('invalid');
    expect(malformed!.checks.mailDomain).to.deep.equal({ result: 'unknown', detail: 'not checked: the address is malformed' });
  });

  it('checks 2,000 domains, each asked once, a bounded number at a time', async () => {
    const many = await startLocalDns((name) => ({ mx: [`mx.${name}`] }));
    try {
      const c = new MailDomainChecker({ servers: [many.server], timeoutMs: 2000, reservedDomains: 'deliver' });
      const domains = Array.from({ length: 2000 }, (_, i) => `company${i}.com`);
      const started = Date.now();
      const results = await c.checkMany(domains);
      const ms = Date.now() - started;
      expect([...results.values()].every((r) => r.result === 'pass')).to.equal(true);
      expect(many.totalQueries).to.equal(2000);
      expect(ms).to.be.below(10_000);
    } finally {
      await many.close();
    }
  });
});
