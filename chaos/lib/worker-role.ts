import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { startEntry, waitUntilReady, type ServiceProcess } from './processes';

/**
 * Whether the worker process `pid` polls its task queue for activities: the server lists its
 * recent pollers with their identity, `<pid>@<host>` for the SDK's workers. (The worker's own log
 * says "worker ready" too, but the service's logger writes in 4 KiB blocks, so the line can reach
 * the pipe minutes later.)
 */
async function polling(connection: Connection, namespace: string, taskQueue: string, pid: number): Promise<boolean> {
  const res = await connection.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
  });
  return (res.pollers ?? []).some((p) => (p.identity ?? '').startsWith(`${pid}@`));
}

/** Resolves once the worker process `p` polls the task queue its `env` names; throws if it exits first or after `timeoutMs`. */
export async function waitUntilPolling(p: ServiceProcess, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  const address = env.TEMPORAL_ADDRESS;
  if (address === undefined || address === '') throw new Error('the worker role needs TEMPORAL_ADDRESS');
  const namespace = env.TEMPORAL_NAMESPACE || 'default';
  const taskQueue = env.TEMPORAL_TASK_QUEUE || 'campaign-outreach';
  let connection: Connection | undefined;
  try {
    await waitUntilReady(
      p,
      `a poller on task queue ${taskQueue}`,
      async () => {
        connection ??= await Connection.connect({ address, connectTimeout: 2_000 });
        return polling(connection, namespace, taskQueue, p.pid);
      },
      timeoutMs,
    );
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

/** The worker role (`src/entry/worker.ts`, DATABASE_URL and TEMPORAL_ADDRESS in `env`) as its own process, once it polls. */
export async function startWorkerProcess(env: NodeJS.ProcessEnv, logFile: string, timeoutMs = 180_000): Promise<ServiceProcess> {
  const p = startEntry('worker', { LOG_LEVEL: 'info', ...env }, logFile);
  await waitUntilPolling(p, env, timeoutMs);
  return p;
}
