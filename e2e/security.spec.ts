import { E2E_CREDENTIALS } from './support/credentials';
import { expect, test } from './support/fixtures';

test('the credential guard fails a test whose page receives a secret', async ({ page }) => {
  // The guard (support/fixtures.ts) runs after the test body: this test passes only if it fails.
  test.fail();
  await page.route('**/planted-leak', (route) =>
    route.fulfill({ contentType: 'text/plain', body: `partner ${E2E_CREDENTIALS.partnerId}` }),
  );
  await page.goto('/planted-leak');
  await expect(page.locator('body')).toContainText('partner');
});
