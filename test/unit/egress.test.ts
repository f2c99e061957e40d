import { expect } from 'chai';
import OpenAI from 'openai';
import { request as undiciRequest } from 'undici';
import { createEgress, EgressError, judgeAddress, type Egress, type EgressFailureReason, type Resolver } from '../../src/egress';
import { startFakeSite, type FakeSite } from '../support/fake-site';

async function failure(p: Promise<unknown>): Promise<EgressError> {
  try {
    await p;
  } catch (err) {
    expect(err, String(err)).to.be.instanceOf(EgressError);
    return err as EgressError;
  }
  expect.fail('expected the request to be refused');
}

async function expectReason(p: Promise<unknown>, reason: EgressFailureReason): Promise<EgressError> {
  const err = await failure(p);
  expect(err.reason, err.message).to.equal(reason);
  return err;
}

const staticResolver =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const answers = table[host];
    if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('egress client', () => {
  const clients: Egress[] = [];
  const sites: FakeSite[] = [];
  const egress = (o: Partial<Parameters<typeof createEgress>[0]> = {}): Egress => {
    const e = createEgress({ allowLoopback: false, timeoutMs: 5_000, maxBytes: 1_000_000, ...o });
    clients.push(e);
    return e;
  };
  const site = async (...args: Parameters<typeof startFakeSite>): Promise<FakeSite> => {
    const s = await startFakeSite(...args);
    sites.push(s);
    return s;
  };
  const okSite = () => site((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(sites.splice(0).map((s) => s.close()));
  });

  describe('address policy (ipaddr.js ranges)', () => {
    const blocked: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['127.255.1.2', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['169.254.169.254', 'linkLocal'],
      ['198.18.0.1', 'reserved'],
      ['192.0.2.1', 'reserved'],
      ['240.0.0.1', 'reserved'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['fe80::1', 'linkLocal'],
      ['ff02::1', 'multicast'],
      ['fd00:ec2::254', 'uniqueLocal'],
      ['fc00::1', 'uniqueLocal'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:169.254.169.254', 'linkLocal'],
      ['::127.0.0.1', 'non-global IPv6'],
      ['::8.8.8.8', 'non-global IPv6'],
      ['::ffff:0:a00:1', 'rfc6145'],
      ['64:ff9b::a00:1', 'rfc6052'],
      ['64:ff9b:1::1', 'rfc6052'],
      ['2002:a00:1::', '6to4'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
      ['2001:db8::1', 'reserved'],
      ['2001:2::1', 'benchmarking'],
      ['100::1', 'discard'],
    ];
    for (const [address, range] of blocked) {
      it(`refuses ${address} (${range})`, () => {
        expect(judgeAddress(address, { allowLoopback: false })).to.deep.equal({ allowed: false, range });
      });
    }

    it('allows public unicast addresses, IPv4-mapped ones included', () => {
      for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
        expect(judgeAddress(a, { allowLoopback: false }), a).to.deep.equal({ allowed: true });
      }
    });

    it('allowLoopback lets through 127.0.0.0/8 and ::1, and nothing else', () => {
      const p = { allowLoopback: true };
      for (const a of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) expect(judgeAddress(a, p), a).to.deep.equal({ allowed: true });
      for (const a of ['10.0.0.1', '192.168.0.1', '169.254.169.254', '0.0.0.0', '::', 'fd00:ec2::254', '::127.0.0.1', '64:ff9b::7f00:1']) {
        expect(judgeAddress(a, p).allowed, a).to.equal(false);
      }
    });
  });

  describe('with loopback refused', () => {
    it('refuses every spelling of a loopback or reserved address, and nothing reaches the server', async () => {
      const s = await okSite();
      const e = egress();
      const p = s.port;
      const urls = [
        `http://127.0.0.1:${p}/`,
        `http://2130706433:${p}/`, // decimal
        `http://0177.0.0.1:${p}/`, // octal
        `http://0x7f000001:${p}/`, // hex, whole
        `http://0x7f.0.0.1:${p}/`, // hex, dotted
        `http://127.1:${p}/`, // short form
        `http://[::ffff:127.0.0.1]:${p}/`, // IPv4-mapped
        `http://[::127.0.0.1]:${p}/`, // IPv4-compatible
        `http://[::]:${p}/`,
        `http://0.0.0.0:${p}/`,
        `http://[64:ff9b::7f00:1]:${p}/`, // NAT64
        `http://[2002:7f00:1::]:${p}/`, // 6to4
        `http://[::1]:${p}/`,
        `http://localhost:${p}/`, // a name that resolves to 127.0.0.1
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/latest/meta-data/',
        'http://10.0.0.1/',
        'http://192.168.1.1/',
        'http://172.16.5.4/',
        'http://100.64.0.1/',
      ];
      for (const url of urls) {
        const err = await expectReason(e.request(url), 'blocked_address');
        expect(err.message, url).to.match(/^Refused to connect to /);
        await expectReason(e.fetch(url), 'blocked_address');
      }
      expect(s.connections()).to.equal(0);
      expect(s.requests).to.have.length(0);
    });

    it('checks the address a name resolves to when connecting (injected resolver)', async () => {
      const s = await okSite();
      const e = egress({ resolve: staticResolver({ 'rebind.test': ['127.0.0.1'], 'mixed.test': ['93.184.216.34', '127.0.0.1'], 'meta.test': ['169.254.169.254'] }) });
      const err = await expectReason(e.request(`http://rebind.test:${s.port}/`), 'blocked_address');
      expect(err.message).to.equal('Refused to connect to 127.0.0.1 (rebind.test resolves to it): loopback address');
      // A name with one bad answer among good ones is refused as a whole, before any connection.
      await expectReason(e.request(`http://mixed.test:${s.port}/`), 'blocked_address');
      await expectReason(e.request('http://meta.test/latest/meta-data/'), 'blocked_address');
      expect(s.connections()).to.equal(0);
    });

    it('guards the dispatcher itself, so other undici APIs given it are refused at connect time', async () => {
      const s = await okSite();
      const e = egress();
      for (const url of [`${s.origin}/`, `http://localhost:${s.port}/`]) {
        let caught: unknown;
        await undiciRequest(url, { dispatcher: e.dispatcher }).catch((err: unknown) => (caught = err));
        expect(caught, url).to.be.instanceOf(EgressError);
        expect((caught as EgressError).reason).to.equal('blocked_address');
      }
      expect(s.connections()).to.equal(0);
    });

    it('an SDK handed egress.fetch cannot reach a loopback base URL', async () => {
      const s = await okSite();
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${s.origin}/v1`, fetch: egress().fetch, maxRetries: 0 });
      let caught: unknown;
      await client.models.list().catch((err: unknown) => (caught = err));
      expect(caught).to.be.instanceOf(OpenAI.APIConnectionError);
      expect((caught as Error).cause).to.be.instanceOf(EgressError);
      expect(s.connections()).to.equal(0);
    });
  });

  describe('with loopback allowed (dev/test)', () => {
    it('reaches a loopback server by address and by name', async () => {
      const s = await okSite();
      const e = egress({ allowLoopback: true });
      for (const url of [`${s.origin}/a`, `http://localhost:${s.port}/b`, `http://2130706433:${s.port}/c`]) {
        const res = await e.request(url);
        expect(res.status, url).to.equal(200);
        expect(res.body.toString()).to.equal('ok');
        expect(res.redirects).to.equal(0);
      }
      expect(s.requests.map((r) => r.path)).to.deep.equal(['/a', '/b', '/c']);
      expect(s.requests[0]?.headers['user-agent']).to.equal('CampaignOutreachBot/1.0');
    });

    it('still refuses private, link-local, metadata and unspecified addresses', async () => {
      const e = egress({ allowLoopback: true, resolve: staticResolver({ 'intranet.test': ['10.0.0.5'] }) });
      for (const url of ['http://10.0.0.1/', 'http://192.168.0.1/', 'http://169.254.169.254/', 'http://[fd00:ec2::254]/', 'http://0.0.0.0/', 'http://[::]/', 'http://intranet.test/']) {
        await expectReason(e.request(url), 'blocked_address');
      }
    });

    it('refuses a redirect from the loopback server to a private or metadata address, at the redirect', async () => {
      const s = await site((req, res) => {
        const to: Record<string, string> = {
          '/to-private': 'http://10.0.0.1/admin',
          '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
          '/to-mapped': 'http://[::ffff:a9fe:a9fe]/',
          '/to-file': 'file:///etc/passwd',
          '/to-creds': `http://user:pw@127.0.0.1:${(req.socket.localPort ?? 0).toString()}/`,
        };
        res.writeHead(302, { location: to[req.url ?? ''] ?? '/' }).end();
      });
      const e = egress({ allowLoopback: true });
      expect((await expectReason(e.request(`${s.origin}/to-private`), 'blocked_address')).message).to.equal('Refused to connect to 10.0.0.1: private address');
      expect((await expectReason(e.request(`${s.origin}/to-metadata`), 'blocked_address')).message).to.equal('Refused to connect to 169.254.169.254: linkLocal address');
      await expectReason(e.request(`${s.origin}/to-mapped`), 'blocked_address');
      await expectReason(e.fetch(`${s.origin}/to-metadata`), 'blocked_address');
      await expectReason(e.request(`${s.origin}/to-file`), 'bad_url');
      await expectReason(e.request(`${s.origin}/to-creds`), 'bad_url');
      // The loopback server saw the first hops only; no further request was made to it.
      expect(s.requests.map((r) => r.path)).to.deep.equal(['/to-private', '/to-metadata', '/to-mapped', '/to-metadata', '/to-file', '/to-creds']);
    });

    it('re-resolves and re-checks on every new connection, so a name cannot be rebound to a private address', async () => {
      const s = await site((_req, res) => res.writeHead(200, { connection: 'close' }).end('ok'));
      const answers = [['127.0.0.1'], ['10.0.0.1']];
      let lookups = 0;
      const e = egress({ allowLoopback: true, resolve: async () => (answers[lookups++] ?? ['10.0.0.1']).map((address) => ({ address, family: 4 })) });
      expect((await e.request(`http://rebind.test:${s.port}/`)).status).to.equal(200);
      const err = await expectReason(e.request(`http://rebind.test:${s.port}/`), 'blocked_address');
      expect(err.message).to.equal('Refused to connect to 10.0.0.1 (rebind.test resolves to it): private address');
      expect(lookups).to.equal(2);
      expect(s.requests).to.have.length(1);
    });

    it('follows redirects up to the limit, then fails with too_many_redirects', async () => {
      const s = await site((req, res) => {
        const n = Number((req.url ?? '').split('/')[2]);
        res.writeHead(302, { location: `/loop/${n + 1}` }).end();
      });
      const e = egress({ allowLoopback: true });
      const err = await expectReason(e.request(`${s.origin}/loop/0`, { maxRedirects: 3 }), 'too_many_redirects');
      expect(err.message).to.equal(`More than 3 redirects, starting at ${s.origin}`);
      expect(s.requests.map((r) => r.path)).to.deep.equal(['/loop/0', '/loop/1', '/loop/2', '/loop/3']);
      await expectReason(e.request(`${s.origin}/loop/0`), 'too_many_redirects');
      expect(s.requests).to.have.length(4 + 6);
    });

    it("redirect 'manual' hands back the 3xx unfollowed, on request and on fetch", async () => {
      const s = await site((_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end());
      const e = egress({ allowLoopback: true });
      const res = await e.request(`${s.origin}/`, { redirect: 'manual' });
      expect([res.status, res.headers.get('location'), res.redirects]).to.deep.equal([302, 'http://169.254.169.254/', 0]);
      const f = await e.fetch(`${s.origin}/`, { redirect: 'manual' });
      expect([f.status, f.headers.get('location')]).to.deep.equal([302, 'http://169.254.169.254/']);
      await expectReason(e.fetch(`${s.origin}/`, { redirect: 'error' }), 'too_many_redirects');
      expect(s.requests).to.have.length(3);
    });

    it('reports the final URL and hop count of a followed redirect', async () => {
      const s = await site((req, res) => {
        if (req.url === '/old') res.writeHead(301, { location: '/new' }).end();
        else res.writeHead(200, { 'content-type': 'text/plain' }).end(`at ${req.url}`);
      });
      const e = egress({ allowLoopback: true });
      const res = await e.request(`${s.origin}/old`);
      expect(res).to.include({ status: 200, url: `${s.origin}/new`, redirects: 1 });
      expect(res.body.toString()).to.equal('at /new');
      const f = await e.fetch(`${s.origin}/old`);
      expect([f.status, f.url, f.redirected, await f.text()]).to.deep.equal([200, `${s.origin}/new`, true, 'at /new']);
    });

    it('aborts a body larger than maxBytes, whether announced or streamed', async () => {
      let stoppedEarly = false;
      const s = await site((req, res) => {
        if (req.url === '/announced') {
          res.writeHead(200, { 'content-length': '2000000' });
          res.end(Buffer.alloc(2_000_000, 97));
          return;
        }
        // No Content-Length: chunks until the client hangs up (bounded at 20 MB).
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        let sent = 0;
        const chunk = Buffer.alloc(64 * 1024, 98);
        const pump = (): void => {
          while (sent < 20_000_000 && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          res.end();
        };
        res.on('close', () => (stoppedEarly = sent < 20_000_000));
        pump();
      });
      const e = egress({ allowLoopback: true, maxBytes: 1_000_000 });
      expect((await expectReason(e.request(`${s.origin}/announced`), 'too_large')).message).to.equal(
        'The response is larger than the limit of 1000000 bytes (it announces 2000000 bytes)',
      );
      expect((await expectReason(e.request(`${s.origin}/streamed`), 'too_large')).message).to.equal('The response is larger than the limit of 1000000 bytes (it sent more)');
      const f = await e.fetch(`${s.origin}/streamed`);
      await expectReason(f.arrayBuffer(), 'too_large');
      // The server noticed the client going away before it had sent everything.
      for (let i = 0; i < 100 && !stoppedEarly; i++) await new Promise((r) => setTimeout(r, 20));
      expect(stoppedEarly).to.equal(true);
      // A per-request limit overrides the default.
      expect((await e.request(`${s.origin}/announced`, { maxBytes: 3_000_000 })).body.length).to.equal(2_000_000);
    });

    it('times out a server that does not answer, or stops sending the body', async () => {
      const s = await site((req, res) => {
        if (req.url === '/trickle') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('first part');
        }
        // '/silent' never answers; the fake site closes the sockets at the end of the test.
      });
      const e = egress({ allowLoopback: true, timeoutMs: 300 });
      expect((await expectReason(e.request(`${s.origin}/silent`), 'timeout')).message).to.equal(`No complete answer from 127.0.0.1:${s.port} within 300 ms`);
      await expectReason(e.request(`${s.origin}/trickle`), 'timeout');
      const f = await e.fetch(`${s.origin}/trickle`);
      expect(f.status).to.equal(200);
      await expectReason(f.text(), 'timeout');
    });

    it('reports a refused connection as a network failure', async () => {
      const s = await okSite();
      const port = s.port;
      await s.close();
      sites.splice(0);
      const err = await expectReason(egress({ allowLoopback: true }).request(`http://127.0.0.1:${port}/`), 'network');
      expect(err.message).to.match(new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    });

    it('refuses URLs that are not absolute http(s) or carry credentials', async () => {
      const e = egress({ allowLoopback: true });
      for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd', 'not a url', '/relative', 'http://user:pw@127.0.0.1/', 'gopher://127.0.0.1:70/']) {
        await expectReason(e.request(url), 'bad_url');
      }
    });

    it('works as fetch: method, body, headers, 303 after POST becomes GET', async () => {
      const s = await site((req, res) => {
        if (req.url === '/submit') res.writeHead(303, { location: '/done' }).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body: req.body, type: req.headers['content-type'] ?? null }));
      });
      const e = egress({ allowLoopback: true });
      const echoed = await e.fetch(`${s.origin}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(await echoed.json()).to.deep.equal({ method: 'POST', body: '{"a":1}', type: 'application/json' });
      const after = await e.fetch(`${s.origin}/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(await after.json()).to.deep.equal({ method: 'GET', body: '', type: null });
    });

    it('drops credential headers when a redirect changes origin', async () => {
      const target = await okSite();
      const s = await site((_req, res) => res.writeHead(307, { location: `http://localhost:${target.port}/landing` }).end());
      const e = egress({ allowLoopback: true });
      const res = await e.request(`${s.origin}/go`, { headers: { authorization: 'Bearer secret', 'x-api-key': 'secret', cookie: 'a=b', accept: 'text/html' } });
      expect(res.status).to.equal(200);
      expect(s.requests[0]?.headers).to.include({ authorization: 'Bearer secret', 'x-api-key': 'secret', cookie: 'a=b' });
      const landed = target.requests[0]?.headers ?? {};
      expect(landed).to.not.have.any.keys('authorization', 'x-api-key', 'cookie');
      expect(landed).to.include({ accept: 'text/html', 'user-agent': 'CampaignOutreachBot/1.0' });
    });

    it('an SDK handed egress.fetch talks to its (loopback) provider', async () => {
      const s = await site((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-test', object: 'model', created: 0, owned_by: 'test' }] })),
      );
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${s.origin}/v1`, fetch: egress({ allowLoopback: true }).fetch, maxRetries: 0 });
      const page = await client.models.list();
      expect(page.data.map((m) => m.id)).to.deep.equal(['gpt-test']);
      expect(s.requests[0]).to.include({ method: 'GET', path: '/v1/models' });
      expect(s.requests[0]?.headers.authorization).to.equal('Bearer sk-test');
    });
  });

  describe('send (status only: webhooks)', () => {
    it('posts the body and headers, answers the status, and never follows a redirect', async () => {
      const s = await site((req, res) => {
        if (req.url === '/moved') res.writeHead(302, { location: '/elsewhere' }).end();
        else res.writeHead(201, { 'content-type': 'text/plain' }).end('x'.repeat(200_000));
      });
      const e = egress({ allowLoopback: true });
      const created = await e.send(`${s.origin}/hooks?a=1`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
      expect(created.status).to.equal(201);
      const moved = await e.send(`${s.origin}/moved`, { method: 'POST', body: '{}' });
      expect(moved.status).to.equal(302);
      expect(moved.headers.location).to.equal('/elsewhere');
      expect(s.requests.map((r) => [r.method, r.path])).to.deep.equal([
        ['POST', '/hooks?a=1'],
        ['POST', '/moved'],
      ]);
      expect(s.requests[0]?.body.toString()).to.equal('{"a":1}');
      expect(s.requests[0]?.headers['content-type']).to.equal('application/json');
      expect(s.requests[0]?.headers['user-agent']).to.equal('CampaignOutreachBot/1.0');
    });

    it('refuses loopback (unless allowed) and private addresses before connecting, and gives up at the deadline', async () => {
      const s = await okSite();
      await expectReason(egress().send(`${s.origin}/`, { method: 'POST', body: '{}' }), 'blocked_address');
      await expectReason(egress({ allowLoopback: true }).send('http://10.0.0.1/', { method: 'POST', body: '{}' }), 'blocked_address');
      await expectReason(egress().send('ftp://example.com/', { method: 'POST' }), 'bad_url');
      expect(s.connections()).to.equal(0);
      const slow = await site((_req, res) => void setTimeout(() => res.writeHead(200).end('late'), 2_000));
      const started = Date.now();
      await expectReason(egress({ allowLoopback: true }).send(`${slow.origin}/`, { method: 'POST', body: '{}', timeoutMs: 300 }), 'timeout');
      expect(Date.now() - started).to.be.lessThan(1_500);
    });
  });
});
