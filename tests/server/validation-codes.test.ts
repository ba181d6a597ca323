import { describe, expect, it } from 'vitest';
import { useServer } from '../support/harness';

const server = useServer();

const REGISTER = '/api/services/app/Customer/GetALlconfermationCode';
const RESET = '/api/services/app/Customer/GetAllForgetCodes';

describe('validation codes for staff (/ValidationCode)', () => {
  it('lists registration and reset codes separately, newest first, filtered by phone', async () => {
    await server.api.post('/api/services/app/Customer/RegistrateNewUnregisteredUser', { body: { phoneNumber: '+96551112222' } });
    await server.api.get('/api/TokenAuth/SendPasswordResetCodeBySms', { query: { phoneNumber: '+96550000001' } });
    const admin = await server.api.login('admin');
    const reg = await server.api.get(REGISTER, { token: admin, query: { PhoneNumber: '51112222' } });
    expect(reg.status).toBe(200);
    expect(reg.body.result.totalCount).toBe(1);
    expect(reg.body.result.data[0]).toMatchObject({ phoneNumber: '+96551112222', code: expect.stringMatching(/^\d{6}$/), usedAt: null });
    const reset = await server.api.get(RESET, { token: admin });
    expect(reset.body.result.data.map((r: { phoneNumber: string }) => r.phoneNumber)).toEqual(['+96550000001']);
  });

  it.each([['branchuser', 403], ['customer', 403]] as const)('is refused to %s', async (user, status) => {
    const token = await server.api.login(user);
    expect((await server.api.get(REGISTER, { token })).status).toBe(status);
  });

  it('needs a token', async () => {
    expect((await server.api.get(RESET)).status).toBe(401);
  });
});
