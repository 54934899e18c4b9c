import L from 'leaflet';
import { describe, expect, it } from 'vitest';
import { badgeSize, ClusterBadge } from './cluster-badge';

describe('cluster badges', () => {
  it('are sized by their count, and a badge that counts another number takes its size in place', () => {
    expect([5, 50, 500, 5000].map(badgeSize)).toEqual([30, 36, 42, 50]);
    const container = document.createElement('div');
    document.body.append(container);
    // No canvas in jsdom: the badge is drawn as a plain circle by the SVG renderer.
    const map = L.map(container, { preferCanvas: false }).setView([40, -96], 4);
    const badge = new ClusterBadge([40, -96], 5, 1).addTo(map);
    const path = container.querySelector('path.haulview-cluster');
    expect(badge.getRadius()).toBe(15);
    badge.setCount(500, 0);
    expect(badge.count).toBe(500);
    expect(badge.getRadius()).toBe(21);
    // The same layer and element, drawn again at its new size.
    expect(container.querySelector('path.haulview-cluster')).toBe(path);
    expect(path?.getAttribute('d')).toContain('a21,21');
    map.remove();
  });
});
