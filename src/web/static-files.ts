import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineRoute, type AnyRoute } from '../api/http/route';
import { notFound } from '../api/http/errors';

/**
 * The dashboard's static files, read once at start and served from memory: a fixed list, so no
 * path from the request ever reaches the file system.
 */
const FILES: Readonly<Record<string, { readonly type: string; readonly body: Buffer }>> = Object.fromEntries(
  [
    ['style.css', 'text/css; charset=utf-8'],
    ['app.js', 'text/javascript; charset=utf-8'],
  ].map(([name, type]) => [name, { type: type!, body: readFileSync(path.join(__dirname, 'static', name!)) }]),
);

const staticFile = defineRoute({
  method: 'get',
  path: '/dashboard/static/:file',
  auth: 'none',
  hidden: true,
  operationId: 'dashboardStatic',
  summary: 'Dashboard stylesheet and script',
  tags: ['dashboard'],
  responses: { 200: { description: 'A static file', contentType: 'text/css' } },
  handler: async (_input, { koa }) => {
    const file = Object.hasOwn(FILES, koa.params.file ?? '') ? FILES[koa.params.file!] : undefined;
    if (file === undefined) throw notFound('No such file');
    return { body: file.body, headers: { 'Content-Type': file.type, 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' } };
  },
});

export const staticRoutes: readonly AnyRoute[] = [staticFile];
