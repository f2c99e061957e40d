import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CampaignWorkflowActivities, WebhookWorkflowActivities } from '../../activities';
import { WORKFLOWS_PATH } from '../../src/worker/create-worker';

const bundles = new Map<string, Promise<WorkflowBundleWithSourceMap>>();
const quiet = { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The workflow code is bundled once per test run; each test gets its own worker and task queue.
 * `workflowsPath` is the worker's entry point (the real one unless a test replays against another).
 */
export function workflowBundle(workflowsPath: string = WORKFLOWS_PATH): Promise<WorkflowBundleWithSourceMap> {
  let bundle = bundles.get(workflowsPath);
  if (bundle === undefined) {
    bundle = bundleWorkflowCode({ workflowsPath, logger: quiet as never });
    bundles.set(workflowsPath, bundle);
  }
  return bundle;
}

/** The activities a test worker may register: those the workflows call, with the implementations' signatures. */
export type TestWorkerActivities = Partial<CampaignWorkflowActivities & WebhookWorkflowActivities>;

export async function createTestWorker(env: TestWorkflowEnvironment, taskQueue: string, activities: TestWorkerActivities): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
  });
}
