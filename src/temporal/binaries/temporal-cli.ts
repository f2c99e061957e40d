import path from 'node:path';
import { downloadTemporalBinary, temporalSdkVersion } from './download';
import { downloadsDisabled } from './download-switch';
import { ensureBinary, type EnsureOptions } from './ensure-binary';
import type { ProgressFn } from './progress';
import { captureCommand, runCommand } from './run';

/** Version built from source when the download service is unavailable. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
/**
 * The CLI's go.mod asks for Go 1.25; an older go command (>= 1.21) fetches that toolchain by itself through the Go
 * module proxy (GOTOOLCHAIN=auto, the default). 1.23 is the floor we state and check.
 */
const MIN_GO: readonly [number, number] = [1, 23];

const REMEDY =
  'Fix one of:\n' +
  `  - install Go >= ${MIN_GO.join('.')} (https://go.dev/dl/) so the CLI can be built from source (go install ${CLI_MODULE}@${TEMPORAL_CLI_VERSION});\n` +
  '  - or set TEMPORAL_CLI_PATH to an existing `temporal` executable (https://docs.temporal.io/cli);\n' +
  '  - or allow access to https://temporal.download.';

async function buildWithGo(stagingDir: string, onProgress: ProgressFn): Promise<void> {
  const probe = await captureCommand('go', ['version'], { cwd: stagingDir });
  if (!probe) throw new Error('Go is not installed (`go` not found on PATH)');
  const match = /go(\d+)\.(\d+)/.exec(probe.output);
  const [major, minor] = [Number(match?.[1] ?? 0), Number(match?.[2] ?? 0)];
  if (major < MIN_GO[0] || (major === MIN_GO[0] && minor < MIN_GO[1])) {
    throw new Error(`Go is too old (${probe.output.trim()}); need >= ${MIN_GO.join('.')}`);
  }
  onProgress(`building the Temporal CLI ${TEMPORAL_CLI_VERSION} with ${probe.output.trim()}; this takes a few minutes`);
  // Same flags as the official release build (stripped, real version string instead of "0.0.0-DEV");
  // -v lists packages as they compile, so the progress heartbeat shows the latest one.
  const ldflags = `-s -w -X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_CLI_VERSION.replace(/^v/, '')}`;
  await runCommand('go', ['install', '-v', `-ldflags=${ldflags}`, `${CLI_MODULE}@${TEMPORAL_CLI_VERSION}`], {
    label: 'go install temporal CLI',
    onProgress,
    // cwd = staging so that no go.mod / go.work around the caller's cwd can influence the build.
    cwd: stagingDir,
    env: {
      ...process.env,
      GOBIN: stagingDir,
      GOFLAGS: [process.env['GOFLAGS'], '-mod=mod'].filter(Boolean).join(' '),
      GOWORK: 'off',
      // Pure-Go build (the official releases are built the same way): no C toolchain needed on a fresh machine.
      CGO_ENABLED: '0',
    },
  });
}

/**
 * Path to a `temporal` executable (for `temporal server start-dev`). See {@link ensureBinary} for the order:
 * `TEMPORAL_CLI_PATH`, cache, temporal.download (SDK default version), `go install` of {@link TEMPORAL_CLI_VERSION}.
 */
export function ensureTemporalCli(opts: EnsureOptions = {}): Promise<string> {
  const sdkVersion = temporalSdkVersion();
  return ensureBinary(
    {
      what: 'Temporal CLI',
      envVar: 'TEMPORAL_CLI_PATH',
      lockName: 'cli',
      remedy: REMEDY,
      sources: [
        {
          label: 'temporal.download',
          dir: `cli-sdk-typescript-${sdkVersion}`,
          file: 'temporal',
          skip: downloadsDisabled,
          produce: (dir, onProgress) => downloadTemporalBinary('cli', path.join(dir, 'temporal'), onProgress),
        },
        {
          label: `go install (${TEMPORAL_CLI_VERSION})`,
          dir: `cli-${TEMPORAL_CLI_VERSION}`,
          file: 'temporal',
          produce: buildWithGo,
        },
      ],
    },
    opts,
  );
}
