import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

const url = () => `https://hooks.example.com/haulview/${Date.now()}-${Math.random().toString(36).slice(2)}`;

test.describe('webhook admin', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/webhooks');
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible();
  });

  test('creates a webhook with the demo token, then refuses the same one with 409', async ({ page }) => {
    const clientUrl = url();
    await page.getByLabel('Client URL').fill(clientUrl);
    await page.getByRole('button', { name: 'Use the demo token' }).click();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const card = page.getByRole('region', { name: 'Webhook created' });
    await expect(card).toContainText(clientUrl);
    await expect(card).toContainText(/\/api\/v1\/webhooks\/[0-9a-f-]{36}/);
    await expect(card.getByRole('button', { name: /copy/i }).first()).toBeVisible();
    // The team's list, kept by the server, lists it too.
    await expect(page.getByRole('region', { name: 'Created through Haulview' })).toContainText(clientUrl);
    await page.screenshot({ path: 'test-results/screenshots/webhook-created.png', fullPage: true });
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const title = page.getByText('A webhook for this event type and URL already exists');
    await expect(title).toBeVisible();
    // It points to the entry it duplicates; the service's own lines stay behind "Details".
    const summary = page.locator('[aria-labelledby="webhook-failure-title"]');
    await expect(summary.getByRole('link', { name: /^created .+, UUID [0-9a-f-]{36}$/ })).toHaveAttribute(
      'href',
      /^#created-webhook-[0-9a-f-]{36}$/,
    );
    await expect(
      page.getByRole('region', { name: 'Created through Haulview' }).locator('tr[aria-current="true"]'),
    ).toContainText(clientUrl);
    await expect(summary.locator('details')).not.toHaveAttribute('open');
    await page.screenshot({ path: 'test-results/screenshots/webhook-duplicate.png', fullPage: true });
  });

  /** Creating with this client URL is refused in the form, with `message`; nothing is sent. */
  async function refusedBeforeSending(page: Page, clientUrl: string, message: string | RegExp) {
    let sent = 0;
    // Only a POST creates; the team's list (a GET of the same path) may load or refetch meanwhile.
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/webhooks')) sent++;
    });
    await page.getByLabel('Client URL').fill(clientUrl);
    await page.getByRole('button', { name: 'Use the demo token' }).click();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.getByText(message).first()).toBeVisible();
    expect(sent).toBe(0);
  }

  test('refuses a private address as a client URL before sending anything', async ({ page }) => {
    await refusedBeforeSending(page, 'https://192.168.1.20/hooks', /private network/);
  });

  test('blocks an http:// address before sending anything', async ({ page }) => {
    await refusedBeforeSending(page, 'http://hooks.example.com/x', /must start with https:\/\//);
  });

  test('refuses an address with a space before sending anything', async ({ page }) => {
    // Chromium's own URL parser takes it (the host becomes exa%20mple.com); the service does not.
    await refusedBeforeSending(page, 'https://exa mple.com/hook', 'an address has no spaces');
  });

  test('says the token is invalid and moves focus to it on 401', async ({ page }) => {
    await page.getByLabel('Client URL').fill(url());
    await page.getByLabel('Bearer token').fill('not.a.token');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.getByText('The token is invalid or expired').first()).toBeVisible();
    await expect(page.getByLabel('Bearer token')).toBeFocused();
  });

  test('shows the upstream 422 for an event type forced wrong under the event type field', async ({
    page,
  }) => {
    await page.route('**/api/webhooks', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...body, eventType: 'LoadDelivered' }) });
    });
    await page.getByLabel('Client URL').fill(url());
    await page.getByRole('button', { name: 'Use the demo token' }).click();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const eventType = page.getByLabel('Event type');
    await expect(eventType).toHaveAttribute('aria-invalid', 'true');
    // The service's message and its allowed values stand under the field, tied to it.
    await expect(eventType).toHaveAccessibleDescription(/must be one of: PdvRequestCompleted/);
    await page.screenshot({ path: 'test-results/screenshots/webhook-422.png', fullPage: true });
  });

  test('has no serious accessibility violations', async ({ page }) => {
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
