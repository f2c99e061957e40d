import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface RunAs {
  readonly uid?: number;
  readonly gid?: number;
}

/**
 * PostgreSQL refuses to run as root. When we are root (containers, CI machines) the cluster runs
 * as the `postgres` system user, created if missing; otherwise it runs as the current user.
 */
export function postgresRunAs(): RunAs {
  if (os.userInfo().uid !== 0) return {};
  const ids = lookup();
  if (ids) return ids;
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { stdio: 'ignore' });
  } catch {
    // Fall through: lookup below reports the problem with a clear message.
  }
  const created = lookup();
  if (!created) throw new Error('Running as root and no `postgres` user exists (and `useradd` failed): create one, or run as a normal user.');
  return created;
}

function lookup(): RunAs | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}
