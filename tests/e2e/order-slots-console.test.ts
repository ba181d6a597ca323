import { describe, expect, it } from 'vitest';
import { DESKTOP, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { clockText } from '../../domain/time';

/**
 * Issue 25, capacity per time slot on the order screens: Salmiya takes at most 2 pickup orders a
 * slot. The branch user's /order shows the slot running now and the next one with their load,
 * closes the next one in a rush from that line, and the server (through the gateway) has it closed.
 */
const { server, browser } = useServerAndBrowser();
const BRANCH = '/api/services/app/Branch';

describe('time slots on the order screen', () => {
  it("shows the pickup slots' load and closes the next slot with a click", async () => {
    const manager = await server.api.login('brandmanager');
    expect((await server.api.put(`${BRANCH}/Update`, { token: manager, body: { id: 1, pickupSlotMax: 2 } })).status).toBe(200);
    const branchuser = await server.api.login('branchuser');
    const loads = async () => (await server.api.get(`${BRANCH}/GetOrderSlotLoads`, { token: branchuser, query: { branchId: 1, mode: 'pickup' } })).body.result;
    const next = (await loads()).slots[1];

    const page = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await shotOnFailure(page, 'order-slots-console', async () => {
      await signIn(page, 'branchuser');
      await page.waitForURL('**/order');
      const line = page.getByTestId('slot-loads-pickup');
      await line.waitFor();
      expect(await line.textContent()).toContain(`${clockText(next.start)} 0/2`);
      await screenshot(page, 'order-slots-line');
      await page.getByRole('button', { name: `Close the ${clockText(next.start)} Pickup slot` }).click();
      await page.getByRole('button', { name: `Open the ${clockText(next.start)} Pickup slot` }).waitFor();
      expect(await line.textContent()).toContain(`${clockText(next.start)} 0/2 closed`);
      await screenshot(page, 'order-slots-closed');
    });
    expect((await loads()).slots.find((s: { start: string }) => s.start === next.start)).toMatchObject({ state: 'closed' });
  }, 180_000);
});
