import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';
import { ENV_VARS } from '../../src/config/env-schema';

describe('configuration', () => {
  it('defaults: API on 3000, embedded PostgreSQL and Temporal on ports derived from PORT', () => {
    const c = loadConfig({});
    expect(c).to.include({ port: 3000, host: '127.0.0.1', embeddedPgPort: 5433, temporalDevPort: 7233, temporalUiPort: 8233 });
    expect(c.databaseUrl).to.equal(undefined);
    expect(c.temporalAddress).to.equal(undefined);
    expect(c.publicBaseUrl).to.equal('http://localhost:3000');
    expect(c.temporalUiUrl).to.equal('http://localhost:8233');
  });

  it('a second copy with another PORT gets other embedded ports, so both can run side by side', () => {
    const a = loadConfig({ PORT: '3000', DATA_DIR: 'a' });
    const b = loadConfig({ PORT: '3100', DATA_DIR: 'b' });
    for (const key of ['port', 'embeddedPgPort', 'temporalDevPort', 'temporalUiPort'] as const) expect(a[key]).not.to.equal(b[key]);
    expect(a.dataDir).not.to.equal(b.dataDir);
  });

  const bad: Array<[string, string]> = [
    ['PORT', 'http'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['DATABASE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['ALLOW_LOOPBACK_EGRESS', 'yes please'],
    ['DATABASE_POOL_MAX', '0'],
    ['PUBLIC_BASE_URL', '/relative'],
  ];
  for (const [name, value] of bad) {
    it(`rejects ${name}=${value} with a message naming ${name}`, () => {
      expect(() => loadConfig({ [name]: value })).to.throw(ConfigError, name);
    });
  }

  it('rejects a PORT whose derived ports would not exist, and says which variable to set', () => {
    expect(() => loadConfig({ PORT: '65000' })).to.throw(ConfigError, /set (EMBEDDED_PG_PORT|TEMPORAL_DEV_PORT|TEMPORAL_UI_PORT|SMTP_SINK_PORT|INBOUND_SMTP_PORT) explicitly/);
    const explicit = { EMBEDDED_PG_PORT: '5500', TEMPORAL_DEV_PORT: '7300', TEMPORAL_UI_PORT: '8300', SMTP_SINK_PORT: '2525', INBOUND_SMTP_PORT: '2526' };
    expect(() => loadConfig({ PORT: '65000', ...explicit })).not.to.throw();
  });

  it('.env.example lists every variable with its default, and nothing else', () => {
    const text = readFileSync(path.join(__dirname, '..', '..', '.env.example'), 'utf8');
    const listed = new Map<string, string>();
    for (const m of text.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=(.*)$/gm)) listed.set(m[1] as string, m[2] as string);
    expect([...listed.keys()].sort()).to.deep.equal(ENV_VARS.map((v) => v.name).sort());
    for (const v of ENV_VARS) expect(listed.get(v.name), v.name).to.equal(v.default ?? '');
  });
});
