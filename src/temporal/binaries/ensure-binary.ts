import { randomBytes } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { temporalCacheDir } from './cache-dir';
import { withLock } from './lock';
import { stderrProgress, type ProgressFn } from './progress';

export interface EnsureOptions {
  /** Progress sink; defaults to stderr lines prefixed with `[temporal-setup]`. */
  onProgress?: ProgressFn;
  /** Overrides the cache location (tests); defaults to {@link temporalCacheDir}. */
  cacheDir?: string;
}

/** One way of obtaining the binary, tried in order. */
export interface BinarySource {
  /** Shown in progress and in the final error, e.g. "temporal.download". */
  label: string;
  /** Cache entry directory name; it encodes the version so upgrades never reuse a stale entry. */
  dir: string;
  /** Executable path relative to the entry directory. */
  file: string;
  /**
   * Populates `stagingDir` (a fresh empty directory next to the final one) so that `stagingDir/file` is executable.
   * Anything it leaves there is published atomically with the executable.
   */
  produce(stagingDir: string, onProgress: ProgressFn): Promise<void>;
  /** Set when this source is disabled (e.g. downloads turned off); recorded as the reason it was skipped. */
  skip?: () => string | undefined;
}

export interface BinarySpec {
  /** Human name: "Temporal CLI". */
  what: string;
  /** Env var holding an explicit executable path; always wins. */
  envVar: string;
  /** Name of the lock guarding this binary's cache entries. */
  lockName: string;
  sources: BinarySource[];
  /** What to do when every source failed; appended to the error. */
  remedy: string;
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findCached(cacheDir: string, sources: readonly BinarySource[]): string | undefined {
  for (const source of sources) {
    const candidate = path.join(cacheDir, source.dir, source.file);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Resolution order: env override, then the cache (no network, no lock: must be instant), then each source in turn
 * under a cross-process lock. Every source builds into a private staging directory that is renamed into place only
 * when complete, so a reader never sees a half-written entry and an interrupted build leaves nothing behind that
 * looks valid.
 */
export async function ensureBinary(spec: BinarySpec, opts: EnsureOptions = {}): Promise<string> {
  const override = process.env[spec.envVar];
  if (override) {
    const resolved = path.resolve(override);
    if (!isExecutableFile(resolved)) {
      throw new Error(`${spec.envVar}=${override} does not point to an executable file.`);
    }
    return resolved;
  }

  const cacheDir = opts.cacheDir ?? temporalCacheDir();
  const cached = findCached(cacheDir, spec.sources);
  if (cached) return cached;

  const onProgress = opts.onProgress ?? stderrProgress;
  const lockDir = path.join(cacheDir, `${spec.lockName}.lock`);
  return withLock(
    lockDir,
    async () => {
      // Another process may have finished the job while we waited for the lock.
      const built = findCached(cacheDir, spec.sources);
      if (built) return built;

      onProgress(`${spec.what} not found in ${cacheDir}; obtaining it (first run only)`);
      const failures: string[] = [];
      for (const source of spec.sources) {
        const skipped = source.skip?.();
        if (skipped) {
          failures.push(`${source.label}: ${skipped}`);
          continue;
        }
        const finalDir = path.join(cacheDir, source.dir);
        await removeLeftovers(cacheDir, source.dir);
        const staging = `${finalDir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
        await fs.mkdir(staging, { recursive: true });
        try {
          await source.produce(staging, onProgress);
          if (!isExecutableFile(path.join(staging, source.file))) {
            throw new Error(`${source.file} was not produced`);
          }
          // An incomplete entry (e.g. an interrupted tool writing straight into it) would block the rename.
          await fs.rm(finalDir, { recursive: true, force: true });
          await fs.rename(staging, finalDir);
          const result = path.join(finalDir, source.file);
          onProgress(`${spec.what} ready: ${result}`);
          return result;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          failures.push(`${source.label}: ${message}`);
          onProgress(`${source.label} did not work: ${message.split('\n')[0] ?? ''}`);
        } finally {
          await fs.rm(staging, { recursive: true, force: true });
        }
      }
      throw new Error(
        `Could not obtain the ${spec.what}.\n${failures.map((f) => `  - ${f}`).join('\n')}\n${spec.remedy}`,
      );
    },
    { what: `setting up the ${spec.what}`, onProgress },
  );
}

/** Staging directories of builds that were killed midway; safe to delete because we hold the lock. */
async function removeLeftovers(cacheDir: string, dir: string): Promise<void> {
  const entries = await fs.readdir(cacheDir).catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((e) => e.startsWith(`${dir}.tmp-`))
      .map((e) => fs.rm(path.join(cacheDir, e), { recursive: true, force: true })),
  );
}
