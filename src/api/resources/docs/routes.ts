import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../http/errors';
import { defineRoute, type AnyRoute, type HandlerResult } from '../../http/route';

// swagger-ui-dist ships the reference page's assets; serving them ourselves keeps /docs offline.
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Campaign Outreach API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true, tryItOutEnabled: false });`;

/** `/openapi.json` (built from the route table) and a readable reference page at `/docs`. */
export function docsRoutes(document: () => Record<string, unknown>): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      auth: 'none',
      operationId: 'getOpenApi',
      summary: 'This document: the OpenAPI 3.1 description of every endpoint',
      tags: ['docs'],
      responses: { 200: { description: 'OpenAPI 3.1 document', schema: Type.Object({ openapi: Type.String() }) } },
      handler: async () => ({ body: document() }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      auth: 'none',
      hidden: true,
      operationId: 'getDocsPage',
      summary: 'API reference page',
      tags: ['docs'],
      responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
      handler: async () => ({ body: PAGE, headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs/assets/:file',
      auth: 'none',
      hidden: true,
      operationId: 'getDocsAsset',
      summary: 'Asset of the API reference page',
      tags: ['docs'],
      params: Type.Object({ file: Type.String({ maxLength: 64 }) }),
      responses: { 200: { description: 'Static asset', contentType: 'application/octet-stream' } },
      handler: async ({ params }): Promise<HandlerResult> => {
        if (params.file === 'init.js') return { body: INIT, headers: { 'Content-Type': 'application/javascript; charset=utf-8' } };
        const type = ASSETS[params.file];
        if (type === undefined) throw notFound();
        return {
          body: createReadStream(path.join(SWAGGER_DIR, params.file)),
          headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' },
        };
      },
    }),
  ];
}
