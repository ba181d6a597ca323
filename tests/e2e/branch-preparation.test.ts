import { describe, expect, it } from 'vitest';
import { DESKTOP, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 25: a branch's preparation minutes (the fire time of an order for later is its chosen time
 * less them) have a console field, in the branch's order settings on /branches/printers/:id, beside
 * auto-accept and the deadline. A brand manager saves it, it is read back after a reload and by the
 * server; a value out of 1..240 cannot be saved.
 */
const { server, browser } = useServerAndBrowser();

describe("a branch's preparation minutes in the console", () => {
  it('are saved from the order settings and read back', async () => {
    const page = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await shotOnFailure(page, 'branch-preparation', async () => {
      await signIn(page, 'brandmanager');
      await page.goto('/branches/printers/1');
      await page.getByRole('heading', { name: 'Printers and orders · Salmiya' }).waitFor();
      const field = page.getByLabel('Preparation time');
      expect(await field.inputValue()).toBe('15');
      const save = page.getByRole('button', { name: 'Save' });

      await field.fill('0');
      await page.getByText('Give a whole number of minutes from 1 to 240.').waitFor();
      expect(await save.isDisabled()).toBe(true);

      await field.fill('25');
      await page.getByText('an order for later reaches the kitchen this long before its time', { exact: false }).waitFor();
      await save.click();
      await page.getByText('New orders wait for someone to accept them.').waitFor();
      await screenshot(page, 'branch-preparation-saved');

      await page.reload();
      await page.getByRole('heading', { name: 'Printers and orders · Salmiya' }).waitFor();
      expect(await page.getByLabel('Preparation time').inputValue()).toBe('25');
    });
    const settings = await server.api.get('/api/services/app/Branch/GetBranchesForCurrentUser', {
      token: await server.api.login('brandmanager'), query: { SkipCount: 0, MaxResultCount: 1, id: 1 },
    });
    expect(settings.body.result.data[0]).toMatchObject({ id: 1, preparationMinutes: 25 });
    await page.context().close();
  }, 120_000);
});
