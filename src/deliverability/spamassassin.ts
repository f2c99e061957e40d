/**
 * SpamAssassin's verdict on a message, where the host has it installed (Debian's `spamassassin`
 * package): `spamassassin -L -t -x`, local rules only (no network tests, no DNS blocklists, no
 * user configuration), as a mail filter would score the message before any reputation counts.
 * Used by the preview (a user sees a problem before the first send) and by the tests and the
 * writer's evaluation. Each run takes a second or two of CPU, so at most two run at once.
 */
import { execFile, spawn } from 'node:child_process';

export interface SpamRule {
  readonly name: string;
  readonly score: number;
  readonly description: string;
}

export interface SpamReport {
  readonly score: number;
  /** The score at which SpamAssassin calls a message spam (5.0 by default). */
  readonly required: number;
  /** The rules that fired, highest score first. */
  readonly rules: readonly SpamRule[];
}

const COMMAND = 'spamassassin';
const TIMEOUT_MS = 30_000;
const MAX_RUNNING = 2;

let available: Promise<boolean> | undefined;

/** Whether the host has SpamAssassin (checked once per process). */
export function spamAssassinAvailable(): Promise<boolean> {
  available ??= new Promise((resolve) => {
    execFile(COMMAND, ['-V'], { timeout: 10_000 }, (err, stdout) => resolve(err === null && /SpamAssassin/i.test(stdout)));
  });
  return available;
}

let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Reads the report `-t` appends ("Content analysis details: (1.2 points, 5.0 required)" and its table). */
export function parseReport(output: string): SpamReport {
  const head = /Content analysis details:\s+\((-?[\d.]+) points, (-?[\d.]+) required\)/.exec(output);
  if (head === null) throw new Error('SpamAssassin printed no report');
  const rules: Array<{ name: string; score: number; description: string }> = [];
  const table = output.slice(head.index).split('\n').slice(1);
  for (const line of table) {
    const row = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s+(.*)$/.exec(line);
    if (row !== null) rules.push({ score: Number(row[1]), name: row[2]!, description: row[3]!.trim() });
    else if (/^\s{20,}\S/.test(line) && rules.length > 0) rules[rules.length - 1]!.description += ` ${line.trim()}`;
    else if (line.trim() === '' && rules.length > 0) break;
  }
  return { score: Number(head[1]), required: Number(head[2]), rules: rules.sort((a, b) => b.score - a.score) };
}

/** Scores one raw message; throws when SpamAssassin is missing, fails or takes too long. */
export function scoreMessage(raw: Buffer): Promise<SpamReport> {
  return slot(
    () =>
      new Promise<SpamReport>((resolve, reject) => {
        const child = spawn(COMMAND, ['-L', '-t', '-x'], { stdio: ['pipe', 'pipe', 'ignore'] });
        const chunks: Buffer[] = [];
        const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
        child.stdout.on('data', (c: Buffer) => chunks.push(c));
        child.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          if (signal !== null) return reject(new Error(`SpamAssassin did not finish within ${TIMEOUT_MS / 1000} s`));
          try {
            resolve(parseReport(Buffer.concat(chunks).toString('utf8')));
          } catch (err) {
            reject(code === 0 ? err : new Error(`SpamAssassin exited with ${code}`));
          }
        });
        child.stdin.on('error', () => undefined);
        child.stdin.end(raw);
      }),
  );
}
