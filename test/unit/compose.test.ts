import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig, type Config } from '../../src/config/config';
import { ENV_VAR_NAMES } from '../../src/config/env-schema';
import { requireExternal } from '../../src/entry/require-external';
import { CAMPAIGN_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

/**
 * docker-compose.yml, the Dockerfile and .dockerignore, checked by parsing (no Docker needed): the
 * services are wired to each other, and the api/worker environment is one the service accepts.
 */

const root = path.join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

interface LongPort {
  target: number | string;
  published?: number | string;
  host_ip?: string;
}
interface Service {
  image?: string;
  build?: unknown;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | number | LongPort)[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  volumes?: unknown[];
}

const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service>; volumes?: Record<string, unknown> };
const services = compose.services;

function service(name: string): Service {
  const s = services[name];
  if (s === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
}

/** Compose's own interpolation with nothing set in the environment: `${X:-d}` / `${X-d}` give d, `${X}` gives "", `$$` gives `$`. */
function interpolate(value: string): string {
  return value
    .split('$$')
    .map((part) =>
      part.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (_m, _name: string, op: string | undefined, arg: string | undefined) =>
        op === ':-' || op === '-' ? (arg ?? '') : '',
      ),
    )
    .join('$');
}

function envOf(name: string): Record<string, string> {
  const env = service(name).environment ?? {};
  const out: Record<string, string> = {};
  if (Array.isArray(env)) {
    for (const line of env) {
      const i = line.indexOf('=');
      if (i > 0) out[line.slice(0, i)] = interpolate(line.slice(i + 1));
    }
  } else {
    for (const [k, v] of Object.entries(env)) if (v !== null) out[k] = interpolate(String(v));
  }
  return out;
}

interface Published {
  host: number;
  container: number;
  protocol: string;
}

function publishedPorts(name: string): Published[] {
  return (service(name).ports ?? []).map((p) => {
    if (typeof p === 'object') {
      expect(p.published, `${name}: long-syntax port without published`).to.not.equal(undefined);
      return { host: Number(interpolate(String(p.published))), container: Number(p.target), protocol: 'tcp' };
    }
    const [spec = '', protocol = 'tcp'] = interpolate(String(p)).split('/');
    const parts = spec.split(':');
    expect(parts.length, `${name}: port "${String(p)}" must name the host port (HOST:CONTAINER)`).to.be.at.least(2);
    const host = parts.at(-2) ?? '';
    const container = parts.at(-1) ?? '';
    expect(host, `${name}: port ranges are not used here`).to.match(/^\d+$/);
    expect(container).to.match(/^\d+$/);
    return { host: Number(host), container: Number(container), protocol };
  });
}

function dependsOn(name: string): Record<string, string> {
  const deps = service(name).depends_on ?? [];
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [d, 'service_started']));
  return Object.fromEntries(Object.entries(deps).map(([d, v]) => [d, v.condition ?? 'service_started']));
}

function commandText(s: Service): string {
  const part = (c: string | string[] | undefined): string => (c === undefined ? '' : Array.isArray(c) ? c.join(' ') : c);
  return interpolate(`${part(s.entrypoint)} ${part(s.command)}`);
}

/** Dockerfile instructions, continuation lines joined, with the stage (FROM index) each belongs to. */
interface Instruction {
  stage: number;
  keyword: string;
  args: string;
}

function dockerfile(): Instruction[] {
  const out: Instruction[] = [];
  let stage = -1;
  let pending = '';
  for (const raw of read('Dockerfile').split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (pending !== '' && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (full === '') continue;
    const m = /^(\S+)\s*(.*)$/.exec(full);
    const keyword = (m?.[1] ?? '').toUpperCase();
    if (keyword === 'FROM') stage += 1;
    out.push({ stage, keyword, args: m?.[2] ?? '' });
  }
  return out;
}

/** `ENV A=1 B=2` and `ENV A 1`. */
function envInstruction(args: string): Record<string, string> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [name = '', ...rest] = args.split(/\s+/);
    return { [name]: rest.join(' ') };
  }
  const out: Record<string, string> = {};
  for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)) out[m[1] ?? ''] = (m[2] ?? '').replace(/^"|"$/g, '');
  return out;
}

const ROLES = ['api', 'worker'] as const;
const configs = new Map<string, Config>();
function configOf(role: string): Config {
  let c = configs.get(role);
  if (c === undefined) {
    c = loadConfig(envOf(role));
    configs.set(role, c);
  }
  return c;
}

describe('docker-compose.yml', () => {
  it('has the whole stack: postgres, temporal, its search-attribute job, temporal-ui, api, worker, mailpit', () => {
    expect(Object.keys(services)).to.include.members(['postgres', 'temporal', 'temporal-search-attributes', 'temporal-ui', 'api', 'worker', 'mailpit']);
    expect(service('postgres').image).to.match(/^postgres:16/);
    expect(service('temporal').image).to.match(/^temporalio\/auto-setup:\d/);
    expect(service('temporal-ui').image).to.match(/^temporalio\/ui:\d/);
    expect(service('mailpit').image).to.match(/^axllent\/mailpit:/);
  });

  it('runs api and worker from the same image, each with its own entry point', () => {
    const api = service('api');
    const worker = service('worker');
    expect(api.build, 'api builds the image').to.not.equal(undefined);
    expect(worker.build).to.deep.equal(api.build);
    expect(worker.image).to.equal(api.image);
    expect(commandText(worker)).to.match(/node\s+dist\/src\/entry\/worker\.js/);
    // The api may rely on the image's CMD; either way it runs the api entry.
    const apiCmd = api.command === undefined ? dockerCmd() : commandText(api);
    expect(apiCmd).to.match(/node\s+dist\/src\/entry\/api\.js/);
    for (const entry of ['api', 'worker']) expect(existsSync(path.join(root, 'src', 'entry', `${entry}.ts`)), entry).to.equal(true);
  });

  for (const role of ROLES) {
    it(`gives the ${role} only variables of env-schema.ts, with values loadConfig accepts`, () => {
      const env = envOf(role);
      expect(Object.keys(env)).to.not.be.empty;
      const unknown = Object.keys(env).filter((k) => !ENV_VAR_NAMES.has(k));
      expect(unknown, `not in ENV_VARS of src/config/env-schema.ts`).to.deep.equal([]);
      expect(() => loadConfig(env)).to.not.throw();
      // The single-role entry points refuse to start without external PostgreSQL and Temporal.
      expect(() => requireExternal(configOf(role))).to.not.throw();
    });

    it(`points the ${role} at the postgres service's database`, () => {
      const url = new URL(configOf(role).databaseUrl ?? '');
      const pg = envOf('postgres');
      expect(url.hostname).to.equal('postgres');
      expect(url.port || '5432').to.equal('5432');
      expect(decodeURIComponent(url.username)).to.equal(pg.POSTGRES_USER);
      expect(decodeURIComponent(url.password)).to.equal(pg.POSTGRES_PASSWORD);
      expect(url.pathname).to.equal(`/${pg.POSTGRES_DB ?? pg.POSTGRES_USER}`);
      expect(dependsOn(role)).to.have.property('postgres');
    });

    it(`points the ${role} at the temporal service's frontend and namespace`, () => {
      const config = configOf(role);
      expect(config.temporalAddress).to.equal('temporal:7233');
      expect(config.temporalNamespace).to.equal(envOf('temporal').DEFAULT_NAMESPACE ?? 'default');
      expect(dependsOn(role)).to.have.property('temporal');
    });

    it(`starts the ${role} only once its dependencies are healthy and the search attributes exist`, () => {
      const deps = dependsOn(role);
      for (const dep of ['postgres', 'temporal']) {
        const check = service(dep).healthcheck;
        expect(check?.test, `${dep} has a healthcheck`).to.not.equal(undefined);
        expect(deps[dep], `${role} waits for ${dep}`).to.equal('service_healthy');
      }
      expect(deps['temporal-search-attributes']).to.equal('service_completed_successfully');
    });
  }

  it('gives api and worker the same database, Temporal namespace and task queue', () => {
    const [api, worker] = [configOf('api'), configOf('worker')];
    expect(worker.databaseUrl).to.equal(api.databaseUrl);
    expect(worker.temporalAddress).to.equal(api.temporalAddress);
    expect(worker.temporalNamespace).to.equal(api.temporalNamespace);
    expect(worker.temporalTaskQueue).to.equal(api.temporalTaskQueue);
  });

  it("publishes the api's PORT, on all interfaces, at the address PUBLIC_BASE_URL names", () => {
    const config = configOf('api');
    expect(config.host).to.equal('0.0.0.0');
    const ports = publishedPorts('api');
    const mapping = ports.find((p) => p.container === config.port);
    expect(mapping, `api publishes container port ${config.port}`).to.not.equal(undefined);
    const base = new URL(config.publicBaseUrl);
    expect(Number(base.port || (base.protocol === 'https:' ? 443 : 80))).to.equal(mapping?.host);
  });

  it('connects temporal-ui to the temporal service and TEMPORAL_UI_URL to the published UI', () => {
    const ui = envOf('temporal-ui');
    expect(ui.TEMPORAL_ADDRESS).to.equal(configOf('api').temporalAddress);
    const mapping = publishedPorts('temporal-ui').find((p) => p.container === Number(ui.TEMPORAL_UI_PORT ?? 8080));
    expect(mapping, 'temporal-ui publishes its port').to.not.equal(undefined);
    const uiUrl = new URL(configOf('api').temporalUiUrl ?? '');
    expect(Number(uiUrl.port)).to.equal(mapping?.host);
    expect(dependsOn('temporal-ui')).to.have.property('temporal');
  });

  it('sets up Temporal on the postgres service and publishes its frontend on 7233', () => {
    const t = envOf('temporal');
    const pg = envOf('postgres');
    expect(t.DB).to.equal('postgres12');
    expect(t.POSTGRES_SEEDS).to.equal('postgres');
    expect(t.POSTGRES_USER).to.equal(pg.POSTGRES_USER);
    expect(t.POSTGRES_PWD).to.equal(pg.POSTGRES_PASSWORD);
    // Temporal's databases are its own, never the service's.
    const serviceDb = pg.POSTGRES_DB ?? pg.POSTGRES_USER;
    expect([t.DBNAME ?? 'temporal', t.VISIBILITY_DBNAME ?? 'temporal_visibility']).to.not.include(serviceDb);
    expect(publishedPorts('temporal')).to.deep.include({ host: 7233, container: 7233, protocol: 'tcp' });
    expect(dependsOn('temporal').postgres).to.equal('service_healthy');
  });

  it('keeps PostgreSQL data in a named volume', () => {
    const volumes = (service('postgres').volumes ?? []).map(String);
    const named = volumes.find((v) => v.endsWith(':/var/lib/postgresql/data'));
    expect(named, 'a volume on /var/lib/postgresql/data').to.not.equal(undefined);
    expect(compose.volumes ?? {}).to.have.property(named?.split(':')[0] ?? '');
  });

  it("registers every campaign search attribute as Keyword on the service's namespace", () => {
    const job = service('temporal-search-attributes');
    const text = commandText(job).replace(/\\\n/g, ' ');
    const namespace = configOf('api').temporalNamespace;
    expect(text).to.include('temporal operator search-attribute create');
    for (const attr of CAMPAIGN_SEARCH_ATTRIBUTES) {
      expect(text, attr.name).to.match(new RegExp(`--name\\s+${attr.name}\\s+--type\\s+Keyword\\b`));
    }
    const env = envOf('temporal-search-attributes');
    expect(env.TEMPORAL_ADDRESS).to.equal(configOf('api').temporalAddress);
    // The command names the namespace either literally or through $TEMPORAL_NAMESPACE.
    const ns = /--namespace\s+"?\$\{?TEMPORAL_NAMESPACE\}?"?/.test(text) ? env.TEMPORAL_NAMESPACE : /--namespace\s+"?([\w.-]+)/.exec(text)?.[1];
    expect(ns).to.equal(namespace);
    expect(dependsOn('temporal-search-attributes').temporal).to.equal('service_healthy');
  });

  it('publishes every host port once', () => {
    const seen = new Map<string, string>();
    for (const name of Object.keys(services)) {
      for (const p of publishedPorts(name)) {
        const key = `${p.host}/${p.protocol}`;
        expect(seen.get(key), `host port ${key} of ${name}`).to.equal(undefined);
        seen.set(key, name);
      }
    }
    expect(seen.size).to.be.at.least(5);
  });

  it('runs Mailpit with its SMTP port and web inbox', () => {
    const containerPorts = publishedPorts('mailpit').map((p) => p.container);
    expect(containerPorts).to.include.members([1025, 8025]);
  });
});

function dockerCmd(): string {
  const cmd = dockerfile().filter((i) => i.keyword === 'CMD').at(-1);
  if (cmd === undefined) return '';
  return cmd.args.startsWith('[') ? (JSON.parse(cmd.args) as string[]).join(' ') : cmd.args;
}

describe('Dockerfile', () => {
  const instructions = dockerfile();
  const lastStage = Math.max(...instructions.map((i) => i.stage));
  const runtime = instructions.filter((i) => i.stage === lastStage);

  it('compiles in a build stage; the final stage gets dist/ and production dependencies only', () => {
    expect(lastStage).to.be.at.least(1);
    const buildRuns = instructions.filter((i) => i.stage < lastStage && i.keyword === 'RUN').map((i) => i.args);
    expect(buildRuns.some((r) => /npm ci(?!.*--omit=dev)/.test(r))).to.equal(true);
    expect(buildRuns.some((r) => r.includes('npm run build'))).to.equal(true);
    expect(buildRuns.some((r) => /npm ci .*--omit=dev/.test(r))).to.equal(true);
    // The final stage installs nothing itself and takes dist/ from the build.
    expect(runtime.filter((i) => i.keyword === 'COPY' && i.args.includes('dist')).length).to.be.at.least(1);
    expect(runtime.some((i) => i.keyword === 'RUN' && /npm (ci|install)(?!.*--omit=dev)/.test(i.args))).to.equal(false);
  });

  it("puts the dashboard's templates and static files next to the compiled pages (the build is plain tsc)", () => {
    for (const file of ['src/web/templates/layout.eta', 'src/web/static/style.css']) expect(existsSync(path.join(root, file)), file).to.equal(true);
    const text = instructions.map((i) => i.args).join('\n');
    expect(text).to.include('dist/src/web/templates/layout.eta');
    expect(text).to.include('dist/src/web/static/style.css');
    const build = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.build;
    expect(build).to.include('src/web/templates').and.include('src/web/static');
  });

  it("EXPOSEs the api's port and sets the container defaults", () => {
    const exposed = runtime.filter((i) => i.keyword === 'EXPOSE').flatMap((i) => i.args.split(/\s+/).map((p) => Number(p.split('/')[0])));
    expect(exposed).to.include(configOf('api').port);
    const env = Object.assign({}, ...runtime.filter((i) => i.keyword === 'ENV').map((i) => envInstruction(i.args))) as Record<string, string>;
    expect(env.NODE_ENV).to.equal('production');
    expect(env.HOST).to.equal('0.0.0.0');
    for (const name of ['PORT', 'HOST']) if (env[name] !== undefined) expect(ENV_VAR_NAMES.has(name)).to.equal(true);
    if (env.PORT !== undefined) expect(Number(env.PORT)).to.equal(configOf('api').port);
  });

  it('runs as a non-root USER', () => {
    const user = runtime.filter((i) => i.keyword === 'USER').at(-1)?.args.split(':')[0];
    expect(user, 'a USER in the final stage').to.not.equal(undefined);
    expect(['root', '0']).to.not.include(user);
  });

  it('runs the api by default and checks it on /healthz', () => {
    expect(dockerCmd()).to.match(/^node\s+dist\/src\/entry\/api\.js$/);
    const health = runtime.find((i) => i.keyword === 'HEALTHCHECK');
    expect(health?.args).to.include('/healthz');
  });

  it('copies only what .dockerignore lets into the build context', () => {
    const ignored = new Set(
      read('.dockerignore')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('!') && !/[*?[]/.test(l))
        .map((l) => l.replace(/^\/|\/$/g, '')),
    );
    for (const dir of ['node_modules', 'dist', 'data', '.git']) expect(ignored, dir).to.include(dir);
    const sources = instructions
      .filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='))
      .flatMap((i) => i.args.replace(/--\S+/g, '').trim().split(/\s+/).slice(0, -1));
    expect(sources).to.not.be.empty;
    for (const src of sources) {
      expect(ignored.has(src.split('/')[0] ?? ''), `${src} is in .dockerignore`).to.equal(false);
      expect(existsSync(path.join(root, src)), `${src} exists`).to.equal(true);
    }
  });
});
