import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * The dashboard's browser tests: Debian's Chromium, headless, through playwright-core; axe-core
 * on each page; screenshots to test-output/screenshots/ and, as the current ones, docs/screenshots/.
 */

export const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(__dirname, '../../..');
const SHOTS = path.join(ROOT, 'test-output/screenshots');
const DOCS_SHOTS = path.join(ROOT, 'docs/screenshots');
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Chromium, or a failure that says how to get it (a browser test must not pass by being skipped). */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium; .ci/run does) to run the dashboard's browser tests`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * axe-core's serious and critical violations on the page as it is now, described. The page's
 * Content-Security-Policy refuses inline script, so axe is evaluated through the DevTools
 * protocol (page.evaluate), which the policy does not govern.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate<{ violations: AxeViolation[]; passes: unknown[] }>('axe.run()');
  expect(result.passes.length, 'axe ran its rules').to.be.greaterThan(10);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** A full-page screenshot as test output and as the current one in docs/screenshots/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await fs.promises.mkdir(SHOTS, { recursive: true });
  await fs.promises.mkdir(DOCS_SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect((await fs.promises.stat(file)).size).to.be.greaterThan(1000);
  await fs.promises.copyFile(file, path.join(DOCS_SHOTS, `${name}.png`));
}

/** Signs in through the form, as a user types the key. */
export async function signInWithKey(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\/campaigns/);
}
