import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { buildApp } from '../../src/api/app';
import { loadConfig, type Config } from '../../src/config/config';
import type { PlanName } from '../../src/config/plans';
import { createLogger } from '../../src/log/logger';
import { listen, type RunningHttpServer } from '../../src/runtime/http-server';
import { TemporalClientProvider } from '../../src/temporal/client';
import { startTracking, type Tracking, type TrackingSetup } from '../../src/tracking/tracking';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestApi {
  readonly baseUrl: string;
  readonly openapi: Record<string, unknown>;
  /** The tracking links and recorder the app runs with (journal in a temporary directory). */
  readonly tracking: Tracking;
  close(): Promise<void>;
}

/**
 * The real Koa app on a real socket (port 0), with response validation on: a response that does
 * not match its documented schema fails the request, so every test also checks the OpenAPI document.
 */
export interface TestApiOptions {
  readonly temporalAddress?: string;
  /** Extra environment for loadConfig, e.g. a provider's base URL pointing at a local fake. */
  readonly env?: Readonly<Record<string, string>>;
  /** Tracking recorder tuning, e.g. a long flush interval so a test decides when hits are written. */
  readonly tracking?: TrackingSetup['recorder'];
}

/** Rate limits far above what any test sends: the limiter still counts every request, but only test/api/rate-limits.test.ts meets a limit. */
const UNREACHED_RATE_LIMITS = { RATE_LIMIT_FREE_PER_MINUTE: '1000000', RATE_LIMIT_PRO_PER_MINUTE: '1000000', RATE_LIMIT_B_PER_MINUTE: '1000000' };

/** The configuration tests run the API (and activities) with: silent, validating, loopback egress allowed. */
export function testConfig(env: Readonly<Record<string, string>> = {}): Config {
  // The suite's local DNS server (global.ts), so address verification never asks the machine's resolver.
  const dns = process.env.EMAIL_DNS_SERVERS === undefined ? {} : { EMAIL_DNS_SERVERS: process.env.EMAIL_DNS_SERVERS };
  return loadConfig({ PORT: '0', VALIDATE_RESPONSES: 'true', LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent', ALLOW_LOOPBACK_EGRESS: 'true', ...UNREACHED_RATE_LIMITS, ...dns, ...env });
}

export async function startTestApi(sequelize: Sequelize, opts: TestApiOptions = {}): Promise<TestApi> {
  const config = testConfig(opts.env);
  // Nothing listens on port 1: the Temporal-dependent checks see "unreachable" unless a test gives an address.
  const temporal = new TemporalClientProvider({ address: opts.temporalAddress ?? '127.0.0.1:1', namespace: 'default' });
  const log = createLogger('silent', 'test');
  const journalDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-tracking-test-'));
  const tracking = await startTracking({ sequelize, config, log, journalDir, recorder: opts.tracking });
  const { app, openapi } = buildApp({ config, sequelize, log, temporal, tracking });
  const server: RunningHttpServer = await listen(app, '127.0.0.1', 0);
  return {
    baseUrl: server.url.replace('localhost', '127.0.0.1'),
    openapi,
    tracking,
    close: async () => {
      await server.close(1_000);
      await tracking.close();
      await temporal.close();
      await fs.rm(journalDir, { recursive: true, force: true });
    },
  };
}

export async function createAccount(sequelize: Sequelize, plan: PlanName = 'free', name = 'Test Co'): Promise<{ accountId: string; apiKey: string; keyId: string }> {
  const { account, key } = await new AccountService(sequelize).createAccount(name, plan);
  return { accountId: account.id, apiKey: key.apiKey, keyId: key.keyId };
}

export interface JsonResponse<T = Record<string, unknown>> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

/** fetch with the body read as text and, when it parses, as JSON. */
export async function request<T = Record<string, unknown>>(url: string, init: RequestInit = {}): Promise<JsonResponse<T>> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

export const surfaceA = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });
export const surfaceB = (key: string): Record<string, string> => ({ 'X-API-Key': key });

export interface ApiFixture {
  readonly db: TestDatabase;
  readonly api: TestApi;
}

/**
 * Registers before/after hooks that give the enclosing `describe` a fresh database and the real
 * app on it. Read the fixture's fields inside tests (they are set once `before` has run).
 */
export function useTestApi(opts: TestApiOptions = {}): ApiFixture {
  const fixture = {} as { db: TestDatabase; api: TestApi };
  before(async () => {
    fixture.db = await createTestDatabase();
    fixture.api = await startTestApi(fixture.db.sequelize, opts);
  });
  after(async () => {
    await fixture.api?.close();
    await fixture.db?.drop();
  });
  return fixture;
}
