import L from 'leaflet';
import { describe, expect, it } from 'vitest';
import { clusterIcon, resizeBadge } from './load-markers-layer';

describe('cluster badges', () => {
  it('a badge reused for a bigger cluster takes its size in place, and keeps it when made again', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const map = L.map(container).setView([40, -96], 4);
    const badge = L.marker([40, -96], { icon: clusterIcon(5) }).addTo(map);
    const element = badge.getElement()!;
    expect(element.style.width).toBe('30px');

    resizeBadge(badge, 500);
    // The same element, now 42 px and centred on its place.
    expect(badge.getElement()).toBe(element);
    expect(element.style.width).toBe('42px');
    expect(element.style.height).toBe('42px');
    expect(element.style.marginLeft).toBe('-21px');
    expect(element.style.marginTop).toBe('-21px');
    // Taken off and put back, Leaflet makes it from the icon in its options: the new size.
    badge.remove().addTo(map);
    expect(badge.getElement()!.style.width).toBe('42px');
    map.remove();
  });
});
