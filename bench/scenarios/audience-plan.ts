import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { QueryTypes, Sequelize } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { newId } from '../../src/accounts/ids';
import { audienceCriteria, storedAudience } from '../../src/campaigns/planning/audience-match';
import { parseAudienceText } from '../../src/campaigns/audience/parse-text';
import { planCampaignLeads } from '../../src/campaigns/planning/plan-leads';
import { loadConfig } from '../../src/config/config';
import { createSequelize } from '../../src/db/sequelize';
import type { LeadInput } from '../../src/leads/fields';
import { insertNewLeads, MAX_ROWS_PER_STATEMENT } from '../../src/leads/lead-repository';
import type { LeadDeps } from '../../src/leads/provider';
import type { PlanLeadsInput } from '../../workflows/campaign/contract';
import { selfCpuMs } from '../lib/cpu-usage';
import { latencyRow } from '../lib/latency-row';
import type { Measurement } from '../lib/load';
import type { Scenario } from '../lib/scenario';
import { intFromEnv } from '../lib/settings';
import { emptySample, timedBlock, type TimedSample } from '../lib/timed-block';
import { percentile } from '../lib/wait-until';
import { seededRandom } from '../../src/util/seeded-random';

/**
 * Planning one sending day of a campaign with a parsed audience over a large account: the
 * service's planCampaignLeads (what the planLeads activity runs) against one hand-written query
 * with the same filters, reachability, "not emailed by the campaign" and exclusions, and the same
 * LIMIT, in the same run. One plan at a time, alternating blocks of each.
 */
const AUDIENCE_TEXT = 'CTOs and VPs of Engineering at fintech companies in Germany';
/** Leads per day of the template (the planLeads limit on a fresh day). */
const LEADS_PER_DAY = 25;
/** Matching leads the campaign has already emailed (earlier days). */
const EMAILED = 100;
/** Leads the workflow holds: the last EMAILED_HELD emailed ones still in their sequence, plus today's planned, not yet emailed. */
const EMAILED_HELD = 50;
const PLANNED_AWAITING = 25;
const BLOCK = 25;

// ---------------------------------------------------------------- data

/** Deterministic data: the same leads every run. */
const rng = seededRandom;

type Weighted<T> = ReadonlyArray<readonly [T, number]>;
function picker<T>(items: Weighted<T>, rand: () => number): () => T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  return () => {
    let r = rand() * total;
    for (const [v, w] of items) if ((r -= w) < 0) return v;
    return items[items.length - 1]![0];
  };
}

const TITLES: Weighted<string> = [
  ['CTO', 3],
  ['Chief Technology Officer', 2],
  ['VP of Engineering', 2],
  ['VP Engineering', 1],
  ['Co-founder & CTO', 1],
  ['Head of Engineering', 3],
  ['Director of Engineering', 3],
  ['Engineering Manager', 5],
  ['Software Engineer', 12],
  ['Senior Software Engineer', 10],
  ['Staff Engineer', 3],
  ['Data Scientist', 4],
  ['Product Manager', 6],
  ['VP of Product', 1],
  ['CEO', 3],
  ['Founder', 2],
  ['CFO', 2],
  ['Finance Manager', 3],
  ['Head of Marketing', 2],
  ['Marketing Manager', 5],
  ['VP of Sales', 2],
  ['Account Executive', 6],
  ['Sales Director', 2],
  ['HR Manager', 3],
  ['Recruiter', 3],
  ['Customer Success Manager', 3],
  ['Operations Manager', 3],
  ['Designer', 3],
];

const PLACES: Weighted<{ country: string; cities: readonly string[] }> = [
  [{ country: 'Germany', cities: ['Berlin', 'Munich', 'Hamburg', 'Frankfurt', 'Cologne'] }, 20],
  [{ country: 'United States', cities: ['New York', 'San Francisco', 'Austin', 'Boston', 'Chicago'] }, 25],
  [{ country: 'United Kingdom', cities: ['London', 'Manchester', 'Edinburgh'] }, 12],
  [{ country: 'France', cities: ['Paris', 'Lyon'] }, 8],
  [{ country: 'Netherlands', cities: ['Amsterdam', 'Rotterdam'] }, 6],
  [{ country: 'Spain', cities: ['Madrid', 'Barcelona'] }, 5],
  [{ country: 'Austria', cities: ['Vienna'] }, 4],
  [{ country: 'Switzerland', cities: ['Zurich', 'Geneva'] }, 4],
  [{ country: 'Sweden', cities: ['Stockholm'] }, 4],
  [{ country: 'Poland', cities: ['Warsaw', 'Krakow'] }, 4],
  [{ country: 'India', cities: ['Bangalore', 'Mumbai'] }, 7],
  [{ country: 'Canada', cities: ['Toronto', 'Vancouver'] }, 6],
];

const INDUSTRIES: Weighted<string> = [
  ['Fintech', 8],
  ['Financial Technology', 4],
  ['Payments', 4],
  ['Financial Services', 6],
  ['Banking', 4],
  ['Insurance', 4],
  ['Software', 14],
  ['SaaS', 8],
  ['Information Technology', 8],
  ['Healthcare', 7],
  ['Retail', 6],
  ['E-commerce', 5],
  ['Manufacturing', 7],
  ['Education', 4],
  ['Marketing & Advertising', 5],
  ['Logistics', 4],
  ['Real Estate', 3],
  ['Telecommunications', 3],
];

const SIZES: Weighted<string> = [
  ['1-10', 10],
  ['11-50', 25],
  ['51-200', 25],
  ['201-500', 15],
  ['501-1000', 10],
  ['1001-5000', 10],
  ['5001-10000', 5],
];

const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Elena', 'Felix', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Katrin', 'Lukas', 'Maya', 'Nils', 'Olivia', 'Paul', 'Rosa', 'Sam', 'Tara', 'Uwe'];
const LAST = ['Schmidt', 'Miller', 'Garcia', 'Novak', 'Dubois', 'Rossi', 'Jansen', 'Kowalski', 'Berg', 'Patel', 'Nguyen', 'Fischer', 'Weber', 'Silva', 'Brown'];
const COMPANY_A = ['Blue', 'North', 'Bright', 'Iron', 'Silver', 'Nova', 'Quantum', 'Green', 'Swift', 'Clear', 'Red', 'Open'];
const COMPANY_B = ['Ledger', 'Pay', 'Labs', 'Works', 'Systems', 'Health', 'Cloud', 'Data', 'Logic', 'Bank', 'Retail', 'Motion'];

function leadsOf(count: number, seed: number): LeadInput[] {
  const rand = rng(seed);
  const title = picker(TITLES, rand);
  const place = picker(PLACES, rand);
  const industry = picker(INDUSTRIES, rand);
  const size = picker(SIZES, rand);
  const one = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const out: LeadInput[] = [];
  for (let i = 0; i < count; i++) {
    const first = one(FIRST);
    const last = one(LAST);
    const companyNo = Math.floor(rand() * 8000);
    const company = `${one(COMPANY_A)} ${one(COMPANY_B)} ${companyNo}`;
    const domain = `${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`;
    const p = place();
    out.push({
      email: `${first.toLowerCase()}.${last.toLowerCase()}.${i}@${domain}`,
      firstName: first,
      lastName: last,
      title: title(),
      company,
      companyDomain: domain,
      industry: industry(),
      city: one(p.cities),
      state: null,
      country: p.country,
      linkedinUrl: null,
      phone: null,
      companySize: size(),
    });
  }
  return out;
}

// ---------------------------------------------------------------- measurement

type Sample = TimedSample;

function rowOf(label: string, s: Sample): Measurement {
  const n = s.latencies.length;
  return latencyRow(label, s.latencies, n / (s.wallMs / 1000), { loadgen: (s.cpuMs * 1000) / n, postgres: (s.pgCpuMs * 1000) / n });
}

const p = (s: Sample, q: number): string => percentile([...s.latencies].sort((a, b) => a - b), q).toFixed(2);

/** Each statement a plan runs, with its time (Sequelize's benchmark logging). */
interface Logged {
  readonly sql: string;
  readonly ms: number;
  readonly bind: unknown[];
}

function statementName(sql: string): string {
  if (sql.includes('FROM campaigns WHERE id')) return 'campaign row';
  if (sql.includes('account_integrations')) return 'provider key';
  if (sql.includes('count(*)::int') && sql.includes('ANY(')) return 'returnableAmong count';
  if (sql.includes('SELECT l.id, l.email')) return 'findLeads select';
  if (sql.startsWith('SELECT count(*) AS n FROM leads')) return 'countAudience count';
  if (sql.startsWith('UPDATE campaigns SET audience_matched')) return 'recordAudienceCount';
  if (sql.includes('lead_enrichment')) return 'claimEnrichmentCosts';
  return sql.slice(0, 40).replace(/\s+/g, ' ');
}

const stripLogPrefix = (sql: string): string => sql.replace(/^Executed \([^)]*\): /, '').trim();

async function explain(sequelize: Sequelize, sql: string, bind: unknown[]): Promise<string[]> {
  const rows = await sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, { bind, type: QueryTypes.SELECT });
  // Long literal lists (the excluded ids) are cut: the plan's shape is what matters.
  return rows.map((r) => `    ${r['QUERY PLAN'].replace(/'\{([^}]{60})[^}]*\}'/g, "'{$1...}'")}`);
}

export const audiencePlanScenario: Scenario = {
  name: 'audience-plan',
  description: 'planning a sending day (planCampaignLeads) over 100k leads with a parsed audience vs one hand-written SQL query',
  async run(ctx) {
    const leadCount = intFromEnv('BENCH_AUDIENCE_LEADS', 100_000, 1_000, 1_000_000);
    const plans = intFromEnv('BENCH_AUDIENCE_PLANS', 400, 10, 100_000);
    const maxS = intFromEnv('BENCH_AUDIENCE_SECONDS', 60, 5, 3_600);
    const db = await ctx.database();
    const pgPid = await ctx.postgresPid();
    const config = loadConfig({
      PORT: '0',
      DATABASE_URL: db.url,
      DATA_DIR: path.join(ctx.tmpDir, 'data'),
      PUBLIC_BASE_URL: 'https://track.bench.example',
      TRACKING_SECRET: 'bench-tracking-secret',
      DEFAULT_FROM_EMAIL: 'sam@product.example',
      LOG_LEVEL: ctx.settings.serviceLogLevel,
    });
    // The worker's own pool (DATABASE_POOL_MAX), as the activity has it.
    const sequelize = createSequelize({ url: db.url, poolMax: config.databasePoolMax });
    const bare = new pg.Pool({ connectionString: db.url, max: 2 });
    const logged: Logged[] = [];
    const traced = new Sequelize(db.url, {
      dialect: 'postgres',
      pool: { max: 2, min: 0 },
      benchmark: true,
      logging: (sql: string, timing?: number, options?: unknown) => {
        const bind = (options as { bind?: unknown[] } | undefined)?.bind ?? [];
        logged.push({ sql: stripLogPrefix(sql), ms: timing ?? 0, bind });
      },
    });
    const notes: string[] = [];
    try {
      // ---- setup: account, leads (the import's insert path, profiles computed per row), campaign
      const setup0 = performance.now();
      const { account } = await new AccountService(db.sequelize).createAccount('Bench Planner', 'pro');
      const leads = leadsOf(leadCount, 20261125);
      for (let i = 0; i < leads.length; i += MAX_ROWS_PER_STATEMENT * 5) {
        const chunk = leads.slice(i, i + MAX_ROWS_PER_STATEMENT * 5);
        await db.sequelize.transaction(async (tx) => {
          for (let j = 0; j < chunk.length; j += MAX_ROWS_PER_STATEMENT) await insertNewLeads(db.sequelize, tx, account.id, 'import', chunk.slice(j, j + MAX_ROWS_PER_STATEMENT));
        });
      }
      const insertS = (performance.now() - setup0) / 1000;
      // Some unreachable leads: 1% bounced, 0.5% unsubscribed, 1% on the suppression list.
      await db.sequelize.query(`UPDATE leads SET bounced_at = now() WHERE account_id = $1 AND (hashtext(id) % 100) = 7`, { bind: [account.id] });
      await db.sequelize.query(`UPDATE leads SET unsubscribed_at = now() WHERE account_id = $1 AND (hashtext(id) % 200) = 11`, { bind: [account.id] });
      await db.sequelize.query(
        `INSERT INTO suppressions (account_id, email, reason) SELECT account_id, email, 'manual' FROM leads WHERE account_id = $1 AND (hashtext(email) % 100) = 3 ON CONFLICT DO NOTHING`,
        { bind: [account.id] },
      );

      const parsed = parseAudienceText(AUDIENCE_TEXT);
      const campaignId = newId('cmp');
      await db.sequelize.query(
        `INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url, status, audience_filters, audience_source)
         VALUES ($1, $2, 'a', 'Audience bench', 'sales_outreach', 'https://product.example', 'running', $3::jsonb, 'parser')`,
        { bind: [campaignId, account.id, JSON.stringify(parsed.filters)] },
      );
      const criteria = audienceCriteria(storedAudience(parsed.filters, 'parser'));
      if (criteria === null) throw new Error('the audience resolved to all leads');

      // ---- the hand-written query: the same filters as literal columns, the same conditions
      const role = criteria.titleRoles[0];
      if (criteria.titleRoles.length !== 1 || role === undefined || criteria.countryCodes.length === 0 || criteria.industryIds.length === 0) {
        throw new Error(`unexpected criteria for "${AUDIENCE_TEXT}": ${JSON.stringify(criteria)}`);
      }
      const BARE_SQL = `SELECT l.id, l.email FROM leads l
        WHERE l.account_id = $1
          AND (l.title_keys && $2::text[] OR (l.seniority = $3 AND l.department = $4))
          AND l.country_code = ANY($5::text[])
          AND l.industry_id = ANY($6::text[])
          AND l.bounced_at IS NULL AND l.unsubscribed_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email)
          AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.campaign_id = $7 AND e.lead_id = l.id)
          AND l.id <> ALL($8::text[])
        ORDER BY l.created_at, l.email LIMIT $9`;
      const bareBind = (exclude: readonly string[]): unknown[] => [account.id, criteria.titleKeys, role.seniority, role.department, criteria.countryCodes, criteria.industryIds, campaignId, exclude, LEADS_PER_DAY];

      // Earlier days: the campaign emailed EMAILED matching leads; the workflow still holds the
      // last EMAILED_HELD of them and PLANNED_AWAITING planned today but not yet emailed.
      const firstOnes = await bare.query<{ id: string; email: string }>(BARE_SQL, [...bareBind([]).slice(0, 8), EMAILED + PLANNED_AWAITING]);
      const emailed = firstOnes.rows.slice(0, EMAILED);
      const awaiting = firstOnes.rows.slice(EMAILED).map((r) => r.id);
      if (emailed.length < EMAILED || awaiting.length < PLANNED_AWAITING) throw new Error(`only ${firstOnes.rows.length} matching leads: too few for the scenario`);
      await db.sequelize.query(
        `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status, attempts, sent_at)
         SELECT 'eml_ap_' || x.ord, $1, $2, x.lead_id, 0, 'sam@product.example', x.email, 'Hello', '<ap' || x.ord || '@product.example>', 'sent', 1, now() - interval '1 day'
           FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS x(lead_id, email, ord)`,
        { bind: [account.id, campaignId, emailed.map((r) => r.id), emailed.map((r) => r.email)] },
      );
      await db.sequelize.query('ANALYZE leads; ANALYZE emails; ANALYZE suppressions');
      const setupS = (performance.now() - setup0) / 1000;

      const exclude = [...emailed.slice(EMAILED - EMAILED_HELD).map((r) => r.id), ...awaiting];
      const input: PlanLeadsInput = { campaignId, accountId: account.id, limit: LEADS_PER_DAY, exclude };
      const deps: LeadDeps = { sequelize, config };
      const service = () => planCampaignLeads(deps, input, 'bench-plan');
      const bareOnce = () => bare.query(BARE_SQL, bareBind(exclude));

      // Both must choose the same leads, or the comparison is void.
      const got = await service();
      const want = (await bareOnce()).rows.map((r) => r.id);
      if (got.leadIds.length !== LEADS_PER_DAY || got.leadIds.join(',') !== want.join(',')) {
        throw new Error(`service and bare query disagree: ${got.leadIds.length} vs ${want.length} leads (${got.leadIds.slice(0, 3).join(',')} vs ${want.slice(0, 3).join(',')})`);
      }
      const [{ matched, total } = { matched: 0, total: 0 }] = await db.sequelize.query<{ matched: number; total: number }>(
        `SELECT audience_matched_leads AS matched, (SELECT count(*)::int FROM leads WHERE account_id = $2) AS total FROM campaigns WHERE id = $1`,
        { bind: [campaignId, account.id], type: QueryTypes.SELECT },
      );

      // ---- measurement: warm-up, then alternating blocks until `plans` each or the time is up
      await timedBlock(null, 20, service, selfCpuMs, pgPid);
      await timedBlock(null, 20, bareOnce, selfCpuMs, pgPid);
      const svc = emptySample();
      const raw = emptySample();
      const deadline = performance.now() + maxS * 1000;
      while (svc.latencies.length < plans && performance.now() < deadline) {
        const n = Math.min(BLOCK, plans - svc.latencies.length);
        await timedBlock(svc, n, service, selfCpuMs, pgPid);
        await timedBlock(raw, n, bareOnce, selfCpuMs, pgPid);
      }

      // ---- where the service's time goes: each statement of a plan, and the audience resolution
      const tracedDeps: LeadDeps = { sequelize: traced, config };
      const TRACE_RUNS = 20;
      logged.length = 0;
      for (let i = 0; i < TRACE_RUNS; i++) await planCampaignLeads(tracedDeps, input, 'bench-plan');
      const byName = new Map<string, { ms: number[]; sql: string; bind: unknown[] }>();
      for (const l of logged) {
        const name = statementName(l.sql);
        const e = byName.get(name) ?? { ms: [], sql: l.sql, bind: l.bind };
        e.ms.push(l.ms);
        byName.set(name, e);
      }
      const resolveRuns = 2_000;
      const r0 = performance.now();
      for (let i = 0; i < resolveRuns; i++) audienceCriteria(storedAudience(parsed.filters, 'parser'));
      const resolveUs = ((performance.now() - r0) * 1000) / resolveRuns;

      const svcP50 = Number(p(svc, 50));
      const rate = (s: Sample) => s.latencies.length / (s.wallMs / 1000);
      notes.push(
        `setup: ${total} leads (inserted with insertNewLeads in ${insertS.toFixed(1)} s, ${setupS.toFixed(1)} s with the rest), audience "${AUDIENCE_TEXT}" -> ${JSON.stringify(parsed.filters)}`,
        `  matching reachable leads: ${matched}; ${EMAILED} already emailed by the campaign; exclude = ${exclude.length} leads the workflow holds; limit ${LEADS_PER_DAY}; one plan at a time, blocks of ${BLOCK} alternating`,
        `  service = planCampaignLeads (the planLeads activity's call); bare = one hand-written SELECT (pg.Pool) with the same WHERE, ORDER BY and LIMIT`,
        `rows: plans/s, p50, p95, p99 (ms); CPU columns: loadgen = this process per plan, pg = PostgreSQL per plan`,
        `  service  ${rate(svc).toFixed(1)}/s  p50 ${p(svc, 50)}  p95 ${p(svc, 95)}  p99 ${p(svc, 99)}  (${svc.latencies.length} plans)`,
        `  bare     ${rate(raw).toFixed(1)}/s  p50 ${p(raw, 50)}  p95 ${p(raw, 95)}  p99 ${p(raw, 99)}  (${raw.latencies.length} queries)`,
        `target service p50 < 50 ms: ${svcP50 < 50 ? 'met' : 'MISSED'} (${svcP50.toFixed(2)} ms)`,
        `statements of one plan (${TRACE_RUNS} traced plans, median ms each; resolving the audience in process: ${resolveUs.toFixed(1)} us):`,
      );
      for (const [name, e] of byName) {
        const sorted = [...e.ms].sort((a, b) => a - b);
        notes.push(`  ${name.padEnd(24)} ${String(e.ms.length / TRACE_RUNS).padStart(3)}x  p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms`);
      }
      if (process.env.BENCH_AUDIENCE_EXPLAIN !== '0') {
        for (const name of ['findLeads select', 'countAudience count', 'returnableAmong count']) {
          const e = byName.get(name);
          if (e === undefined) continue;
          notes.push(`EXPLAIN ANALYZE, service's ${name}:`, ...(await explain(db.sequelize, e.sql, e.bind)));
        }
        notes.push('EXPLAIN ANALYZE, bare query:', ...(await explain(db.sequelize, BARE_SQL, bareBind(exclude))));
        if (ctx.settings.diagnostics) {
          // The same query when the planner may not walk leads_account_created in order: the
          // profile indexes (bitmaps) and a sort of the matches instead.
          const bitmap = await db.sequelize.transaction(async (transaction) => {
            await db.sequelize.query('SET LOCAL enable_indexscan = off', { transaction });
            const rows = await db.sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${BARE_SQL}`, { bind: bareBind(exclude), type: QueryTypes.SELECT, transaction });
            return rows.map((r) => `    ${r['QUERY PLAN'].replace(/'\{([^}]{60})[^}]*\}'/g, "'{$1...}'")}`);
          });
          notes.push('EXPLAIN ANALYZE, bare query with enable_indexscan = off (diagnostic):', ...bitmap);
          // A candidate index over two of the audience's dimensions, tried in a transaction that is
          // rolled back (the measured database is left as the migrations made it).
          const findSql = byName.get('findLeads select');
          const countSql = byName.get('countAudience count');
          const withIndex: string[] = [];
          await db.sequelize
            .transaction(async (transaction) => {
              await db.sequelize.query('CREATE INDEX bench_leads_account_country_industry ON leads (account_id, country_code, industry_id)', { transaction });
              await db.sequelize.query('ANALYZE leads', { transaction });
              for (const [name, e] of [['findLeads select', findSql], ['countAudience count', countSql], ['bare query', { sql: BARE_SQL, bind: bareBind(exclude) }]] as const) {
                if (e === undefined) continue;
                for (let i = 0; i < 3; i++) await db.sequelize.query(e.sql, { bind: e.bind, type: QueryTypes.SELECT, transaction });
                const rows = await db.sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${e.sql}`, { bind: e.bind, type: QueryTypes.SELECT, transaction });
                const plan = rows.map((r) => r['QUERY PLAN']);
                const scans = plan.filter((l) => /Scan on|Index Scan|BitmapAnd/.test(l)).map((l) => l.trim().replace(/ \(actual.*$/, ''));
                withIndex.push(`  ${name}: ${plan.find((l) => l.startsWith('Execution Time')) ?? '?'}; ${scans.join(' | ')}`);
              }
              throw new Error('rollback');
            })
            .catch((err: unknown) => {
              if ((err as Error).message !== 'rollback') throw err;
            });
          notes.push('with an index on leads (account_id, country_code, industry_id) (diagnostic, rolled back):', ...withIndex);
        }
      }
      return {
        measurements: [rowOf('service', svc), rowOf('bare', raw)],
        ratios: [{ numerator: 'service', denominator: 'bare', target: 0.8 }],
        notes,
      };
    } finally {
      await traced.close().catch(() => undefined);
      await sequelize.close().catch(() => undefined);
      await bare.end().catch(() => undefined);
    }
  },
};
