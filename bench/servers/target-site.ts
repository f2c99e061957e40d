/**
 * The company site campaigns speak for (their target_url): one HTML home page with a name, a
 * description and a contact address, so the prepareCampaign scrape succeeds with one request.
 * Every other path is a 404. Campaign benches point their target_url here, so starting a campaign
 * costs what it costs in production minus the internet's latency.
 */
import http from 'node:http';
import { applyServiceTimeouts, listenLocal, runChild } from './child';

const HOME = `<!doctype html>
<html><head><title>Acme Analytics</title>
<meta name="description" content="Dashboards for finance teams: close the books in days, not weeks.">
</head><body><h1>Acme Analytics</h1>
<p>Acme Analytics builds reporting dashboards for finance teams at mid-sized companies.</p>
<p>Contact: <a href="mailto:hello@acme-analytics.example">hello@acme-analytics.example</a></p>
</body></html>`;

runChild(async () => {
  const body = Buffer.from(HOME, 'utf8');
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url === '')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
  applyServiceTimeouts(server);
  await listenLocal(server);
  return { server };
});
