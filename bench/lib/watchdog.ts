import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Plain JavaScript (no tsx: it must start fast and depend on nothing). Holds an IPC channel to the
 * bench; when the channel drops without a "done" message, the bench died (the tsx CLI SIGKILLs a
 * child that is slow to acknowledge Ctrl-C; anything can crash): it stops the embedded PostgreSQL
 * of the run's directory (found through postmaster.pid, so also while it was still starting) and
 * removes the directory. Server children need no help: they exit when their own channel drops.
 */
const WATCHDOG_SOURCE = `
const fs = require('node:fs');
const path = require('node:path');
const [dir, keep] = [process.argv[1], process.argv[2] === 'keep'];
let done = false;
process.on('SIGINT', () => undefined); // own process group anyway; the bench decides
process.on('message', (m) => { if (m && m.type === 'done') done = true; });
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function stop(pid, signal, ms) {
  try { process.kill(pid, signal); } catch { return true; }
  for (let waited = 0; waited < ms; waited += 100) { if (!alive(pid)) return true; await sleep(100); }
  return !alive(pid);
}
process.on('disconnect', async () => {
  if (done) process.exit(0);
  let pid;
  try { pid = Number(fs.readFileSync(path.join(dir, 'pg', 'postgres', 'postmaster.pid'), 'utf8').split('\\n')[0]); } catch {}
  if (pid > 0 && alive(pid)) {
    if (!(await stop(pid, 'SIGINT', 15000))) await stop(pid, 'SIGQUIT', 5000);
    process.stderr.write('bench watchdog: the bench exited early; stopped its PostgreSQL (pid ' + pid + ')\\n');
  }
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
`;

export class Watchdog {
  private constructor(private readonly child: ChildProcess) {}

  /** Starts the watchdog for a run directory; it never keeps this process alive. */
  static start(dir: string, keep: boolean): Watchdog {
    const child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, dir, keep ? 'keep' : 'remove'], {
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.unref();
    child.channel?.unref();
    return new Watchdog(child);
  }

  /** The bench cleaned up itself: the watchdog exits without doing anything. */
  release(): void {
    if (!this.child.connected) return;
    this.child.send({ type: 'done' }, () => {
      if (this.child.connected) this.child.disconnect();
    });
  }
}
