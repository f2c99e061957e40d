import os from 'node:os';
import path from 'node:path';

/**
 * Where the Temporal CLI and the test server are cached.
 *
 * Lives outside the repository on purpose: the artifacts are large, platform specific and shared by every checkout
 * (and by `npm start`, `npm test` and the CLI), so a second checkout or a `git clean` never pays the build again.
 *
 * `OUTREACH_CACHE_DIR` wins (CI caches, read-only homes); otherwise the XDG cache location.
 */
export function temporalCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['OUTREACH_CACHE_DIR'];
  if (explicit) return path.resolve(explicit);
  const xdg = env['XDG_CACHE_HOME'];
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'campaign-outreach', 'temporal');
}
