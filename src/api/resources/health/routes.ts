import { Type } from '@sinclair/typebox';
import { defineRoute } from '../../http/route';
import { serviceUnavailable } from '../../http/errors';

const CHECK_TIMEOUT_MS = 2_000;

const healthz = defineRoute({
  method: 'get',
  path: '/healthz',
  auth: 'none',
  operationId: 'healthz',
  summary: 'Liveness: the API process is up',
  tags: ['health'],
  responses: { 200: { description: 'Alive', schema: Type.Object({ status: Type.Literal('ok') }) } },
  handler: async () => ({ body: { status: 'ok' } }),
});

async function check(name: string, probe: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS).unref()),
    ]);
    return undefined;
  } catch (err) {
    return `${name} unreachable (${(err as Error).message.split('\n')[0]})`;
  }
}

const readyz = defineRoute({
  method: 'get',
  path: '/readyz',
  auth: 'none',
  operationId: 'readyz',
  summary: 'Readiness: PostgreSQL and Temporal are reachable',
  tags: ['health'],
  errors: [503],
  responses: {
    200: {
      description: 'Ready',
      schema: Type.Object({ status: Type.Literal('ready'), checks: Type.Object({ postgres: Type.Literal('ok'), temporal: Type.Literal('ok') }) }),
    },
  },
  handler: async (_input, { deps }) => {
    const failures = (
      await Promise.all([
        check('postgres', () => deps.sequelize.query('SELECT 1')),
        check('temporal', () => deps.temporal.ping(CHECK_TIMEOUT_MS)),
      ])
    ).filter((f): f is string => f !== undefined);
    if (failures.length > 0) throw serviceUnavailable(`Not ready: ${failures.join('; ')}`);
    return { body: { status: 'ready', checks: { postgres: 'ok', temporal: 'ok' } } };
  },
});

export const healthRoutes = [healthz, readyz];
