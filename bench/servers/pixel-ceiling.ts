/**
 * Ceiling for the open pixel: bare node:http answering every request with the service's GIF and
 * headers (src/tracking/pixel.ts), without routing, token check or recording.
 */
import http from 'node:http';
import { PIXEL_HEADERS, TRANSPARENT_GIF } from '../../src/tracking/pixel';
import { applyServiceTimeouts, listenLocal, runChild } from './child';

runChild(async () => {
  const headers = { ...PIXEL_HEADERS, 'Content-Length': TRANSPARENT_GIF.length };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(TRANSPARENT_GIF);
  });
  applyServiceTimeouts(server);
  await listenLocal(server);
  return { server };
});
