import { expect } from 'chai';
import { ESLint } from 'eslint';
import path from 'node:path';

/**
 * The lint rules that keep workflows deterministic and promises awaited, checked by linting small
 * sources as if they were project files.
 */
describe('lint rules', function () {
  this.timeout(120_000);
  const root = path.join(__dirname, '..', '..');
  const eslint = new ESLint({ cwd: root });

  async function ruleIds(code: string, file: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
  }

  it('workflow code may not import Node built-ins, other packages or activity implementations', async () => {
    const file = 'workflows/campaign/calendar.ts';
    for (const line of [
      `import fs from 'node:fs';`,
      `import { randomUUID } from 'crypto';`,
      `import { Client } from '@temporalio/client';`,
      `import pg from 'pg';`,
      `import { createActivities } from '../../activities';`,
      `import { loadConfig } from '../../src/config/config';`,
    ]) {
      const messages = await ruleIds(`${line}\nexport const used = [${line.match(/import (?:\{ )?(\w+)/)?.[1]}];\n`, file);
      expect(messages.some((m) => m.startsWith('no-restricted-imports')), line).to.equal(true);
    }
  });

  it('workflow code may import @temporalio/workflow, sibling modules and types from anywhere', async () => {
    const code = [
      `import { sleep } from '@temporalio/workflow';`,
      `import { DAY_MS } from './calendar';`,
      `import type { CampaignActivities } from '../../activities';`,
      `export type A = CampaignActivities;`,
      `export async function f(): Promise<void> { await sleep(DAY_MS); }`,
    ].join('\n');
    expect(await ruleIds(code, 'workflows/campaign/calendar.ts')).to.deep.equal([]);
  });

  it('a floating promise is an error', async () => {
    const code = `async function g(): Promise<void> {}\nexport function f(): void { g(); }\n`;
    const messages = await ruleIds(code, 'src/config/plans.ts');
    expect(messages.some((m) => m.startsWith('@typescript-eslint/no-floating-promises'))).to.equal(true);
  });
});
