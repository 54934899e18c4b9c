import { DEMO_ACCOUNT_ID, DEMO_JWT_SECRET } from '../../src/simulator/demo';

/**
 * The pull credentials every e2e server runs with: distinctive values, so finding one anywhere the
 * browser, the bundle or a log can show is a leak and not a coincidence. The embedded simulator accepts
 * whatever pair the server is configured with.
 */
export const E2E_CREDENTIALS = { partnerId: '731904586', accountId: 'U2FsdGVkX1-e2e-canary-7f3a9c0b' };

/** What must never leave the server: the configured pair, the demo account and the simulator's JWT secret. */
export const SECRETS = [
  E2E_CREDENTIALS.partnerId,
  E2E_CREDENTIALS.accountId,
  DEMO_ACCOUNT_ID,
  DEMO_JWT_SECRET,
];

export function secretsIn(text: string): string[] {
  return SECRETS.filter((s) => text.includes(s));
}
