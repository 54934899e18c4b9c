import { describe, expect, it } from 'vitest';
import { viewerTime, viewerZone } from './format';

describe('viewerZone', () => {
  it('names the zone the viewer’s own times are written in, in winter and in summer', () => {
    for (const instant of [Date.UTC(2026, 0, 15, 12), Date.UTC(2026, 6, 15, 12)]) {
      const zone = viewerZone(instant);
      expect(zone).not.toBe('');
      expect(viewerTime(instant).endsWith(zone)).toBe(true);
    }
  });
});
