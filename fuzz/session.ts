/**
 * The fuzz run proper, started by fuzz/run.ts (inside the fuzz network namespace unless
 * FUZZ_ISOLATION=none): the service on a fresh DATA_DIR, two seeded accounts, then the phases of
 * FUZZ_PHASES (phases.ts): the mutation run (`fuzz mutations: N cases ...`) and schemathesis
 * against /openapi.json (`fuzz: N requests, F failures`). Exits 0 only with no failure and enough
 * cases in each phase.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeProviders, type FakeProviders } from './fake-providers';
import { bringLoopbackUp } from './isolation';
import { mutationVerdict, runMutationPhase, type MutationPhase } from './mutation-phase';
import type { OpenApiDocument } from './operations';
import { mutationSettingsFromEnv, phasesFromEnv } from './phases';
import { runSchemathesis, schemathesisConfig, settingsFromEnv } from './schemathesis';
import { seed } from './seed';
import { startService, type FuzzService } from './service';
import { parseSummary } from './summary';
import { serverErrorsIn } from './service-log';

/** The issue's bar: at least this many generated requests in one run. */
const MIN_REQUESTS = 2000;

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function main(): Promise<number> {
  const python = process.env['FUZZ_PYTHON_BIN'];
  const schemathesis = process.env['FUZZ_SCHEMATHESIS_BIN'];
  const phases = phasesFromEnv();
  if (!python || (phases.includes('schemathesis') && !schemathesis)) throw new Error('fuzz/session.ts is started by fuzz/run.ts (npm run fuzz)');
  if (process.env['FUZZ_IN_NETNS'] === '1') bringLoopbackUp(python);
  const settings = settingsFromEnv();
  const mutationSettings = mutationSettingsFromEnv();

  const abort = new AbortController();
  let service: FuzzService | undefined;
  // Ctrl-C arrives more than once (from the terminal, and relayed by run.ts and tsx): every one is
  // handled, so none falls through to the default handler and kills us before the cleanup.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (abort.signal.aborted) return;
    out(`fuzz: ${signal}, stopping`);
    abort.abort();
    void service?.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const workDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'outreach-fuzz-'));
  await fs.promises.chmod(workDir, 0o755); // run as root, the embedded cluster is the `postgres` user's: it must reach data/
  const reportDir = path.join(workDir, 'report');
  await fs.promises.mkdir(reportDir);
  let ok = false;
  let providers: FakeProviders | undefined;
  const started = Date.now();
  try {
    out(`fuzz: starting the service in ${workDir}`);
    providers = await startFakeProviders();
    service = await startService(path.join(workDir, 'data'), path.join(reportDir, 'service.log'), providers);
    if (abort.signal.aborted) return 130;
    const doc = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as OpenApiDocument;
    const seeded = await seed(service.baseUrl, service.env, doc.paths['/v1/campaigns']?.['post'] !== undefined);
    out(`fuzz: service ready at ${service.baseUrl} after ${((Date.now() - started) / 1000).toFixed(0)} s; phases: ${phases.join(', ')}`);
    const problems: string[] = [];

    // First, on the freshly seeded service: its cases are then the same for the same seed.
    let mutations: MutationPhase | undefined;
    if (phases.includes('mutations')) {
      mutations = await runMutationPhase({ baseUrl: service.baseUrl, doc, seed: seeded, settings: mutationSettings, abort: abort.signal, out });
      if (abort.signal.aborted) return 130;
    }

    if (phases.includes('schemathesis') && schemathesis) {
      const configFile = path.join(reportDir, 'schemathesis.toml');
      await fs.promises.writeFile(configFile, schemathesisConfig(seeded));
      out(`fuzz: running schemathesis (seed ${settings.seed}, ${settings.maxExamples} examples per operation)`);
      const run = await runSchemathesis({
        executable: schemathesis,
        baseUrl: service.baseUrl,
        apiKey: seeded.apiKey,
        inboundSecret: service.inboundSecret,
        configFile,
        reportDir,
        settings,
        onOutput: (chunk) => process.stdout.write(chunk),
        abort: abort.signal,
      });
      if (abort.signal.aborted) return 130;
      const summary = parseSummary(run.output);
      const requests = summary?.requests ?? 0;
      const failures = summary?.failures ?? 0;
      out('');
      out(`fuzz: ${requests} requests, ${failures} failures (${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
      if (run.timedOut) problems.push(`schemathesis did not finish within ${settings.timeoutMs / 60_000} minutes`);
      if (summary === undefined) problems.push(`schemathesis printed no summary (exit ${run.exitCode})`);
      if (failures > 0) problems.push(`${failures} failures: see above`);
      if (summary !== undefined && requests < MIN_REQUESTS) problems.push(`fewer than ${MIN_REQUESTS} requests: raise FUZZ_MAX_EXAMPLES`);
      if (summary !== undefined && failures === 0 && run.exitCode !== 0) problems.push(`schemathesis exited ${run.exitCode}`);
    }

    const me = await fetch(`${service.baseUrl}/v1/me`, { headers: { 'X-API-Key': seeded.apiKey } });
    if (me.status !== 200) problems.push(`the fuzzer's own key stopped working (GET /v1/me answered ${me.status}): the run after that point tested little`);
    // The log is read once the service has stopped: its lines are written asynchronously, in blocks.
    const baseUrl = service.baseUrl;
    await service.stop();
    const serviceLog = await fs.promises.readFile(service.logFile, 'utf8');
    if (mutations) {
      const verdict = mutationVerdict(mutations, { settings: mutationSettings, serviceLog, reportDir, baseUrl, apiKey: seeded.apiKey });
      out('');
      for (const line of verdict.lines) out(line);
      problems.push(...verdict.problems);
    }
    const serverErrors = serverErrorsIn(serviceLog);
    if (serverErrors.length > 0) problems.push(`the service logged ${serverErrors.length} unhandled errors:\n${serverErrors.slice(0, 10).map((e) => `  - ${e}`).join('\n')}`);
    for (const p of problems) out(`fuzz: FAILED: ${p}`);
    ok = problems.length === 0;
    if (ok) out(`fuzz: passed (${phases.join(' and ')}; ${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
    return ok ? 0 : 1;
  } finally {
    await service?.stop();
    await providers?.close();
    if (ok) {
      await fs.promises.rm(workDir, { recursive: true, force: true });
    } else {
      // Keep what explains the failure (reports, the service's log), not the database.
      await fs.promises.rm(path.join(workDir, 'data'), { recursive: true, force: true });
      out(`fuzz: reports and the service log are in ${reportDir}`);
    }
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fuzz: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
