import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { RESOURCE_ROUTES } from '../../src/api/routes';
import { request, useTestApi } from '../support/api';

describe('OpenAPI document, reference page and health', () => {
  const t = useTestApi();

  it('/openapi.json is a valid OpenAPI 3.1 document', async () => {
    const res = await request(`${t.api.baseUrl}/openapi.json`);
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.equal('3.1.0');
    const result = await new Validator().validate(res.body as never);
    expect(result.valid, JSON.stringify(result.errors)).to.equal(true);
  });

  it('documents every declared route with its security and error responses', async () => {
    const doc = (await request<{ paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>> }>(`${t.api.baseUrl}/openapi.json`)).body;
    for (const route of RESOURCE_ROUTES.filter((r) => !r.hidden)) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method];
      expect(op, `${route.method} ${route.path}`).to.be.an('object');
      if (route.auth === 'a') expect(op?.security).to.deep.equal([{ bearerAuth: [] }]);
      if (route.auth === 'b') expect(op?.security).to.deep.equal([{ apiKeyAuth: [] }]);
      if (route.auth !== 'none') expect(op?.responses).to.include.keys('401');
    }
    expect(doc.paths['/v1/me']?.get?.responses).to.include.keys('200', '401', '500');
  });

  it('/docs is a reference page whose assets are served locally', async () => {
    const page = await request(`${t.api.baseUrl}/docs`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    const assets = [...page.text.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).to.have.length(3);
    for (const asset of assets) {
      const res = await fetch(`${t.api.baseUrl}${asset}`);
      expect(res.status, asset).to.equal(200);
      expect((await res.arrayBuffer()).byteLength).to.be.greaterThan(10);
    }
    expect((await request(`${t.api.baseUrl}/docs/assets/..%2F..%2Fpackage.json`)).status).to.equal(404);
  });

  it('/healthz answers while a dependency is down; /readyz says which one with a 503', async () => {
    expect((await request(`${t.api.baseUrl}/healthz`)).body).to.deep.equal({ status: 'ok' });
    const ready = await request(`${t.api.baseUrl}/readyz`);
    expect(ready.status).to.equal(503);
    expect(Object.keys(ready.body)).to.deep.equal(['error']);
    expect(ready.body.error).to.match(/temporal unreachable/);
    expect(ready.body.error).not.to.match(/postgres/);
  });

  it('the dashboard serves its sign-in page, and no page of it is in the API document', async () => {
    const res = await request(`${t.api.baseUrl}/dashboard`);
    expect(res.status).to.equal(200);
    expect(res.text).to.include('<h1>Sign in</h1>');
    expect(Object.keys((t.api.openapi as { paths: Record<string, unknown> }).paths).filter((p) => p.startsWith('/dashboard'))).to.deep.equal([]);
  });
});
