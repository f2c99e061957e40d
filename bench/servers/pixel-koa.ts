/**
 * Diagnostic baseline for the open pixel (BENCH_DIAG=1): Koa with @koa/router and one route
 * answering the GIF, nothing else: what serving the pixel through the framework alone would cost
 * (the service answers pixel loads before Koa, with the token check and the journal on top).
 */
import Router from '@koa/router';
import http from 'node:http';
import Koa from 'koa';
import { PIXEL_HEADERS, TRANSPARENT_GIF } from '../../src/tracking/pixel';
import { applyServiceTimeouts, listenLocal, runChild } from './child';

runChild(async () => {
  const app = new Koa();
  const router = new Router();
  router.get('/t/o/:token', (ctx) => {
    ctx.set(PIXEL_HEADERS);
    ctx.body = TRANSPARENT_GIF;
  });
  app.use(router.routes());
  const server = http.createServer(app.callback());
  applyServiceTimeouts(server);
  await listenLocal(server);
  return { server };
});
