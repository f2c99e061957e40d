import { expect } from 'chai';
import { ESLint } from 'eslint';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The lint rules that keep workflows deterministic, promises awaited and the import graph in shape,
 * checked by linting small sources as if they were project files. Import cycles through type-only
 * imports, which import-x/no-cycle never follows, are checked here on the whole project with
 * dependency-cruiser.
 */
describe('lint rules', function () {
  this.timeout(120_000);
  const root = path.join(__dirname, '..', '..');
  const eslint = new ESLint({ cwd: root });

  async function ruleIds(code: string, file: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
  }

  /** The first .ts file under `dir` (repository-relative), searched depth first in name order. */
  function someTsFile(dir: string): string {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(path.join(root, rel)).isDirectory()) {
        try {
          return someTsFile(rel);
        } catch {
          continue;
        }
      }
      if (name.endsWith('.ts')) return rel;
    }
    throw new Error(`no .ts file under ${dir}`);
  }

  /** The import specifier that leads from `file` to `target` (both repository-relative). */
  function specifier(file: string, target: string): string {
    const rel = path.relative(path.dirname(file), target.replace(/\.ts$/, '')).split(path.sep).join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  }

  describe('workflows', () => {
    it('workflow code may not import Node built-ins, other packages or activity implementations', async () => {
      const file = 'workflows/campaign/contract.ts';
      for (const line of [
        `import fs from 'node:fs';`,
        `import { randomUUID } from 'crypto';`,
        `import { Client } from '@temporalio/client';`,
        `import pg from 'pg';`,
        `import { createActivities } from '../../activities';`,
        `import { createActivities } from './../../activities';`,
        `import { loadConfig } from '../../src/config/config';`,
        `import { planLeads } from '../../src/campaigns/planning/plan-leads';`,
      ]) {
        const messages = await ruleIds(`${line}\nexport const used = [${line.match(/import (?:\{ )?(\w+)/)?.[1]}];\n`, file);
        expect(messages.some((m) => m.startsWith('no-restricted-imports')), line).to.equal(true);
      }
      // A file right under workflows/ is one step from the root.
      const top = await ruleIds(`import { createActivities } from '../activities';\nexport const used = [createActivities];\n`, 'workflows/index.ts');
      expect(top.some((m) => m.startsWith('no-restricted-imports'))).to.equal(true);
    });

    it('workflow code may import @temporalio/workflow, its own modules, the campaign model and types from anywhere', async () => {
      const code = [
        `import { sleep } from '@temporalio/workflow';`,
        // Modules of workflows/, whatever their names: `./activities` here is not the activities/ folder.
        `import { proxies } from './activities';`,
        `import { RETRY_LADDER_MS } from '../webhooks/contract';`,
        `import { DAY_MS } from '../../src/campaigns/model/calendar';`,
        `import type { Activities } from '../../activities';`,
        `import type { Config } from '../../src/config/config';`,
        `export type A = [Activities, Config];`,
        `export const used = [proxies, RETRY_LADDER_MS];`,
        `export async function f(): Promise<void> { await sleep(DAY_MS); }`,
      ].join('\n');
      // Whether the sibling imports close a cycle depends on those files; this test is about the
      // workflow import rules.
      const messages = (await ruleIds(code, 'workflows/campaign/contract.ts')).filter((m) => !m.startsWith('import-x/no-cycle'));
      expect(messages).to.deep.equal([]);
    });

    it('the campaign model imports only its own modules', async () => {
      const file = 'src/campaigns/model/calendar.ts';
      for (const line of [`import pg from 'pg';`, `import { randomUUID } from 'node:crypto';`, `import { loadConfig } from '../../config/config';`]) {
        const messages = await ruleIds(`${line}\nexport const used = [${line.match(/import (?:\{ )?(\w+)/)?.[1]}];\n`, file);
        expect(messages.some((m) => m.startsWith('no-restricted-imports')), line).to.equal(true);
      }
    });
  });

  it('a floating promise is an error', async () => {
    const code = `async function g(): Promise<void> {}\nexport function f(): void { g(); }\n`;
    const messages = await ruleIds(code, 'src/config/plans.ts');
    expect(messages.some((m) => m.startsWith('@typescript-eslint/no-floating-promises'))).to.equal(true);
  });

  describe('the HTTP layer (src/api) is imported only where the service is wired up', () => {
    const zone = (messages: string[]) => messages.filter((m) => m.startsWith('import-x/no-restricted-paths'));

    async function importApi(file: string, kind: 'value' | 'type'): Promise<string[]> {
      const from = specifier(file, someTsFile('src/api'));
      const code =
        kind === 'value' ? `import * as api from '${from}';\nexport const used = api;\n` : `import type * as api from '${from}';\nexport type Used = typeof api;\n`;
      return ruleIds(code, file);
    }

    it('a module of src/ outside src/api, src/entry and src/runtime may not import it, not even its types', async () => {
      const file = someTsFile('src/leads');
      expect(zone(await importApi(file, 'value')), file).to.have.length(1);
      expect(zone(await importApi(file, 'type')), file).to.have.length(1);
    });

    it('activities may not import it', async () => {
      const file = someTsFile('activities');
      expect(zone(await importApi(file, 'value')), file).to.have.length(1);
    });

    it('src/entry, src/runtime and src/api itself may', async () => {
      for (const dir of ['src/entry', 'src/runtime', 'src/api']) {
        const file = someTsFile(dir);
        expect(zone(await importApi(file, 'value')), file).to.deep.equal([]);
      }
    });
  });

  describe('import cycles', () => {
    // Fixture modules in a folder of the project (tsconfig's `test`), so that they are linted and
    // resolved like the project's own; removed afterwards. The project-wide check leaves out every
    // such folder (another run's may be there for a moment).
    const fixturePrefix = 'test/unit/lint-cycle-fixture-';
    const fixtureDir = `${fixturePrefix}${process.pid}`;
    const fixtures: Record<string, string> = {
      'value-a.ts': `import { b } from './value-b';\nexport const a = (): number => b + 1;\n`,
      'value-b.ts': `import { a } from './value-a';\nexport const b = 1;\nexport const twice = (): number => 2 * a();\n`,
      'type-a.ts': `import type { B } from './type-b';\nexport interface A { readonly b?: B }\n`,
      'type-b.ts': `import { type A } from './type-a';\nexport interface B { readonly a?: A }\n`,
    };

    before(() => {
      mkdirSync(path.join(root, fixtureDir), { recursive: true });
      for (const [name, code] of Object.entries(fixtures)) writeFileSync(path.join(root, fixtureDir, name), code);
    });

    after(() => {
      rmSync(path.join(root, fixtureDir), { recursive: true, force: true });
    });

    it('a cycle of value imports is an error (import-x/no-cycle)', async () => {
      const [result] = await eslint.lintFiles([`${fixtureDir}/value-a.ts`]);
      const messages = (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
      expect(messages.some((m) => m.startsWith('import-x/no-cycle')), messages.join('\n')).to.equal(true);
    });

    it('a cycle through type-only imports is found (dependency-cruiser)', async () => {
      const found = await importCycles(root, [fixtureDir]);
      expect(found).to.deep.equal([
        `${fixtureDir}/type-a.ts -(type)-> ${fixtureDir}/type-b.ts -(type)-> ${fixtureDir}/type-a.ts`,
        `${fixtureDir}/value-a.ts -> ${fixtureDir}/value-b.ts -> ${fixtureDir}/value-a.ts`,
      ]);
    });

    it('the project has no import cycles, type-only imports included', async () => {
      const found = await importCycles(root, projectDirs(root), [fixturePrefix]);
      expect(found, `import cycles ("-(type)->" is a type-only import):\n${found.join('\n')}\n`).to.deep.equal([]);
    });
  });
});

/** The folders of tsconfig.json's `include`: the project's TypeScript. */
function projectDirs(root: string): string[] {
  const { config, error } = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return (config as { include: string[] }).include;
}

/**
 * Every import cycle among the modules under `dirs`, type-only imports included (dependency-cruiser
 * reads the TypeScript before compilation, where those imports are still there), one line each,
 * starting at its alphabetically first module, sorted. Paths under `excludePrefixes` are left out.
 */
async function importCycles(root: string, dirs: string[], excludePrefixes: string[] = []): Promise<string[]> {
  const { cruise } = await import('dependency-cruiser');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const result = await cruise(
    dirs,
    {
      baseDir: root,
      validate: true,
      ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
      tsPreCompilationDeps: true,
      tsConfig: { fileName: path.join(root, 'tsconfig.json') },
      doNotFollow: { path: ['(^|/)node_modules/'] },
      exclude: { path: ['(^|/)node_modules/', ...excludePrefixes.map((prefix) => `^${escape(prefix)}`)] },
    },
    { extensions: ['.ts', '.js', '.json'] },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned text, not a result');
  const cycles = new Set<string>();
  for (const violation of result.output.summary.violations) {
    if (!violation.cycle) continue;
    // The violation is the edge from -> cycle[0]; cycle runs on to `from` again.
    const edges = violation.cycle.map((step, i) => ({
      from: i === 0 ? violation.from : violation.cycle![i - 1]!.name,
      to: step.name,
      typeOnly: step.dependencyTypes.includes('type-only'),
    }));
    const start = edges.reduce((best, e, i) => (e.from < edges[best]!.from ? i : best), 0);
    const rotated = [...edges.slice(start), ...edges.slice(0, start)];
    cycles.add([rotated[0]!.from, ...rotated.map((e) => `${e.typeOnly ? '-(type)->' : '->'} ${e.to}`)].join(' '));
  }
  return [...cycles].sort();
}
