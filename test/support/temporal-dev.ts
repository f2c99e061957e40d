import { spawn } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { stopProcess } from '../../src/embedded/child-process';
import { freePort, waitForPort } from '../../src/net/ports';
import { ensureTemporalCli } from '../../src/temporal/binaries';
import { CAMPAIGN_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

export interface TestDevServer {
  readonly address: string;
  stop(): Promise<void>;
}

/**
 * A real Temporal dev server (the CLI's `server start-dev`, in memory, no Web UI) on a free port,
 * with the campaign search attributes: for tests that run workflows in real time through the API.
 * Workflow logic over simulated days uses the time-skipping server instead (time-skipping.ts).
 */
export async function startTestDevServer(): Promise<TestDevServer> {
  // A free port can be taken by another process between the probe and the server's bind, and a
  // port that answers may then be that other process: the server is only ours once it answers
  // Temporal's own API and is still running. Three tries, each on a fresh port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort();
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

async function startOnFreePort(): Promise<TestDevServer> {
  const cli = await ensureTemporalCli();
  const port = await freePort();
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--headless', '--log-level', 'error',
    ...CAMPAIGN_SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a.name}=Keyword`])];
  const child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4000)));
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const address = `127.0.0.1:${port}`;
  try {
    await waitForPort(port, { timeoutMs: 60_000, abortReason: () => (child.exitCode === null ? undefined : `dev server exited: ${stderr}`) });
    const connection = await Connection.connect({ address, connectTimeout: '10 seconds' });
    try {
      await connection.workflowService.getSystemInfo({});
    } finally {
      await connection.close();
    }
    if (child.exitCode !== null) throw new Error(`dev server exited: ${stderr}`);
  } catch (err) {
    process.removeListener('exit', killOnExit);
    await stopProcess(child, 'SIGKILL', 1_000);
    throw err;
  }
  return {
    address,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await stopProcess(child, 'SIGTERM', 10_000);
    },
  };
}
