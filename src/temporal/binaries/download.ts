import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startHeartbeat, type ProgressFn } from './progress';
import { extractTarGzEntry } from './tar';

/**
 * Downloads from the Temporal SDK's own distribution service, exactly as the SDK's ephemeral-server launcher does
 * (@temporalio/core-bridge, sdk-core `ephemeral_server`): `GET https://temporal.download/<artifact>/default` with
 * platform/arch/sdk-name/sdk-version returns `{ archiveUrl, fileToExtract }`, and the archive holds one executable.
 *
 * Asking for the SDK's "default" version keeps the binaries matched to the installed SDK, as the SDK itself would.
 */
const DOWNLOAD_BASE = 'https://temporal.download';
/** Reachability budget: an offline or firewalled machine must fall through to the build quickly. */
const PROBE_TIMEOUT_MS = 3_000;
/** Abort a download that stops receiving bytes for this long (a slow link is fine, a dead one is not). */
const STALL_TIMEOUT_MS = 60_000;

export type DownloadArtifact = 'cli' | 'temporal-test-server';

/** temporal.download cannot serve us (offline, unsupported platform, unexpected answer): try the next source. */
export class DownloadUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownloadUnavailableError';
  }
}

/** Version of the installed Temporal SDK; the download service picks binaries compatible with it. */
export function temporalSdkVersion(): string {
  try {
    const require = createRequire(__filename);
    const pkg = require('@temporalio/client/package.json') as { version?: string };
    if (pkg.version) return pkg.version;
  } catch {
    // fall through
  }
  return '1.24.0';
}

function platformParams(): { platform: string; arch: string } {
  const platform = ({ linux: 'linux', darwin: 'darwin' } as Record<string, string>)[process.platform];
  const arch = ({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[process.arch];
  if (!platform || !arch) {
    throw new DownloadUnavailableError(`no prebuilt binaries for ${process.platform}/${process.arch}`);
  }
  return { platform, arch };
}

interface DownloadInfo {
  archiveUrl: string;
  fileToExtract: string;
}

async function fetchDownloadInfo(artifact: DownloadArtifact, sdkVersion: string): Promise<DownloadInfo> {
  const { platform, arch } = platformParams();
  const url = new URL(`${DOWNLOAD_BASE}/${artifact}/default`);
  const params = new URLSearchParams({ arch, platform });
  // Same query as the SDK: it asks for a format for the CLI only.
  if (artifact === 'cli') params.set('format', 'tar.gz');
  params.set('sdk-name', 'sdk-typescript');
  params.set('sdk-version', sdkVersion);
  url.search = params.toString();
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new DownloadUnavailableError(
      `${DOWNLOAD_BASE} is not reachable (${cause?.code ?? cause?.message ?? (err as Error).message})`,
    );
  }
  if (!res.ok) throw new DownloadUnavailableError(`${url.href} answered HTTP ${res.status}`);
  const info = (await res.json().catch(() => undefined)) as Partial<DownloadInfo> | undefined;
  if (!info?.archiveUrl || !info.fileToExtract) {
    throw new DownloadUnavailableError(`${url.href} returned an unexpected answer`);
  }
  if (!info.archiveUrl.endsWith('.tar.gz')) {
    throw new DownloadUnavailableError(`unsupported archive format: ${info.archiveUrl}`);
  }
  return { archiveUrl: info.archiveUrl, fileToExtract: info.fileToExtract };
}

async function downloadFile(url: string, dest: string, onProgress: ProgressFn, label: string): Promise<void> {
  const controller = new AbortController();
  const abort = (): void => {
    controller.abort();
  };
  // Until the first byte: the service answered the probe moments ago, so a slow start means trouble.
  let stallTimer = setTimeout(abort, PROBE_TIMEOUT_MS * 5);
  const resetStall = (): void => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(abort, STALL_TIMEOUT_MS);
  };
  let received = 0;
  let total = 0;
  const stopHeartbeat = startHeartbeat(label, onProgress, () =>
    total ? `${mb(received)} of ${mb(total)}` : `${mb(received)} received`,
  );
  const out = await fs.open(dest, 'w');
  try {
    const res = await fetch(url, { signal: controller.signal });
    if (!res.ok || !res.body) throw new Error(`GET ${url} answered HTTP ${res.status}`);
    total = Number(res.headers.get('content-length') ?? 0);
    onProgress(`${label}: downloading ${url}${total ? ` (${mb(total)})` : ''}`);
    resetStall();
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      resetStall();
      received += chunk.byteLength;
      await out.write(chunk);
    }
  } finally {
    clearTimeout(stallTimer);
    stopHeartbeat();
    await out.close();
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Downloads `artifact` and extracts its executable to `destFile`. Throws {@link DownloadUnavailableError} when the
 * service cannot be used at all, and a plain Error when a download that had started fails; callers fall back to
 * building from source in both cases.
 */
export async function downloadTemporalBinary(
  artifact: DownloadArtifact,
  destFile: string,
  onProgress: ProgressFn,
): Promise<void> {
  const label = `download ${artifact}`;
  const info = await fetchDownloadInfo(artifact, temporalSdkVersion());
  const archive = path.join(path.dirname(destFile), 'download.tar.gz');
  try {
    await downloadFile(info.archiveUrl, archive, onProgress, label);
    if (!(await extractTarGzEntry(archive, info.fileToExtract, destFile))) {
      throw new Error(`${info.archiveUrl} does not contain ${info.fileToExtract}`);
    }
  } finally {
    await fs.rm(archive, { force: true });
  }
  onProgress(`${label}: extracted ${info.fileToExtract}`);
}
