import { isIP } from 'node:net';
import path from 'node:path';
import Ajv from 'ajv';
import { ENV_VARS, type EnvVarSpec } from './env-schema';
import type { PlanName } from './plans';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The validated configuration one process runs with. Built once at start by `loadConfig`. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicBaseUrl: string;
  readonly dataDir: string;
  /** Undefined means: run the embedded PostgreSQL. */
  readonly databaseUrl: string | undefined;
  readonly databasePoolMax: number;
  readonly embeddedPgPort: number;
  /** Undefined means: run the embedded Temporal dev server. */
  readonly temporalAddress: string | undefined;
  readonly temporalNamespace: string;
  readonly temporalTaskQueue: string;
  readonly temporalUiUrl: string | undefined;
  readonly temporalDevPort: number;
  readonly temporalUiPort: number;
  readonly logLevel: LogLevel;
  readonly allowLoopbackEgress: boolean;
  readonly trustProxy: boolean;
  readonly validateResponses: boolean;
  /** Undefined means: deliver to the local SMTP sink on smtpSinkPort. */
  readonly smtpUrl: string | undefined;
  readonly smtpSinkPort: number;
  readonly inboundSmtpPort: number;
  readonly defaultFromEmail: string;
  readonly trackingSecret: string | undefined;
  readonly inboundSecret: string | undefined;
  readonly apolloApiUrl: string;
  readonly openaiBaseUrl: string;
  readonly anthropicBaseUrl: string;
  readonly prices: { readonly emailUsd: number; readonly enrichmentUsd: number };
  /** Monthly email quota per plan (see plans.ts for the rest of a plan). */
  readonly planEmailLimits: Readonly<Record<PlanName, number>>;
  readonly egress: { readonly timeoutMs: number; readonly maxBytes: number };
  /** Requests per minute per account: Surface A by plan, Surface B the same for every plan. */
  readonly rateLimits: { readonly a: Readonly<Record<PlanName, number>>; readonly b: number };
  /** Address verification's DNS (docs/verification.md). */
  readonly emailVerification: {
    /** For the resolver's setServers: `ip`, `ip:port`, `[ipv6]:port`; empty means the system's resolvers. */
    readonly servers: readonly string[];
    readonly timeoutMs: number;
    /** What reserved test domains (example.com, *.test) verify as. */
    readonly reservedDomains: 'deliver' | 'invalid';
  };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const ajv = new Ajv({ allErrors: false });

const validators: Record<EnvVarSpec['kind'], (v: string) => boolean> = {
  port: ajv.compile({ type: 'string', pattern: '^(0|[1-9][0-9]{0,4})$' }) as (v: string) => boolean,
  integer: ajv.compile({ type: 'string', pattern: '^[1-9][0-9]{0,8}$' }) as (v: string) => boolean,
  url: (v) => {
    try {
      new URL(v);
      return true;
    } catch {
      return false;
    }
  },
  string: ajv.compile({ type: 'string', minLength: 1, maxLength: 1000 }) as (v: string) => boolean,
  path: ajv.compile({ type: 'string', minLength: 1 }) as (v: string) => boolean,
  level: ajv.compile({ enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] }) as (v: string) => boolean,
  boolean: ajv.compile({ enum: ['true', 'false', '1', '0'] }) as (v: string) => boolean,
  decimal: ajv.compile({ type: 'string', pattern: '^(0|[1-9][0-9]{0,5})(\\.[0-9]{1,6})?$' }) as (v: string) => boolean,
};

const hints: Record<EnvVarSpec['kind'], string> = {
  port: 'a port number between 0 and 65535',
  integer: 'a positive whole number',
  url: 'an absolute URL',
  string: 'a non-empty string',
  path: 'a path',
  level: 'one of fatal, error, warn, info, debug, trace, silent',
  boolean: 'true or false',
  decimal: 'a non-negative decimal number such as 0.002',
};

/**
 * Reads and checks every variable of ENV_VARS. An invalid value stops the process with a
 * message that names the variable, before anything is started.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = new Map<string, string | undefined>();
  for (const spec of ENV_VARS) {
    const given = env[spec.name];
    const value = given === undefined || given === '' ? spec.default : given;
    if (value !== undefined && !validators[spec.kind](value)) {
      throw new ConfigError(`Invalid ${spec.name}=${JSON.stringify(value)}: expected ${hints[spec.kind]}.`);
    }
    if (spec.kind === 'port' && value !== undefined && Number(value) > 65535) {
      throw new ConfigError(`Invalid ${spec.name}=${JSON.stringify(value)}: expected ${hints.port}.`);
    }
    raw.set(spec.name, value);
  }
  const get = (name: string): string | undefined => raw.get(name);
  const need = (name: string): string => {
    const v = raw.get(name);
    if (v === undefined) throw new ConfigError(`${name} is required.`);
    return v;
  };
  const flag = (name: string): boolean => ['true', '1'].includes(need(name));
  const port = Number(need('PORT'));
  const offsetPort = (name: string, offset: number): number => {
    const v = get(name);
    const p = v === undefined ? port + offset : Number(v);
    if (p > 65535) throw new ConfigError(`${name} would be ${p} (PORT + ${offset}); set ${name} explicitly.`);
    return p;
  };
  const databaseUrl = get('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:$/.test(new URL(databaseUrl).protocol)) {
    throw new ConfigError('Invalid DATABASE_URL: expected a postgres:// or postgresql:// URL.');
  }
  const temporalUiPort = offsetPort('TEMPORAL_UI_PORT', 5233);
  const temporalAddress = get('TEMPORAL_ADDRESS');
  const publicBaseUrl = (get('PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: need('HOST'),
    publicBaseUrl,
    dataDir: path.resolve(need('DATA_DIR')),
    databaseUrl,
    databasePoolMax: Number(need('DATABASE_POOL_MAX')),
    embeddedPgPort: offsetPort('EMBEDDED_PG_PORT', 2433),
    temporalAddress,
    temporalNamespace: need('TEMPORAL_NAMESPACE'),
    temporalTaskQueue: need('TEMPORAL_TASK_QUEUE'),
    temporalUiUrl: get('TEMPORAL_UI_URL') ?? (temporalAddress === undefined ? `http://localhost:${temporalUiPort}` : undefined),
    temporalDevPort: offsetPort('TEMPORAL_DEV_PORT', 4233),
    temporalUiPort,
    logLevel: need('LOG_LEVEL') as LogLevel,
    allowLoopbackEgress: flag('ALLOW_LOOPBACK_EGRESS'),
    trustProxy: flag('TRUST_PROXY'),
    validateResponses: flag('VALIDATE_RESPONSES'),
    smtpUrl: checkSmtpUrl(get('SMTP_URL')),
    smtpSinkPort: offsetPort('SMTP_SINK_PORT', 2025),
    inboundSmtpPort: offsetPort('INBOUND_SMTP_PORT', 2026),
    defaultFromEmail: need('DEFAULT_FROM_EMAIL'),
    trackingSecret: get('TRACKING_SECRET'),
    inboundSecret: get('INBOUND_SECRET'),
    apolloApiUrl: need('APOLLO_API_URL').replace(/\/+$/, ''),
    openaiBaseUrl: need('OPENAI_BASE_URL').replace(/\/+$/, ''),
    anthropicBaseUrl: need('ANTHROPIC_BASE_URL').replace(/\/+$/, ''),
    prices: { emailUsd: Number(need('PRICE_EMAIL_USD')), enrichmentUsd: Number(need('PRICE_ENRICHMENT_USD')) },
    planEmailLimits: { free: Number(need('FREE_PLAN_EMAIL_LIMIT')), pro: Number(need('PRO_PLAN_EMAIL_LIMIT')) },
    egress: { timeoutMs: Number(need('EGRESS_TIMEOUT_MS')), maxBytes: Number(need('EGRESS_MAX_BYTES')) },
    rateLimits: {
      a: { free: Number(need('RATE_LIMIT_FREE_PER_MINUTE')), pro: Number(need('RATE_LIMIT_PRO_PER_MINUTE')) },
      b: Number(need('RATE_LIMIT_B_PER_MINUTE')),
    },
    emailVerification: {
      servers: parseDnsServers(get('EMAIL_DNS_SERVERS')),
      timeoutMs: Number(need('EMAIL_DNS_TIMEOUT_MS')),
      reservedDomains: reservedDomainsMode(get('EMAIL_VERIFY_RESERVED_DOMAINS'), env.NODE_ENV),
    },
  };
}

/** `ip[:port]` and `[ipv6]:port` entries, comma-separated; the resolver takes addresses only, not host names. */
function parseDnsServers(v: string | undefined): string[] {
  if (v === undefined) return [];
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
      const plain = /^([^:]+)(?::(\d{1,5}))?$/.exec(entry);
      // A bare IPv6 address (no brackets, so no port) is neither form: it is its own host.
      const host = bracketed?.[1] ?? plain?.[1] ?? entry;
      const port = bracketed?.[2] ?? plain?.[2];
      if (isIP(host) === 0) throw new ConfigError(`Invalid EMAIL_DNS_SERVERS entry ${JSON.stringify(entry)}: expected ip[:port] or [ipv6]:port.`);
      if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw new ConfigError(`Invalid EMAIL_DNS_SERVERS entry ${JSON.stringify(entry)}: port out of range.`);
      return entry;
    });
}

function reservedDomainsMode(v: string | undefined, nodeEnv: string | undefined): 'deliver' | 'invalid' {
  if (v === undefined) return nodeEnv === 'production' ? 'invalid' : 'deliver';
  if (v !== 'deliver' && v !== 'invalid') throw new ConfigError(`Invalid EMAIL_VERIFY_RESERVED_DOMAINS=${JSON.stringify(v)}: expected deliver or invalid.`);
  return v;
}

function checkSmtpUrl(v: string | undefined): string | undefined {
  if (v !== undefined && !/^smtps?:$/.test(new URL(v).protocol)) throw new ConfigError('Invalid SMTP_URL: expected an smtp:// or smtps:// URL.');
  return v;
}
