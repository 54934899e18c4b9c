import { expect, test as base } from '@playwright/test';
import { secretsIn } from './credentials';

/**
 * Every spec imports `test` from here: each response any page of the test receives (headers and body,
 * API calls, the app's files, document images) is recorded, and the test fails if one carries a secret.
 */
export const test = base.extend<{ credentialGuard: void }>({
  credentialGuard: [
    async ({ context }, use) => {
      const checks: Promise<string | null>[] = [];
      context.on('response', (response) => {
        checks.push(
          (async () => {
            const headers = JSON.stringify(await response.allHeaders().catch(() => response.headers()));
            let body = '';
            // A live stream's body ends only with its page, after this check: its headers are read.
            const stream = response.headers()['content-type']?.startsWith('text/event-stream');
            try {
              if (!stream) body = (await response.body()).toString('utf8');
            } catch {
              // A redirect, or a load the page abandoned, has no body to read.
            }
            const found = secretsIn(`${headers}\n${body}`);
            return found.length > 0 ? `${response.url()} carries ${found.join(', ')}` : null;
          })(),
        );
      });
      await use();
      const leaks = (await Promise.all(checks)).filter((c): c is string => c !== null);
      // A test that opened a page saw responses (else the guard would be watching nothing).
      if (context.pages().length > 0) expect(checks.length, 'the browser saw responses').toBeGreaterThan(0);
      expect(leaks, 'responses the browser saw that carry a secret').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
