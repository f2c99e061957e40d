import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CampaignActivities } from '../../activities';
import { WORKFLOWS_PATH } from '../../src/worker/create-worker';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** The workflow code is bundled once per test run; each test gets its own worker and task queue. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as never });
  return bundle;
}

export async function createTestWorker(env: TestWorkflowEnvironment, taskQueue: string, activities: Partial<CampaignActivities>): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
  });
}
