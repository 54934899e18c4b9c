import { beforeAll } from 'vitest';

/**
 * A test file that renders a map (its offline basemap) loads the basemap's build-time modules before
 * its tests: the map imports them lazily, and an import still loading when the file's last test ends
 * makes vitest report an error after tearing its environment down. Loaded first, the map's imports
 * resolve from the module cache.
 */
export function withBasemapModules(): void {
  beforeAll(async () => {
    await Promise.all([
      import('virtual:basemap/north-america-coarse'),
      import('virtual:basemap/north-america-fine'),
    ]);
  });
}
