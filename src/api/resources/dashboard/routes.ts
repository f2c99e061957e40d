import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineRoute } from '../../http/route';

// The page is static; it talks to the documented /v1 endpoints with the key the user pastes in,
// so the dashboard has no API of its own and no session state on the server.
const PAGE = readFileSync(path.join(__dirname, 'dashboard.html'), 'utf8');

const dashboard = defineRoute({
  method: 'get',
  path: '/dashboard',
  auth: 'none',
  hidden: true,
  operationId: 'getDashboard',
  summary: 'Dashboard',
  tags: ['dashboard'],
  responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
  handler: async () => ({
    body: PAGE,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'",
    },
  }),
});

const campaignPage = defineRoute({
  ...dashboard,
  path: '/dashboard/campaigns/:id',
  operationId: 'getDashboardCampaign',
  summary: 'Dashboard page of one campaign',
});

export const dashboardRoutes = [dashboard, campaignPage];
