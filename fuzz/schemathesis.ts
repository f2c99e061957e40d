import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Seed } from './seed';

/**
 * What every response is held to. The first four are the brief: no 5xx, only documented statuses
 * and content types, bodies that match their schema. negative_data_rejection also sends requests
 * that break the schema (wrong types, unknown members, missing required fields) and fails when one
 * is accepted; ignored_auth repeats requests without credentials and fails when one gets through.
 */
export const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'ignored_auth',
] as const;

export interface FuzzSettings {
  /** Generated cases per operation and phase (schemathesis `--max-examples`). */
  readonly maxExamples: number;
  readonly seed: number;
  readonly workers: number;
  /** Longest the fuzzer may run; it is stopped (and the run fails) beyond it. */
  readonly timeoutMs: number;
}

export const DEFAULT_SETTINGS: FuzzSettings = { maxExamples: 100, seed: 20260101, workers: 2, timeoutMs: 12 * 60_000 };

/** `env[name]` as a positive integer, `fallback` when unset; anything else is an error that names the variable. */
export function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}=${raw}: expected a positive integer`);
  return n;
}

/**
 * FUZZ_MAX_EXAMPLES, FUZZ_SEED, FUZZ_WORKERS and FUZZ_TIMEOUT_MINUTES override the defaults (e.g. a
 * longer run with another seed).
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  return {
    maxExamples: positiveInt(env, 'FUZZ_MAX_EXAMPLES', DEFAULT_SETTINGS.maxExamples),
    seed: positiveInt(env, 'FUZZ_SEED', DEFAULT_SETTINGS.seed),
    workers: positiveInt(env, 'FUZZ_WORKERS', DEFAULT_SETTINGS.workers),
    timeoutMs: positiveInt(env, 'FUZZ_TIMEOUT_MINUTES', DEFAULT_SETTINGS.timeoutMs / 60_000) * 60_000,
  };
}

const tomlString = (s: string): string => JSON.stringify(s);
const tomlList = (values: readonly string[]): string => `[${values.map(tomlString).join(', ')}]`;

interface Binding {
  /** Operations whose path matches. */
  readonly pathRegex: string;
  /** `path.<name>` or `query.<name>`. */
  readonly parameter: string;
  readonly dictionary: string;
}

/**
 * Path ids the fuzzer would never guess: half of the time a parameter takes one of the seeded ids,
 * the account's own (the request reaches the handler's real work) or another account's (it must be
 * a 404). The rest of the time schemathesis makes ids up, which must be 404s (or 400s) too.
 */
export function schemathesisConfig(seed: Seed): string {
  const both = (pick: (ids: Seed['own']) => readonly string[]): string[] => [...pick(seed.own), ...pick(seed.other)];
  const dictionaries: Record<string, string[]> = {
    'campaign-ids': both((s) => s.campaignIds),
    'lead-ids': both((s) => s.leadIds),
    'mailbox-ids': both((s) => s.mailboxIds),
    'key-ids': both((s) => s.spareKeyIds),
    'delivery-ids': both((s) => s.deliveryIds),
    'company-ids': both((s) => s.companyIds),
    'account-ids': [seed.own.accountId, seed.other.accountId],
  };
  const bindings: Binding[] = [
    { pathRegex: '^/(v1/)?campaigns/\\{id\\}', parameter: 'path.id', dictionary: 'campaign-ids' },
    { pathRegex: '^/v1/leads/\\{id\\}$', parameter: 'path.id', dictionary: 'lead-ids' },
    { pathRegex: '^/v1/mailboxes/\\{id\\}$', parameter: 'path.id', dictionary: 'mailbox-ids' },
    { pathRegex: '^/v1/api-keys/\\{keyId\\}/revoke$', parameter: 'path.keyId', dictionary: 'key-ids' },
    { pathRegex: '^/v1/webhook-deliveries/\\{id\\}', parameter: 'path.id', dictionary: 'delivery-ids' },
    { pathRegex: '^/v1/webhook-deliveries$', parameter: 'query.campaignId', dictionary: 'campaign-ids' },
    { pathRegex: '^/v1/company/\\{id\\}$', parameter: 'path.id', dictionary: 'company-ids' },
    { pathRegex: '^/webhooks/(calcom|calendly)/\\{accountId\\}$', parameter: 'path.accountId', dictionary: 'account-ids' },
  ];
  const lines: string[] = [
    '# Written by fuzz/run.ts for one run; see docs/testing.md.',
    '',
    // schemathesis' default list, plus the statuses that refuse a request for its size (body, URL, headers).
    '[checks.negative_data_rejection]',
    `expected-statuses = ${tomlList(['400', '401', '403', '404', '405', '406', '409', '413', '414', '415', '422', '428', '429', '431', '5xx'])}`,
    '',
  ];
  for (const [name, values] of Object.entries(dictionaries)) {
    if (values.length === 0) continue;
    lines.push(`[dictionaries.${name}]`, `values = ${tomlList(values)}`, '');
  }
  for (const b of bindings) {
    if ((dictionaries[b.dictionary] ?? []).length === 0) continue;
    lines.push('[[operations]]', `include-path-regex = ${tomlString(b.pathRegex)}`, `parameters = { ${tomlString(b.parameter)} = { dictionary = ${tomlString(b.dictionary)}, probability = 0.5 } }`, '');
  }
  return lines.join('\n');
}

export interface SchemathesisRun {
  readonly exitCode: number | null;
  readonly output: string;
  readonly timedOut: boolean;
  readonly junitPath: string;
}

export interface SchemathesisOptions {
  readonly executable: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Sent as X-Inbound-Secret, the credential of POST /inbound/mime. */
  readonly inboundSecret: string;
  readonly configFile: string;
  readonly reportDir: string;
  readonly settings: FuzzSettings;
  /** Every line schemathesis prints, as it prints it. */
  readonly onOutput: (chunk: string) => void;
  /** Set when the run is to stop early (Ctrl-C): the fuzzer gets SIGINT, then SIGKILL. */
  readonly abort: AbortSignal;
}

/**
 * `schemathesis run <base>/openapi.json` with both surfaces' credentials (and the inbound
 * endpoint's secret) on every request, and the checks above.
 */
export function runSchemathesis(o: SchemathesisOptions): Promise<SchemathesisRun> {
  const junitPath = path.join(o.reportDir, 'junit.xml');
  const args = [
    '--config-file', o.configFile,
    'run', `${o.baseUrl}/openapi.json`,
    '--url', o.baseUrl,
    '--header', `Authorization: Bearer ${o.apiKey}`,
    '--header', `X-API-Key: ${o.apiKey}`,
    '--header', `X-Inbound-Secret: ${o.inboundSecret}`,
    '--checks', CHECKS.join(','),
    '--max-examples', String(o.settings.maxExamples),
    '--seed', String(o.settings.seed),
    '--workers', String(o.settings.workers),
    '--generation-database', 'none',
    '--request-timeout', '30',
    '--report', 'junit',
    '--report-junit-path', junitPath,
    // The key belongs to a throwaway account in a throwaway database: show it, so a failure can be replayed as printed.
    '--output-sanitize', 'false',
    '--no-color',
  ];
  return new Promise((resolve, reject) => {
    // cwd: the report folder, so nothing schemathesis or hypothesis writes lands in the repository.
    const child = spawn(o.executable, args, { cwd: o.reportDir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
    let output = '';
    const take = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      output += text;
      o.onOutput(text);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const stop = (): void => {
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, o.settings.timeoutMs);
    o.abort.addEventListener('abort', stop, { once: true });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      o.abort.removeEventListener('abort', stop);
      fs.writeFileSync(path.join(o.reportDir, 'output.txt'), output);
      resolve({ exitCode: code, output, timedOut, junitPath });
    });
  });
}
