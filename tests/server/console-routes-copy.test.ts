import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

/** Issue 23, copy: the server's not-found text is plain English ('There is no such an entity. User' before). */
let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server?.close(); });

describe('not found, in plain English', () => {
  it('names what was not found', async () => {
    const token = await server.api.login('admin');
    const user = await server.api.get('/api/services/app/User/Get', { token, query: { Id: 99999 } });
    expect(user.status).toBe(404);
    expect(user.body.error?.message).toBe('User not found.');
    const customer = await server.api.get('/api/services/app/Customer/GetCustomerDetailsById', { token, query: { Id: 99999 } });
    expect(customer.status).toBe(404);
    expect(customer.body.error?.message).toBe('Customer not found.');
  });
});
