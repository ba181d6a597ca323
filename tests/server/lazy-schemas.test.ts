import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { compileAllSchemas } from '../../server/http/lazySchemas';

/**
 * Start-up (issue 14): a route's validators and serializers are compiled on its first request
 * (compiling all ~240 routes' schemas at start-up was 2.4–3.5 s of buildApp under load 11, 0.17 s
 * without). Every schema must still compile, and validation must answer as before.
 */
describe('schemas compiled on first use', () => {
  it('builds the app without compiling a schema, then compiles every one of them without error', async () => {
    compileAllSchemas();
    const { app } = await buildApp({ db: {} as never, jwtSecret: 'x'.repeat(40) });
    await app.ready();
    const waiting = compileAllSchemas();
    // Each route with a body, query, params, headers or response schema left its compile for later.
    expect(waiting).toBeGreaterThan(200);
    expect(compileAllSchemas()).toBe(0);
    await app.close();
  });

  it('a lazily compiled validator refuses bad input with the field named, and coerces a query as before', async () => {
    const { app } = await buildApp({ db: {} as never, jwtSecret: 'x'.repeat(40) });
    app.post('/probe/:id', {
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        querystring: { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } },
        headers: { type: 'object', properties: { 'x-probe': { type: 'string', minLength: 2 } } },
        body: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'], additionalProperties: false },
        response: { 200: { type: 'object', properties: { id: { type: 'integer' }, ids: { type: 'array', items: { type: 'integer' } }, name: { type: 'string' } } } },
      },
    }, async (req) => ({ ...(req.params as object), ...(req.query as object), ...(req.body as object), secret: 'not serialised' }));
    await app.ready();
    const bad = await app.inject({ method: 'POST', url: '/probe/7', payload: { name: '' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Your request is not valid!');
    expect(JSON.stringify(bad.json().error.validationErrors)).toContain('name');
    const header = await app.inject({ method: 'POST', url: '/probe/7', headers: { 'X-Probe': 'a' }, payload: { name: 'x' } });
    expect(header.statusCode).toBe(400);
    const ok = await app.inject({ method: 'POST', url: '/probe/7?ids=3', payload: { name: 'Mango', extra: 1 } });
    expect(ok.statusCode).toBe(200);
    // The root query's single value is coerced into the array; the extra field is removed; the response schema drops `secret`.
    expect(ok.json()).toEqual({ id: 7, ids: [3], name: 'Mango' });
    await app.close();
  });
});
