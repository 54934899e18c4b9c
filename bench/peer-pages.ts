import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { build } from 'esbuild';

/**
 * The peer pages of the map bench (bench/peers/), each an entry of its own; `floor` and `read` are the
 * least a Leaflet page can do with the answer (every load drawn on one canvas; the answer read and
 * nothing drawn), beside them to show what the ratio goals leave room for.
 */
export const PEER_PAGES = ['markercluster', 'react-leaflet', 'floor', 'read'] as const;
export type PeerPage = (typeof PEER_PAGES)[number];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface PeerSite {
  url: string;
  /** What `/answer.json` and `/delta.json` serve from now on. */
  answer: (text: string) => void;
  delta: (text: string) => void;
  stop: () => Promise<void>;
}

/**
 * Bundles the peer pages with esbuild (production React, minified, as an app would ship them) into a
 * folder of their own, and serves them on a loopback port with the answers the bench hands them.
 * Nothing here is part of the app's build.
 */
export async function startPeerSite(): Promise<PeerSite> {
  const dir = mkdtempSync(join(tmpdir(), 'haulview-peers-'));
  await build({
    entryPoints: PEER_PAGES.map((p) => `bench/peers/${p}.${p === 'react-leaflet' ? 'tsx' : 'ts'}`),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    outdir: dir,
    loader: { '.png': 'file' },
    assetNames: 'images/[name]',
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    logLevel: 'error',
  });
  mkdirSync(join(dir, 'images'), { recursive: true });
  for (const png of readdirSync('node_modules/leaflet/dist/images'))
    copyFileSync(join('node_modules/leaflet/dist/images', png), join(dir, 'images', png));
  let answer = '{"loads":[]}';
  let delta = '{"loads":[]}';
  const server: Server = createServer((req, res) => {
    const asked = new URL(req.url ?? '/', 'http://x');
    const path = asked.pathname;
    const page = PEER_PAGES.find((p) => path === `/${p}`);
    let body: string | Buffer;
    let type: string;
    if (page) {
      type = TYPES['.html'] as string;
      // The map's size in pixels (`?w=&h=`): the bench gives each peer the size of Haulview's map.
      const size = (name: string, fallback: string) => {
        const n = Number(asked.searchParams.get(name));
        return Number.isInteger(n) && n > 0 ? `${n}px` : fallback;
      };
      body = `<!doctype html><html><head><meta charset="utf-8"><title>${page}</title><link rel="stylesheet" href="/${page}.css"><style>html,body{margin:0;height:100%}#map{width:${size('w', '100%')};height:${size('h', '100%')}}</style></head><body><div id="map"></div><script type="module" src="/${page}.js"></script></body></html>`;
    } else if (path === '/answer.json' || path === '/delta.json') {
      type = TYPES['.json'] as string;
      body = path === '/answer.json' ? answer : delta;
    } else {
      try {
        body = readFileSync(join(dir, path.replace(/\.\.+/g, '')));
        type = TYPES[extname(path)] ?? 'application/octet-stream';
      } catch {
        res.writeHead(404).end();
        return;
      }
    }
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answer: (text) => (answer = text),
    delta: (text) => (delta = text),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
