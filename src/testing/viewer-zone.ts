import { afterAll, vi } from 'vitest';

/**
 * Puts the test file's viewer in an IANA zone, so times "in my zone" are checked against one that
 * differs from UTC and from the drivers' zones, whatever the machine's. Call it at the top of the
 * file: the viewer's time format is made once, with the zone in force at the first time written.
 */
export function viewerInZone(zone: string): void {
  // Node reads a new TZ at once (its setter resets the zone Date and Intl use).
  vi.stubEnv('TZ', zone);
  afterAll(() => {
    vi.unstubAllEnvs();
  });
}
