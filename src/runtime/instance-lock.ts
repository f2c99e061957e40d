import fs from 'node:fs/promises';
import path from 'node:path';
import { runningPostmaster } from '../embedded/postgres';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * One `npm start` per DATA_DIR. The lock file holds our pid and the pids of the servers we start;
 * if a previous run died without cleaning up (SIGKILL, power loss), its servers are orphans and
 * are stopped here before we start our own.
 */
export class InstanceLock {
  private readonly file: string;
  private readonly children = new Map<string, number>();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'service.pid');
  }

  async acquire(dataDir: string): Promise<void> {
    await fs.mkdir(dataDir, { recursive: true });
    const previous = await this.read();
    if (previous && previous.pid !== process.pid && alive(previous.pid)) {
      throw new Error(`Another copy of the service (pid ${previous.pid}) is running with DATA_DIR=${dataDir}. Give this copy its own DATA_DIR and PORT.`);
    }
    if (previous) {
      for (const [name, pid] of Object.entries(previous.children)) {
        if (alive(pid)) {
          process.kill(pid, name === 'postgres' ? 'SIGINT' : 'SIGTERM');
          await waitGone(pid, 20_000);
        }
      }
    }
    // A postmaster left by an older crash without a lock record is ours too.
    const orphan = await runningPostmaster(dataDir);
    if (orphan) {
      process.kill(orphan.pid, 'SIGINT');
      await waitGone(orphan.pid, 20_000);
    }
    await this.write();
  }

  async recordChild(name: string, pid: number | undefined): Promise<void> {
    if (pid === undefined) return;
    this.children.set(name, pid);
    await this.write();
  }

  async release(): Promise<void> {
    await fs.rm(this.file, { force: true });
  }

  private async read(): Promise<{ pid: number; children: Record<string, number> } | undefined> {
    try {
      return JSON.parse(await fs.readFile(this.file, 'utf8')) as { pid: number; children: Record<string, number> };
    } catch {
      return undefined;
    }
  }

  private async write(): Promise<void> {
    await fs.writeFile(this.file, JSON.stringify({ pid: process.pid, children: Object.fromEntries(this.children) }));
  }
}

async function waitGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}
