import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { QueryTypes, Sequelize as SequelizeCtor, type Sequelize } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { newId } from '../../src/accounts/ids';
import { enrolLeads, type EnrolSettings } from '../../src/campaigns/enrolment/enrol-leads';
import { findTemplate } from '../../src/campaigns/model/templates';
import { planEnrolments } from '../../src/campaigns/planning/plan-enrolments';
import { loadConfig } from '../../src/config/config';
import { createSequelize } from '../../src/db/sequelize';
import type { LeadInput } from '../../src/leads/fields';
import { insertNewLeads, MAX_ROWS_PER_STATEMENT } from '../../src/leads/lead-repository';
import type { LeadDeps } from '../../src/leads/provider';
import { seededRandom } from '../../src/util/seeded-random';
import { selfCpuMs } from '../lib/cpu-usage';
import { latencyRow } from '../lib/latency-row';
import type { Measurement } from '../lib/load';
import type { Scenario } from '../lib/scenario';
import { intFromEnv } from '../lib/settings';
import { emptySample, timedBlock, type TimedSample } from '../lib/timed-block';
import { percentile } from '../lib/wait-until';

/**
 * Issue 27 point 10: enrolling 50,000 leads into a campaign through enrolLeads (1,000 ids a call,
 * the API's limit, source 'manual') and planning a fresh campaign's first day (planEnrolments),
 * each against bare SQL doing the same inserts, in the same run.
 *
 * Every measured enrolment starts from an empty campaign_enrolments (TRUNCATE, untimed), so each
 * run of 50,000 sees the same table, and no earlier run's leads are "in another campaign".
 */
const CHUNK = 1_000;
const TEMPLATE = 'sales_outreach';
const PLAN_BLOCK = 10;

/** Deterministic leads: a spread of companies (a few colleagues each), mostly clean addresses. */
function leadsOf(count: number, seed: number): LeadInput[] {
  const rand = seededRandom(seed);
  const out: LeadInput[] = [];
  for (let i = 0; i < count; i++) {
    const companyNo = Math.floor(rand() * 12_000);
    const domain = `company${companyNo}.example`;
    out.push({
      email: `person${i}@${rand() < 0.1 ? `mail.${domain}` : domain}`,
      firstName: `First${i % 97}`,
      lastName: `Last${i % 89}`,
      title: rand() < 0.5 ? 'Head of Engineering' : 'Marketing Manager',
      company: `Company ${companyNo}`,
      companyDomain: rand() < 0.8 ? domain : null,
      industry: 'Software',
      city: 'Berlin',
      state: null,
      country: 'Germany',
      linkedinUrl: null,
      phone: null,
    });
  }
  return out;
}

const rate = (n: number, s: TimedSample): number => n / (s.wallMs / 1000);

function rowOf(label: string, s: TimedSample, itemsPerCall: number, withPg = true): Measurement {
  const items = s.latencies.length * itemsPerCall;
  return latencyRow(label, s.latencies, rate(items, s), { loadgen: (s.cpuMs * 1000) / items, ...(withPg ? { postgres: (s.pgCpuMs * 1000) / items } : {}) });
}

const pct = (s: TimedSample, q: number): string => percentile([...s.latencies].sort((a, b) => a - b), q).toFixed(1);

async function explain(sequelize: Sequelize, sql: string, bind: unknown[]): Promise<string[]> {
  const rows = await sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, { bind, type: QueryTypes.SELECT });
  return rows.map((r) => `    ${r['QUERY PLAN']}`);
}

/** A short name for a statement of planEnrolments, for the per-statement timing. */
function statementName(sql: string): string {
  const named: Array<[RegExp, string]> = [
    [/^SELECT status, allow_duplicate_leads/, 'enrolSettingsOf'],
    [/^SELECT audience_filters/, 'campaign audience + queued count'],
    [/account_integrations/, 'provider key (findLeads)'],
    [/^SELECT l\.id, l\.email FROM leads l/, 'findLeads select'],
    [/^START TRANSACTION|^BEGIN/, 'BEGIN'],
    [/pg_advisory_xact_lock/, 'enrolLeads lock'],
    [/^WITH c AS MATERIALIZED/, 'enrolLeads candidates'],
    [/^INSERT INTO campaign_enrolments/, 'enrolLeads insert'],
    [/^COMMIT/, 'COMMIT'],
    [/^SELECT count\(\*\)(::int)? AS n FROM leads|FROM leads l WHERE l\.account_id = \$1 AND/, 'countAudience'],
    [/lead_enrichment/, 'claimEnrichmentCosts'],
    [/FROM campaign_enrolments/, 'activeCount'],
    [/^UPDATE campaigns SET audience_matched/, 'recordAudienceCount'],
  ];
  return named.find(([re]) => re.test(sql))?.[1] ?? sql.slice(0, 34).replace(/\s+/g, ' ');
}

/** The bare enrolment: every id of the chunk queued, no checks (what the issue compares with). */
const BARE_ENROL_SQL = `INSERT INTO campaign_enrolments (campaign_id, lead_id, account_id, state, step, next_send_day, source, company_domain)
  SELECT $1, l.id, l.account_id, 'queued', -1, NULL, 'manual', COALESCE(lower(l.company_domain), split_part(l.email, '@', 2))
  FROM unnest($3::text[]) AS c(id) JOIN leads l ON l.id = c.id AND l.account_id = $2
  ON CONFLICT (campaign_id, lead_id) DO NOTHING`;

/**
 * The bare plan: the day's first leads queued in one statement, reachable (findLeads' conditions)
 * and not enrolled here yet, oldest first; like the bare enrolment it makes none of enrolLeads'
 * checks (blocklist, verification, the user's mark, another campaign) and writes no skipped rows.
 */
const BARE_PLAN_SQL = `INSERT INTO campaign_enrolments (campaign_id, lead_id, account_id, state, step, next_send_day, source, company_domain)
  SELECT $1, l.id, l.account_id, 'queued', -1, $4::date, 'audience', COALESCE(lower(l.company_domain), split_part(l.email, '@', 2))
  FROM leads l
  WHERE l.account_id = $2 AND l.bounced_at IS NULL AND l.unsubscribed_at IS NULL AND l.erased_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email)
    AND NOT EXISTS (SELECT 1 FROM campaign_enrolments ce WHERE ce.campaign_id = $1 AND ce.lead_id = l.id)
  ORDER BY l.created_at, l.email LIMIT $3
  RETURNING lead_id`;

export const enrolScenario: Scenario = {
  name: 'enrol',
  description: 'enrolling 50k leads (enrolLeads, 1,000 a call) and planning a first day (planEnrolments) vs bare INSERT ... SELECT',
  async run(ctx) {
    const leadCount = intFromEnv('BENCH_ENROL_LEADS', 50_000, 2_000, 500_000);
    const rounds = intFromEnv('BENCH_ENROL_ROUNDS', 3, 1, 20);
    const plans = intFromEnv('BENCH_ENROL_PLANS', 100, 10, 10_000);
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
    const template = findTemplate(TEMPLATE);
    if (template === undefined) throw new Error(`no template ${TEMPLATE}`);
    const wanted = template.newLeadsPerDay;
    // The API role's and worker's pool (DATABASE_POOL_MAX), as enrolLeads and planEnrolments have it.
    const sequelize = createSequelize({ url: db.url, poolMax: config.databasePoolMax });
    const bare = new pg.Pool({ connectionString: db.url, max: 2 });
    const notes: string[] = [];
    try {
      // ---- setup: account, leads (the import's insert path), a few of each reason to skip
      const setup0 = performance.now();
      const { account } = await new AccountService(db.sequelize).createAccount('Bench Enrol', 'pro');
      const leads = leadsOf(leadCount, 20261129);
      for (let i = 0; i < leads.length; i += MAX_ROWS_PER_STATEMENT * 5) {
        const chunk = leads.slice(i, i + MAX_ROWS_PER_STATEMENT * 5);
        await db.sequelize.transaction(async (tx) => {
          for (let j = 0; j < chunk.length; j += MAX_ROWS_PER_STATEMENT) await insertNewLeads(db.sequelize, tx, account.id, 'import', chunk.slice(j, j + MAX_ROWS_PER_STATEMENT));
        });
      }
      const insertS = (performance.now() - setup0) / 1000;
      const q = (sql: string, bind: unknown[] = [account.id]) => db.sequelize.query(sql, { bind });
      await q(`UPDATE leads SET bounced_at = now() WHERE account_id = $1 AND (hashtext(id) % 200) = 7`);
      await q(`UPDATE leads SET verification = CASE WHEN (hashtext(id) % 100) = 3 THEN 'invalid' WHEN (hashtext(id) % 100) = 4 THEN 'risky' ELSE 'valid' END, verified_at = now() WHERE account_id = $1`);
      await q(`UPDATE leads SET user_status = 'not_interested' WHERE account_id = $1 AND (hashtext(id) % 400) = 9`);
      await q(`INSERT INTO suppressions (account_id, email, reason) SELECT account_id, email, 'manual' FROM leads WHERE account_id = $1 AND (hashtext(email) % 100) = 5 ON CONFLICT DO NOTHING`);
      // 1% of the companies blocked by domain (covering their subdomains), and 0.5% of addresses.
      await q(`INSERT INTO blocklist_entries (account_id, kind, value, source) SELECT $1, 'domain', 'company' || n || '.example', 'user' FROM generate_series(0, 11999, 100) AS n ON CONFLICT DO NOTHING`);
      await q(`INSERT INTO blocklist_entries (account_id, kind, value, source) SELECT account_id, 'address', lower(email), 'import' FROM leads WHERE account_id = $1 AND (hashtext(email) % 200) = 17 ON CONFLICT DO NOTHING`);
      await db.sequelize.query('ANALYZE leads; ANALYZE suppressions; ANALYZE blocklist_entries');
      const ids = (
        await db.sequelize.query<{ id: string }>('SELECT id FROM leads WHERE account_id = $1 ORDER BY created_at, email', { bind: [account.id], type: QueryTypes.SELECT })
      ).map((r) => r.id);
      const chunks: string[][] = [];
      for (let i = 0; i < ids.length; i += CHUNK) chunks.push(ids.slice(i, i + CHUNK));
      const setupS = (performance.now() - setup0) / 1000;

      const newCampaign = async (name: string): Promise<string> => {
        const id = newId('cmp');
        await db.sequelize.query(
          `INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url, status) VALUES ($1, $2, 'a', $3, $4, 'https://product.example', 'running')`,
          { bind: [id, account.id, name, TEMPLATE] },
        );
        return id;
      };
      const settingsOf = (campaignId: string): EnrolSettings => ({ campaignId, accountId: account.id, allowDuplicateLeads: false, skipRiskyLeads: false });
      const reset = () => db.sequelize.query('TRUNCATE campaign_enrolments');
      const rowCount = async (campaignId: string) =>
        (await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM campaign_enrolments WHERE campaign_id = $1', { bind: [campaignId], type: QueryTypes.SELECT }))[0]?.n ?? 0;

      // ---- the three ways of enrolling 50,000 ids, 1,000 a call, each call its own transaction
      const oursEnrol = (campaignId: string) => {
        let i = 0;
        const skipped: Record<string, number> = {};
        let queued = 0;
        return {
          skipped,
          queued: () => queued,
          once: async () => {
            const r = await enrolLeads(sequelize, settingsOf(campaignId), chunks[i++]!, { source: 'manual', day: null, retake: true });
            queued += r.queued.length;
            for (const [k, v] of Object.entries(r.skipped)) skipped[k] = (skipped[k] ?? 0) + v;
            if (r.unknown.length > 0 || r.alreadyEnrolled.length > 0) throw new Error(`enrolLeads: ${r.unknown.length} unknown, ${r.alreadyEnrolled.length} already enrolled`);
          },
        };
      };
      const bareEnrol = (campaignId: string) => {
        let i = 0;
        return {
          once: async () => {
            const c = await bare.connect();
            try {
              await c.query('BEGIN');
              await c.query(BARE_ENROL_SQL, [campaignId, account.id, chunks[i++]!]);
              await c.query('COMMIT');
            } catch (err) {
              await c.query('ROLLBACK').catch(() => undefined);
              throw err;
            } finally {
              c.release();
            }
          },
        };
      };

      const ours = emptySample();
      const raw = emptySample();
      let oursSkipped: Record<string, number> = {};
      let oursQueued = 0;
      for (let round = 0; round < rounds; round++) {
        // Taking turns first, so a burst of other work on the shared cores is not always on one row.
        const order = round % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
        for (const which of order) {
          await reset();
          const campaignId = await newCampaign(`Enrol bench ${which} ${round}`);
          if (which === 'ours') {
            const run = oursEnrol(campaignId);
            await timedBlock(ours, chunks.length, run.once, selfCpuMs, pgPid);
            oursSkipped = run.skipped;
            oursQueued = run.queued();
          } else {
            await timedBlock(raw, chunks.length, bareEnrol(campaignId).once, selfCpuMs, pgPid);
          }
          const n = await rowCount(campaignId);
          if (n !== ids.length) throw new Error(`${which}: ${n} enrolment rows for ${ids.length} leads`);
        }
      }

      // ---- where enrolLeads' time goes: its candidate statement on the last chunk, after 49 chunks enrolled
      await reset();
      const probeCampaign = await newCampaign('Enrol bench explain');
      const probe = oursEnrol(probeCampaign);
      for (let i = 0; i < chunks.length - 1; i++) await probe.once();
      const candidatesSql = await capturedCandidatesSql(db.url, settingsOf(probeCampaign), chunks[chunks.length - 1]!);
      // A diagnostic: a failure here is reported, not fatal to the figures above.
      const plan = await explain(db.sequelize, candidatesSql.sql, candidatesSql.bind).catch((err: unknown) => [`    (EXPLAIN failed: ${(err as Error).message})`]);

      // ---- the overlap case (diagnostic): a second campaign enrolling the same 50,000 while the first holds them
      let overlapLine: string | undefined;
      if (ctx.settings.diagnostics) {
        for (let i = chunks.length - 1; i < chunks.length; i++) await probe.once();
        const second = await newCampaign('Enrol bench overlap');
        const s = emptySample();
        const run = oursEnrol(second);
        await timedBlock(s, chunks.length, run.once, selfCpuMs, pgPid);
        overlapLine = `overlap (diagnostic): a second campaign enrolling the same ${ids.length} while the first holds them: ${rate(ids.length, s).toFixed(0)} leads/s, chunk p50 ${pct(s, 50)} ms, skipped ${JSON.stringify(run.skipped)}`;
      }

      // ---- planning a fresh campaign's first day: planEnrolments against one INSERT ... SELECT
      await reset();
      await db.sequelize.query('VACUUM ANALYZE campaign_enrolments');
      const day = new Date().toISOString().slice(0, 10);
      const deps: LeadDeps = { sequelize, config };
      const planCampaign = await newCampaign('Plan bench ours');
      const bareCampaign = await newCampaign('Plan bench bare');
      // Both campaigns' rows go before each plan: the other's queued leads would be "in another campaign".
      const clear = () => db.sequelize.query('DELETE FROM campaign_enrolments');
      const oursPlan = async () => {
        const r = await planEnrolments(deps, { campaignId: planCampaign, accountId: account.id, day, wanted }, 'bench-enrol');
        if (r.enrolled !== wanted) throw new Error(`planEnrolments queued ${r.enrolled}, wanted ${wanted}`);
      };
      const barePlan = async () => {
        const r = await bare.query(BARE_PLAN_SQL, [bareCampaign, account.id, wanted, day]);
        if (r.rowCount !== wanted) throw new Error(`bare plan queued ${r.rowCount}, wanted ${wanted}`);
      };
      const queuedOf = async (c: string) =>
        (await db.sequelize.query<{ lead_id: string }>(`SELECT lead_id FROM campaign_enrolments WHERE campaign_id = $1 AND state = 'queued' ORDER BY lead_id`, { bind: [c], type: QueryTypes.SELECT }))
          .map((r) => r.lead_id)
          .join(',');
      // Both must queue the same leads, or the comparison is void.
      await oursPlan();
      const oursQueuedIds = await queuedOf(planCampaign);
      const firstSkipped = await db.sequelize.query<{ reason: string; n: number }>(
        `SELECT reason, count(*)::int AS n FROM campaign_enrolments WHERE campaign_id = $1 AND state = 'skipped' GROUP BY reason ORDER BY reason`,
        { bind: [planCampaign], type: QueryTypes.SELECT },
      );
      await clear();
      await barePlan();
      // The bare plan makes no checks: the leads enrolLeads skipped it queues instead.
      const bareQueuedIds = await queuedOf(bareCampaign);
      const sameLeads = oursQueuedIds === bareQueuedIds;
      // Each plan starts from an empty table (the DELETE before it is not timed): a fresh campaign's first day.
      const timedPlans = async (sample: TimedSample | null, n: number, once: () => Promise<void>) => {
        for (let i = 0; i < n; i++) {
          await clear();
          const cpu0 = selfCpuMs();
          const t0 = performance.now();
          await once();
          const t = performance.now() - t0;
          if (sample === null) continue;
          sample.latencies.push(t);
          sample.wallMs += t;
          sample.cpuMs += selfCpuMs() - cpu0;
        }
      };
      await timedPlans(null, 10, oursPlan);
      await timedPlans(null, 10, barePlan);
      const oursP = emptySample();
      const rawP = emptySample();
      for (let i = 0; oursP.latencies.length < plans; i++) {
        const n = Math.min(PLAN_BLOCK, plans - oursP.latencies.length);
        if (i % 2 === 0) {
          await timedPlans(oursP, n, oursPlan);
          await timedPlans(rawP, n, barePlan);
        } else {
          await timedPlans(rawP, n, barePlan);
          await timedPlans(oursP, n, oursPlan);
        }
      }

      // ---- where a plan's time goes: each statement of 20 plans (Sequelize's timing, 1 ms resolution)
      const logged: Array<{ sql: string; ms: number }> = [];
      const traced = new SequelizeCtor(db.url, {
        dialect: 'postgres',
        pool: { max: config.databasePoolMax, min: 0 },
        benchmark: true,
        logging: (sql: string, timing?: number) => logged.push({ sql: sql.replace(/^Execut(?:ed|ing) \([^)]*\): /, '').trim(), ms: timing ?? 0 }),
      });
      const byStatement = new Map<string, number[]>();
      try {
        const TRACED = 20;
        for (let i = 0; i < TRACED; i++) {
          await clear();
          logged.length = 0;
          await planEnrolments({ sequelize: traced, config }, { campaignId: planCampaign, accountId: account.id, day, wanted }, 'bench-enrol');
          for (const l of logged) {
            const name = statementName(l.sql);
            byStatement.set(name, [...(byStatement.get(name) ?? []), l.ms]);
          }
        }
      } finally {
        await traced.close().catch(() => undefined);
      }
      const planStatements = [...byStatement].map(([name, ms]) => {
        const sorted = [...ms].sort((x, y) => x - y);
        return `  ${name.padEnd(34)} ${String(ms.length / 20).padStart(3)}x  p50 ${percentile(sorted, 50).toFixed(0)} ms  p95 ${percentile(sorted, 95).toFixed(0)} ms`;
      });

      const sum = (r: Record<string, number>) => Object.values(r).reduce((x, y) => x + y, 0);
      notes.push(
        `setup: ${ids.length} leads (insertNewLeads in ${insertS.toFixed(1)} s, ${setupS.toFixed(1)} s with the rest: bounced, suppressed, blocklisted, invalid/risky, marked)`,
        `enrol: ${chunks.length} calls of ${CHUNK} ids per run, each its own transaction, from an empty campaign_enrolments; ${rounds} runs of each, taking turns first`,
        `  ours = enrolLeads (source manual, retake): advisory lock, the candidate statement (checks), verdicts in JS, INSERT ... jsonb_to_recordset`,
        `  bare = INSERT INTO campaign_enrolments ... SELECT FROM unnest(ids) JOIN leads, every id queued, no checks (pg.Pool)`,
        `  ours queued ${oursQueued}, skipped ${sum(oursSkipped)} ${JSON.stringify(oursSkipped)}; bare queued ${ids.length}`,
        `  per call (1,000 ids): ours p50 ${pct(ours, 50)} ms p95 ${pct(ours, 95)} ms; bare p50 ${pct(raw, 50)} ms p95 ${pct(raw, 95)} ms`,
        `  ${ids.length} leads: ours ${((ours.wallMs / rounds) / 1000).toFixed(2)} s, bare ${((raw.wallMs / rounds) / 1000).toFixed(2)} s per run (mean)`,
        `plan: planEnrolments(wanted ${wanted} = ${TEMPLATE}.newLeadsPerDay) on a campaign with no enrolments (its rows deleted before each plan, untimed), ${plans} of each in blocks of ${PLAN_BLOCK}`,
        `  ours = settings, queue count, findLeads, enrolLeads, audience count + enrichment claim + active count, the count's UPDATE; bare = one INSERT ... SELECT ... LIMIT ${wanted} of reachable leads, no checks`,
        `  both queued ${wanted} leads, ${sameLeads ? 'the same ones' : 'not the same ones (the bare plan does not skip)'}; ours also wrote skipped rows: ${firstSkipped.map((r) => `${r.reason} ${r.n}`).join(', ') || 'none'}`,
        `  per plan: ours p50 ${pct(oursP, 50)} ms p95 ${pct(oursP, 95)} ms; bare p50 ${pct(rawP, 50)} ms p95 ${pct(rawP, 95)} ms`,
        `rows: req/s = leads/s (enrol) and plans/s (plan); latency columns = one call (1,000 ids) or one plan; CPU per lead (enrol) or per plan (plan, PostgreSQL's left out: the untimed DELETEs run between plans)`,
        `statements of one plan (20 traced plans, each statement's time; parallel ones overlap):`,
        ...planStatements,
        ...(overlapLine === undefined ? [] : [overlapLine]),
        `EXPLAIN ANALYZE of enrolLeads' candidate statement, the 50th chunk (49,000 enrolled before it):`,
        ...plan,
      );
      return {
        measurements: [rowOf('enrol-ours', ours, CHUNK), rowOf('enrol-bare', raw, CHUNK), rowOf('plan-ours', oursP, 1, false), rowOf('plan-bare', rawP, 1, false)],
        ratios: [
          { numerator: 'enrol-ours', denominator: 'enrol-bare', target: 0.5 },
          { numerator: 'plan-ours', denominator: 'plan-bare', target: 0.5 },
        ],
        notes,
      };
    } finally {
      await sequelize.close().catch(() => undefined);
      await bare.end().catch(() => undefined);
    }
  },
};

/**
 * The candidate statement enrolLeads runs for `ids`, as sent (text and bind values), caught from
 * a logging Sequelize of its own in a transaction that is rolled back, so nothing is written.
 */
async function capturedCandidatesSql(url: string, settings: EnrolSettings, ids: readonly string[]): Promise<{ sql: string; bind: unknown[] }> {
  let found: { sql: string; bind: unknown[] } | undefined;
  const traced = new SequelizeCtor(url, {
    dialect: 'postgres',
    pool: { max: 1, min: 0 },
    logging: (sql: string, options?: unknown) => {
      const text = sql.replace(/^Execut(?:ed|ing) \([^)]*\): /, '').trim();
      if (found === undefined && text.includes('WITH ORDINALITY')) found = { sql: text, bind: (options as { bind?: unknown[] } | undefined)?.bind ?? [] };
    },
  });
  try {
    await traced
      .transaction(async (tx) => {
        await enrolLeads(traced, settings, ids, { source: 'manual', day: null, retake: true }, tx);
        throw new Error('rollback');
      })
      .catch((err: unknown) => {
        if ((err as Error).message !== 'rollback') throw err;
      });
  } finally {
    await traced.close().catch(() => undefined);
  }
  if (found === undefined) throw new Error('the candidate statement was not seen');
  return found;
}
