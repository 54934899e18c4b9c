import { afterAll, beforeAll } from 'vitest';

/**
 * jsdom has no layout: a Leaflet map needs a size to know what is in view. Call it inside a
 * `describe`: every element is that size while its tests run.
 */
export function withMapSize(width = 800, height = 600): void {
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => width });
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => height });
  });
  afterAll(() => {
    Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
    Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
  });
}
