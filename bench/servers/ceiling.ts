/**
 * Ceiling baseline: bare node:http answering a fixed body (BENCH_BODY) with the service's content
 * type. Nothing a real endpoint could do is faster on this machine.
 */
import http from 'node:http';
import { applyServiceTimeouts, listenLocal, runChild } from './child';

runChild(async () => {
  const body = Buffer.from(process.env.BENCH_BODY ?? '', 'utf8');
  if (body.length === 0) throw new Error('BENCH_BODY is empty');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  applyServiceTimeouts(server);
  await listenLocal(server);
  return { server };
});
